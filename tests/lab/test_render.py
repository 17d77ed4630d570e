"""The renderer: reproducible, and its ground truth agrees with what it draws."""

import numpy as np
import pytest

from lab.render import Hand, Renderer, random_position, sample_scene
from makhos.vision.rectify import played_cells

SIZE = (320, 240)


def _frame(seed: int, **kwargs):
    rng = np.random.default_rng(seed)
    scene = sample_scene(rng, size=SIZE, **kwargs)
    return scene, Renderer(scene).render(random_position(rng), seed=seed)


def test_same_seed_same_frame():
    _, a = _frame(7)
    _, b = _frame(7)
    assert np.array_equal(a.image, b.image)
    assert a.squares == b.squares and np.array_equal(a.corners, b.corners)
    _, c = _frame(8)
    assert not np.array_equal(a.image, c.image)


@pytest.mark.parametrize("seed", range(6))
def test_corners_inside_and_not_mirrored(seed):
    """Corners run top-left, top-right, bottom-right, bottom-left: clockwise on screen."""
    _, frame = _frame(seed)
    c = frame.corners
    assert np.all(c >= 0) and np.all(c[:, 0] < SIZE[0]) and np.all(c[:, 1] < SIZE[1])
    x, y = c[:, 0], c[:, 1]
    signed_area = 0.5 * np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y)
    assert signed_area > 0  # image y points down, so clockwise has positive area


@pytest.mark.parametrize("played", ["dark", "light"])
def test_grid_matches_squares_and_played_colour(played):
    _, frame = _frame(3, played=played)
    parity = 1 if played == "dark" else 0
    for sq, (r, c) in enumerate(played_cells(played), start=1):
        assert (r + c) % 2 == parity
        assert frame.grid[r][c] == frame.squares[sq - 1]
    unplayed = [frame.grid[r][c] for r in range(8) for c in range(8) if (r + c) % 2 != parity]
    assert set(unplayed) == {"-"}


def test_pieces_drawn_where_labelled():
    """From straight above, a square's centre shows its piece's colour, else the board's."""
    rng = np.random.default_rng(5)
    scene = sample_scene(rng, size=(640, 480), elevation=(89, 90), board_palettes=("green-buff-1",),
                         piece_sets=("yellow-blue-1",))
    frame = Renderer(scene).render({1: "l", 14: "d"}, seed=0)
    from makhos.vision.rectify import board_to_image

    H = board_to_image(frame.corners)

    def colour_at(square: int) -> np.ndarray:
        r, c = played_cells(scene.played)[square - 1]
        p = H @ [c + 0.5, r + 0.5, 1]
        x, y = (p[:2] / p[2]).round().astype(int)
        return frame.image[y - 1:y + 2, x - 1:x + 2].reshape(-1, 3).mean(0)

    yellow, blue = np.asarray(scene.pieces.pieces.light), np.asarray(scene.pieces.pieces.dark)
    assert np.linalg.norm(colour_at(1) - yellow) < np.linalg.norm(colour_at(1) - blue)
    assert np.linalg.norm(colour_at(14) - blue) < np.linalg.norm(colour_at(14) - yellow)
    empty = colour_at(20)
    assert min(np.linalg.norm(empty - yellow), np.linalg.norm(empty - blue)) > 40


def test_hand_mask_and_covered_squares():
    rng = np.random.default_rng(2)
    scene = sample_scene(rng, size=SIZE, elevation=(60, 90))
    r, c = played_cells(scene.played)[17]  # square 18
    hand = Hand(tip=(c + 0.5, r + 0.5), angle=0.3, height=0.5, width=1.2, skin=(120, 150, 200),
                sleeve=(40, 40, 40))
    frame = Renderer(scene).render({}, hand, seed=1)
    assert frame.hand_over_board and frame.hand_mask.any()
    assert 18 in frame.hand_squares and len(frame.hand_squares) < 32
    assert not Renderer(scene).render({}, None, seed=1).hand_over_board


def test_held_out_palettes_are_disjoint():
    train = {sample_scene(np.random.default_rng(s), size=SIZE).board.palette.name for s in range(40)}
    test = {sample_scene(np.random.default_rng(s), size=SIZE, held_out=True).board.palette.name
            for s in range(40)}
    assert train and test and not train & test
