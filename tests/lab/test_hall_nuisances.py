"""What a playing hall adds to the kingplay videos (lab.videos.hall, lab.videos.nuisances):
drawn only for the new seeds, so the old seeds' videos (and their figures) stay as they
were; each does what it says."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from lab.render import Renderer, sample_scene
from lab.videos.hall import lay_scoresheet, resting_arm
from lab.videos.kings import HALL_SEEDS, king_play
from lab.videos.nuisances import Camera, Nuisances, sample_nuisances
from lab.videos.render import shot_starts
from makhos.vision.rectify import played_cells

SIZE = (320, 180)


def test_the_seeds_before_the_halls_draw_none_of_it_and_their_cameras_stay_as_they_were():
    for seed in range(HALL_SEEDS - 4, HALL_SEEDS):
        script, _, nuisances = king_play(seed, 6)
        drawn = sample_nuisances(np.random.default_rng([seed, 7]), float(shot_starts(script)[-1]),
                                 size=nuisances.size)
        assert nuisances == drawn
        assert nuisances.dim == 1.0 and nuisances.bump_at is None
        assert nuisances.sleeve_at is None and not nuisances.scoresheet


def test_the_hall_seeds_draw_each_nuisance_in_some_video_and_not_in_every_one():
    drawn = [king_play(seed, 6)[2] for seed in range(HALL_SEEDS, HALL_SEEDS + 10)]
    for has in (lambda n: n.dim < 1, lambda n: n.bump_at is not None,
                lambda n: n.sleeve_at is not None, lambda n: n.scoresheet):
        assert 0 < sum(map(has, drawn)) < len(drawn)


def test_a_knocked_camera_settles_at_its_new_angle_and_stays_there():
    calm = Nuisances.calm(SIZE, 30.0, noise=0.0)
    knocked = replace(calm, bump_at=1.0, bump_roll_deg=2.0, bump_zoom=0.03, bump_px=(8.0, -4.0))
    camera = Camera(knocked, 4.0)
    assert camera._at(camera.roll, 0.9) == 0.0 and camera._at(camera.zoom, 0.9) == 1.0
    for late in (2.5, 3.9):
        assert camera._at(camera.roll, late) == pytest.approx(math.radians(2.0), rel=0.01)
        assert camera._at(camera.zoom, late) == pytest.approx(1.03, rel=1e-3)
        assert camera._at(camera.offset, late) == pytest.approx(np.array([8.0, -4.0]) * calm.scale, rel=0.01)


def test_a_dim_hall_darkens_the_picture_and_its_gain_adds_noise():
    grey = np.full((SIZE[1], SIZE[0], 3), 200, np.uint8)
    lit = Camera(Nuisances.calm(SIZE, 30.0, noise=4.0), 2.0).frame(grey, 0.5)
    dim = Camera(replace(Nuisances.calm(SIZE, 30.0, noise=4.0), dim=0.5), 2.0).frame(grey, 0.5)
    assert abs(float(lit.mean()) - 200) < 2 and abs(float(dim.mean()) - 100) < 2
    assert float(dim.std()) > 1.3 * float(lit.std())


def test_an_arm_at_rest_covers_squares_of_one_players_edge_only():
    scene = sample_scene(np.random.default_rng(5), held_out=True, elevation=(35.0, 35.0), size=SIZE)
    renderer = Renderer(scene)
    for seed in range(6):
        arm = resting_arm(np.random.default_rng(seed), (120, 150, 200), (90, 40, 30))
        covered = renderer.render({}, hand=arm, seed=seed).hand_squares
        rows = {played_cells(scene.played)[square - 1][0] for square in covered}
        assert covered and (rows <= {0, 1} or rows <= {6, 7})


def test_a_scoresheet_lies_beside_the_board_never_on_it():
    scene = sample_scene(np.random.default_rng(3), held_out=True, elevation=(60.0, 60.0), size=SIZE)
    renderer = Renderer(scene)
    before = renderer.background.copy()
    lay_scoresheet(renderer, np.random.default_rng(1))
    changed = np.any(renderer.background != before, axis=2)
    outline = scene.camera.project_ideal(np.array([[0, 0, 0], [8, 0, 0], [8, 8, 0], [0, 8, 0]], float))
    board = np.zeros(changed.shape, np.uint8)
    cv2.fillConvexPoly(board, np.rint(outline).astype(np.int32), 1)
    assert changed.sum() > 50 and not changed[board > 0].any()
