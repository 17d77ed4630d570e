"""The split builder: what it joins, and which seeds it may draw."""

import numpy as np

from models.dataset import RECIPE_TRAIN_SCENES, TEST_SEEDS, TRAIN_SEEDS, concatenate


def test_scenes_are_joined_in_order_and_each_part_let_go():
    rng = np.random.default_rng(0)
    parts = [{"crops": rng.integers(0, 256, (n, 4, 3, 3), dtype=np.uint8),
              "board": np.full(n, k, np.int64)} for k, n in enumerate((5, 0, 7, 2))]
    expected = {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}
    joined = concatenate(parts)
    assert joined.keys() == expected.keys()
    for key in expected:
        assert joined[key].dtype == expected[key].dtype
        np.testing.assert_array_equal(joined[key], expected[key])
    assert all(part == {} for part in parts)  # no crop is held twice


def test_more_training_scenes_never_reach_the_test_seeds():
    assert RECIPE_TRAIN_SCENES <= len(TRAIN_SEEDS)
    assert max(TRAIN_SEEDS) < min(TEST_SEEDS)
