"""The split builder: what it joins, and which seeds it may draw."""

import numpy as np
import pytest

from lab.training.dataset import RECIPE_TRAIN_SCENES, TEST_SEEDS, TRAIN_SEEDS, gather


def _parts(sizes: tuple[int, ...]) -> list[dict[str, np.ndarray]]:
    rng = np.random.default_rng(0)
    return [{"crops": rng.integers(0, 256, (n, 4, 3, 3), dtype=np.uint8),
             "cls": np.full(n, k, np.int64)} for k, n in enumerate(sizes)]


def test_scenes_are_joined_in_order_with_no_rows_left_over():
    parts = _parts((5, 0, 7, 2))
    joined = gather(iter(parts), most=20)  # a scene with squares under a hand gives fewer
    assert joined.keys() == parts[0].keys()
    for key in joined:
        expected = np.concatenate([p[key] for p in parts])
        assert joined[key].dtype == expected.dtype
        np.testing.assert_array_equal(joined[key], expected)


def test_more_squares_than_the_split_was_sized_for_is_an_error_not_a_loss():
    with pytest.raises(ValueError, match="sized for"):
        gather(iter(_parts((5, 7))), most=10)


def test_more_training_scenes_never_reach_the_test_seeds():
    assert RECIPE_TRAIN_SCENES <= len(TRAIN_SEEDS)
    assert max(TRAIN_SEEDS) < min(TEST_SEEDS)
