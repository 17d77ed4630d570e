"""Intrinsics from the empty board, and crops cut through the lens."""

import numpy as np
import pytest

from calibration.intrinsics import calibrate_lens, distinct_views, inner_corners
from models.render import Renderer
from models.render.camera import Camera, look_at
from vision.geometry import corner_error
from vision.lens import Lens
from vision.locate import locate_board
from vision.rectify import CROP, crop_transforms, played_cells

from synthetic import START_PIECES, STRONG_BARREL, distorted_scene, empty_views, moved


def test_points_go_through_the_lens_and_back():
    lens = Lens(np.array([[950.0, 0, 641], [0, 950.0, 357], [0, 0, 1]]), STRONG_BARREL, (1280, 720))
    points = np.random.default_rng(0).uniform([0, 0], [1280, 720], (500, 2))
    assert np.abs(lens.distort_points(lens.undistort_points(points)) - points).max() < 1e-3
    # and the lens really bends: a corner of the image moves by tens of pixels
    assert np.linalg.norm(lens.undistort_points(np.array([[0.0, 0.0]])) - [0, 0]) > 30


@pytest.fixture(scope="module")
def calibrated():
    scene = distorted_scene(seed=6)  # a sharp camera: the corner finder's own error is small
    views = [v for v in (inner_corners(image) for image in empty_views(scene, 5)) if v is not None]
    return scene, calibrate_lens(views, (1280, 720))


def test_intrinsics_from_distorted_empty_board_frames(calibrated):
    scene, fit = calibrated
    assert fit.views == 5 and fit.rms < 0.5
    assert fit.lens.distortion[0] == pytest.approx(STRONG_BARREL[0], abs=0.05)
    # Other frames of the same camera, men on the board: after undistortion the board's
    # corners are found within a pixel of where the true corners land.
    for seed in (11, 12):
        frame = Renderer(moved(scene, seed=seed)).render(START_PIECES, seed=seed)
        found = locate_board(fit.lens.undistort(frame.image))
        assert found is not None
        assert corner_error(found.corners, fit.lens.undistort_points(frame.corners)) <= 1.0


def test_the_fitted_lens_straightens_the_board(calibrated):
    """Every inner corner, undistorted with the fitted lens, lies on one homography of the
    board plane (straight lines), to a fraction of a pixel; the raw corners do not."""
    import cv2

    scene, fit = calibrated
    camera = moved(scene, seed=20).camera
    grid = np.stack(np.meshgrid(np.arange(9.0), np.arange(9.0)), -1).reshape(-1, 2)
    raw = camera.project(np.column_stack([grid, np.zeros(len(grid))]))

    def misfit(points):
        h, _ = cv2.findHomography(grid, points, 0)
        mapped = cv2.perspectiveTransform(grid.reshape(-1, 1, 2), h).reshape(-1, 2)
        return np.linalg.norm(mapped - points, axis=1).max()

    assert misfit(raw) > 1.5
    assert misfit(fit.lens.undistort_points(raw)) < 0.5


def test_a_still_board_counts_as_one_view():
    view = np.random.default_rng(1).uniform(0, 500, (49, 2))
    assert len(distinct_views([view, view + 0.1, view + 5.0], square_px=40.0)) == 2


def test_inner_corners_refuse_a_board_with_men():
    frame = Renderer(distorted_scene(seed=3)).render(START_PIECES, seed=1)
    corners = inner_corners(frame.image)
    # men stand in the squares, not on the corners, so the corners are still found...
    assert corners is None or corners.shape == (49, 2)


def test_crops_through_the_lens_are_centred_on_their_squares():
    """The centre pixel of each crop, cut through the true lens, is where the camera sees
    the square's centre; without the lens it is pixels off near the image border."""
    K = np.array([[700.0, 0, 640], [0, 700.0, 360], [0, 0, 1]])
    R, t = look_at(np.radians(55), 0.6, 0.0, 14.0, np.array([4.0, 4.0, 0.0]))
    camera = Camera(K, STRONG_BARREL, R, t, (1280, 720))
    lens = Lens(K, STRONG_BARREL, (1280, 720))
    corners = camera.project(np.array([[0, 0, 0], [8, 0, 0], [8, 8, 0], [0, 8, 0]], float))
    cells = played_cells("dark")
    truth = camera.project(np.column_stack([cells[:, ::-1] + 0.5, np.zeros(32)]).astype(float))

    def crop_centres(through_lens: bool) -> np.ndarray:
        ideal = lens.undistort_points(corners) if through_lens else corners
        T = crop_transforms(ideal, (1280, 720), "dark")
        centre = T @ [*CROP.centre, 1.0]
        centre = centre[:, :2] / centre[:, 2:]
        return lens.distort_points(centre) if through_lens else centre

    assert np.linalg.norm(crop_centres(True) - truth, axis=1).max() < 0.05
    assert np.linalg.norm(crop_centres(False) - truth, axis=1).max() > 2.0
