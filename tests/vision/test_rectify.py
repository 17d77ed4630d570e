"""Crop geometry: each crop is centred on its square and points away from the camera."""

import numpy as np
import pytest

from lab.render import sample_scene
from makhos.vision.rectify import (CROP, board_to_image, camera_foot, crop_squares, crop_transforms,
                            played_cells, sightlines)

CORNERS = np.array([[210.0, 95.0], [590.0, 120.0], [640.0, 470.0], [150.0, 430.0]])


def _apply(H: np.ndarray, x: float, y: float) -> np.ndarray:
    p = H @ [x, y, 1.0]
    return p[:2] / p[2]


@pytest.mark.parametrize("played", ["dark", "light"])
def test_crop_centre_is_square_centre(played):
    T = crop_transforms(CORNERS, (800, 600), played)
    H = board_to_image(CORNERS)
    for sq, (r, c) in enumerate(played_cells(played), start=1):
        expected = _apply(H, c + 0.5, r + 0.5)
        assert np.allclose(_apply(T[sq - 1], *CROP.centre), expected, atol=1e-6)


def test_crops_show_their_own_squares():
    """Paint every cell of a top-down board a distinct colour; each crop's centre shows it."""
    pps = 40
    image = np.zeros((8 * pps, 8 * pps, 3), np.uint8)
    for r in range(8):
        for c in range(8):
            image[r * pps:(r + 1) * pps, c * pps:(c + 1) * pps] = (r * 30, c * 30, 200)
    corners = np.array([[0, 0], [8 * pps, 0], [8 * pps, 8 * pps], [0, 8 * pps]], float) - 0.5
    crops = crop_squares(image, corners, "dark").images
    assert crops.shape == (32, CROP.height, CROP.width, 3)
    cx, cy = (int(v) for v in CROP.centre)
    for sq, (r, c) in enumerate(played_cells("dark"), start=1):
        assert tuple(crops[sq - 1, cy, cx]) == (r * 30, c * 30, 200)


@pytest.mark.parametrize("seed", range(5))
def test_camera_foot_from_corners(seed):
    """The camera position recovered from the four corners alone matches the true one."""
    scene = sample_scene(np.random.default_rng(seed), elevation=(35, 70))
    cam = scene.camera
    corners = cam.project_ideal(np.array([[0, 0, 0], [8, 0, 0], [8, 8, 0], [0, 8, 0]], float))
    true_foot = cam.centre[:2]
    found = camera_foot(corners, cam.size)
    distance = np.linalg.norm(true_foot - 4)
    assert np.linalg.norm(found - true_foot) < 0.1 * distance


@pytest.mark.parametrize("seed", range(5))
def test_sightlines_give_each_square_s_true_viewing_angle(seed):
    """How steeply each square is seen (what the rectified crop has lost) comes back from
    the corners alone, to within 2 degrees, as does the camera's height."""
    scene = sample_scene(np.random.default_rng(seed), elevation=(35, 75))
    cam = scene.camera
    corners = cam.project_ideal(np.array([[0, 0, 0], [8, 0, 0], [8, 8, 0], [0, 8, 0]], float))
    height = abs(cam.centre[2])
    reach = np.linalg.norm(played_cells(scene.played)[:, ::-1] + 0.5 - cam.centre[:2], axis=1)
    sight = sightlines(corners, cam.size, scene.played)
    found = np.degrees(np.arctan2(1, sight[:, 0]))
    assert np.abs(found - np.degrees(np.arctan2(height, reach))).max() < 2.0
    assert np.ptp(found) > 3  # the angle differs across the board: one number per board is not enough
    assert abs(sight[0, 1] * height - 1) < 0.1
    image = np.zeros((cam.size[1], cam.size[0], 3), np.uint8)
    assert np.array_equal(crop_squares(image, corners, scene.played).sight, sight)


def test_crop_up_points_away_from_camera():
    """The crop's upward axis, mapped to the board, points from the camera's foot outward."""
    scene = sample_scene(np.random.default_rng(1), elevation=(40, 50))
    cam = scene.camera
    corners = cam.project_ideal(np.array([[0, 0, 0], [8, 0, 0], [8, 8, 0], [0, 8, 0]], float))
    T = crop_transforms(corners, cam.size, "dark")
    to_board = np.linalg.inv(board_to_image(corners))
    foot = cam.centre[:2]
    for k in range(32):
        centre = _apply(to_board @ T[k], *CROP.centre)
        above = _apply(to_board @ T[k], CROP.centre[0], CROP.centre[1] - 10)
        up = above - centre
        away = centre - foot
        assert up @ away / (np.linalg.norm(up) * np.linalg.norm(away)) > 0.95
