"""A board with an outer ring of squares and no tape, the men of the start hiding corners.

From the recorded game game-10038-24: a red and green board (the same grey, contrast in
colour only) with a ring of squares outside the playing area, seen from about 40 degrees.
The far men lean over two whole lines of corners, so the corners alone showed 9 lines one
way and 7 the other, and the finder returned nothing or a window one row off (and the game
never started). The ring's squares, free of men, settle which 8x8 is the playing area.
"""

import numpy as np
import pytest

from lab.render import Renderer, sample_scene
from makhos.vision.geometry import corner_error
from makhos.vision.locate import locate_board

START = {s: "l" for s in range(1, 9)} | {s: "d" for s in range(25, 33)}


@pytest.mark.parametrize("seed", [0, 1])
def test_ring_board_with_the_far_corners_hidden_is_found_on_the_playing_area(seed):
    scene = sample_scene(np.random.default_rng(10038), held_out=True, elevation=(35.0, 90.0))
    assert scene.board.border == "outer" and scene.board.tape_colour is None
    frame = Renderer(scene).render(START, seed=seed)
    found = locate_board(frame.image)
    assert found is not None
    side = float(np.linalg.norm(frame.corners - np.roll(frame.corners, 1, axis=0), axis=1).mean())
    assert corner_error(found.corners, frame.corners) < 0.015 * side
    assert found.confidence > 0.5
