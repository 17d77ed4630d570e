"""Intrinsics from the empty board, and crops cut through the lens."""

import dataclasses

import cv2
import numpy as np
import pytest

from makhos.calibration.intrinsics import calibrate_lens, distinct_views, inner_corners
from lab.render import Renderer
from lab.render.camera import Camera, look_at
from makhos.vision.geometry import corner_error
from makhos.vision.lens import Lens
from makhos.vision.locate import INNER_CORNERS, locate_board
from makhos.vision.rectify import CROP, crop_transforms, played_cells

from synthetic import START_PIECES, STRONG_BARREL, distorted_scene, empty_views, moved


@pytest.mark.parametrize("distortion", [STRONG_BARREL, [0, 0, 0, 0, 0, 0.36, 0, 0]],
                         ids=["polynomial", "division"])
def test_points_go_through_the_lens_and_back(distortion):
    lens = Lens(np.array([[950.0, 0, 641], [0, 950.0, 357], [0, 0, 1]]), distortion, (1280, 720))
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
    assert fit.lens.bend == pytest.approx(STRONG_BARREL[0], abs=0.05)
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


def _outer_corner_error(camera: Camera, lens: Lens) -> float:
    """How far the board's outline lies off the straight lines of its inner corners once
    both go through ``lens`` (pixels, worst corner; 0 for the true lens)."""
    inner = lens.undistort_points(camera.project(np.column_stack([INNER_CORNERS, np.zeros(49)])))
    h, _ = cv2.findHomography(INNER_CORNERS.astype(float), inner, 0)
    outer = np.array([[0.0, 0.0], [8.0, 0.0], [8.0, 8.0], [0.0, 8.0]])
    predicted = cv2.perspectiveTransform(outer.reshape(-1, 1, 2), h).reshape(-1, 2)
    truth = lens.undistort_points(camera.project(np.column_stack([outer, np.zeros(4)])))
    return float(np.linalg.norm(predicted - truth, axis=1).max())


def test_one_division_term_carries_a_barrel_lens_to_the_outline():
    """A wide lens, its centre off the image's, a board filling much of the frame: from the
    inner corners alone (exact here, eight views) the division term puts the outline on the
    board's straight lines within a tenth of a pixel, where the polynomial k1 alone (which
    says k2 = 0 while this lens has k2 = 0.1) is most of a pixel off."""
    K = np.array([[896.0, 0, 634], [0, 893.0, 340], [0, 0, 1]])
    R, t = look_at(np.radians(75), 0.4, 0.05, 15.0, np.array([4.0, 4.0, 0.0]))
    scene = dataclasses.replace(distorted_scene(seed=6), camera=Camera(K, STRONG_BARREL, R, t, (1280, 720)))
    cameras = [moved(scene, seed=k).camera for k in range(12)]
    board = np.column_stack([INNER_CORNERS, np.zeros(49)])
    views = [c.project(board) for c in cameras[:8]]
    fit = calibrate_lens(views, (1280, 720))
    assert fit.lens.bend == pytest.approx(-0.35, abs=0.02)
    assert abs(fit.lens.matrix[0, 2] - 634) < 3 and abs(fit.lens.matrix[1, 2] - 340) < 3
    flags = (cv2.CALIB_FIX_PRINCIPAL_POINT | cv2.CALIB_FIX_ASPECT_RATIO | cv2.CALIB_ZERO_TANGENT_DIST
             | cv2.CALIB_FIX_K2 | cv2.CALIB_FIX_K3 | cv2.CALIB_USE_INTRINSIC_GUESS)
    _, matrix, distortion, _, _ = cv2.calibrateCamera(
        [board.astype(np.float32)] * 8, [v.astype(np.float32) for v in views], (1280, 720),
        np.array([[1280.0, 0, 639.5], [0, 1280, 359.5], [0, 0, 1]]), np.zeros(5), flags=flags)
    k1_only = Lens(matrix, distortion, (1280, 720))
    division = max(_outer_corner_error(c, fit.lens) for c in cameras[8:])
    polynomial = max(_outer_corner_error(c, k1_only) for c in cameras[8:])
    assert division < 0.15 and polynomial > 0.6


def test_an_outlying_corner_is_dropped_and_the_lens_fitted_again():
    scene = distorted_scene(seed=6)
    board = np.column_stack([INNER_CORNERS, np.zeros(49)])
    views = [moved(scene, seed=k).camera.project(board) for k in range(8)]
    clean = calibrate_lens(views, (1280, 720))
    views[2][30] += [6.0, -4.0]  # a speck, or a corner half hidden
    spoiled = calibrate_lens(views, (1280, 720))
    assert spoiled.rms < 0.05
    assert np.allclose(spoiled.lens.matrix, clean.lens.matrix, atol=1.0)
    assert spoiled.lens.bend == pytest.approx(clean.lens.bend, abs=0.005)


def test_few_views_keep_the_centre_fixed():
    scene = distorted_scene(seed=6)
    board = np.column_stack([INNER_CORNERS, np.zeros(49)])
    fit = calibrate_lens([moved(scene, seed=k).camera.project(board) for k in range(2)], (1280, 720))
    assert np.allclose(fit.lens.matrix[:2, 2], [639.5, 359.5])
    assert fit.lens.matrix[0, 0] == fit.lens.matrix[1, 1]


def _true_inner_corners(camera: Camera, found: np.ndarray) -> np.ndarray:
    """The true inner corners in the finder's order (it starts at the image's top-left)."""
    truth = camera.project(np.column_stack([INNER_CORNERS, np.zeros(49)]))
    index = np.arange(49).reshape(7, 7)
    orders = [np.rot90(index, k).ravel() for k in range(4)] + [np.rot90(index, k).T.ravel() for k in range(4)]
    return min((truth[o] for o in orders), key=lambda t: np.linalg.norm(t - found, axis=1).mean())


def test_inner_corners_of_a_red_green_board_in_a_coarse_jpeg():
    """Red and green squares of one brightness, JPEG quality 36: the grid is all in the
    half-resolution chroma. The corners are still found to a few tenths of a pixel."""
    scene = distorted_scene(seed=6, board_palettes=("red-green-3",))
    assert scene.effects.jpeg_quality == 36
    errors = []
    for k in range(2):
        seen = moved(scene, seed=k)
        found = inner_corners(Renderer(seen).render({}, seed=k).image)
        assert found is not None
        errors.append(np.linalg.norm(found - _true_inner_corners(seen.camera, found), axis=1))
    errors = np.concatenate(errors)
    assert np.median(errors) < 0.3 and errors.max() < 0.8


def test_the_board_is_found_through_a_calibrated_lens():
    """With the camera's lens the outline comes from the inner corners' straight lines in the
    ideal image, not from a bend guessed from one frame: on a red/green board at JPEG quality
    36 the guess is pixels off, the lens within one."""
    scene = distorted_scene(seed=6, board_palettes=("red-green-3",))
    lens = Lens(scene.camera.K, scene.camera.dist, (1280, 720))
    for seed in (11, 12):
        frame = Renderer(moved(scene, seed=seed)).render(START_PIECES, seed=seed)
        truth = lens.undistort_points(frame.corners)
        guessed, through = locate_board(frame.image), locate_board(frame.image, lens=lens)
        assert corner_error(lens.undistort_points(guessed.corners), truth) > 3.0
        assert corner_error(lens.undistort_points(through.corners), truth) <= 1.0


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
