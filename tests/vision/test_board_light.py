"""The board's light from its cells out of play: a lamp going off or a shadow falling over
half the board changes it, a man moved or taken does not."""

from __future__ import annotations

import numpy as np
import pytest

from lab.render import Renderer, sample_scene
from makhos.vision.board_light import cell_light, empty_cells, light_changed

START = {s: "l" for s in range(1, 9)} | {s: "d" for s in range(25, 33)}


@pytest.fixture(scope="module", params=[3, 7])
def board(request):
    scene = sample_scene(np.random.default_rng(request.param), elevation=(40, 80), size=(640, 480))
    renderer = Renderer(scene)
    frame = renderer.render(START, seed=1)
    return renderer, scene.played, frame


def light(image, frame, played) -> np.ndarray:
    return cell_light(image, frame.corners, played)


def test_the_cells_out_of_play_are_the_other_32():
    assert len(empty_cells("dark")) == 32 and not {*map(tuple, empty_cells("dark"))} & {
        *map(tuple, empty_cells("light"))}


def test_a_lamp_going_off_changes_the_light(board):
    _, played, frame = board
    dim = (frame.image.astype(np.float32) * 0.75).astype(np.uint8)
    assert light_changed(light(dim, frame, played), light(frame.image, frame, played))


def test_a_shadow_over_half_the_board_changes_the_light(board):
    _, played, frame = board
    shade = np.ones(frame.image.shape[:2], np.float32)
    top = int(frame.corners[:, 1].min())
    bottom = int(frame.corners[:, 1].max())
    shade[: (top + bottom) // 2] = 0.65
    shadowed = (frame.image.astype(np.float32) * shade[..., None]).astype(np.uint8)
    assert light_changed(light(shadowed, frame, played), light(frame.image, frame, played))


def test_men_moved_and_taken_leave_the_light_as_it_was(board):
    renderer, played, frame = board
    after = {s: p for s, p in START.items() if s not in (6, 7, 8, 26, 27)} | {10: "l", 11: "l", 22: "d"}
    moved = renderer.render(after, seed=1)
    assert not light_changed(light(moved.image, frame, played), light(frame.image, frame, played))


def test_the_same_frame_has_the_same_light(board):
    _, played, frame = board
    assert not light_changed(light(frame.image, frame, played), light(frame.image, frame, played))
