"""The king probe of ``bench/kings.py`` and the split frames it re-renders.

What matters: the probe's one-man frame differs from the real frame only where a king's top
man stood, and ``scene_shots`` draws exactly the frames the test split holds, so the probe
looks at the very crops the classifier is scored on.
"""


import numpy as np

from lab.training.dataset import TEST, render_scene, scene_shots
from lab.render import Renderer, sample_scene
from makhos.vision.rectify import board_to_image, crop_squares, played_cells

from bench.kings import OneManRenderer


def test_scene_shots_are_the_split_s_frames():
    seed = 1_000_003
    data = render_scene((seed, TEST))
    _, shots = scene_shots(seed, TEST)
    frame = shots[0].render()
    crops = crop_squares(frame.image, frame.corners, frame.played)
    assert np.array_equal(data["crops"], crops.images)
    assert np.array_equal(data["sight"], crops.sight)


def _renderers(seed: int, **kwargs) -> tuple[Renderer, OneManRenderer]:
    scene = sample_scene(np.random.default_rng(seed), size=(640, 480), **kwargs)
    return Renderer(scene), OneManRenderer(scene)


def test_one_man_frame_equals_the_frame_when_there_is_no_king():
    real, probe = _renderers(4)
    men = {1: "l", 9: "l", 22: "d", 30: "d"}
    assert np.array_equal(real.render(men, seed=3).image, probe.render(men, seed=3).image)


def test_one_man_frame_changes_only_the_king_s_square():
    real, probe = _renderers(6, elevation=(85, 90))
    position = {1: "l", 14: "L", 30: "d"}
    king, one_man = real.render(position, seed=2), probe.render(position, seed=2)
    changed = np.any(king.image != one_man.image, axis=2)
    assert changed.sum() > 20  # the top man was there, and is gone
    r, c = played_cells(king.played)[14 - 1]
    # the square and its neighbours: the top man, its shadow and its contact shadow
    around = np.array([[c - 1, r - 1], [c + 2, r - 1], [c + 2, r + 2], [c - 1, r + 2]])
    outline = board_to_image(king.corners) @ np.c_[around, np.ones(4)].T
    outline = (outline[:2] / outline[2]).T
    ys, xs = np.nonzero(changed)
    assert xs.min() >= outline[:, 0].min() and xs.max() <= outline[:, 0].max()
    assert ys.min() >= outline[:, 1].min() and ys.max() <= outline[:, 1].max()
