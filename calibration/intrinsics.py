"""Camera intrinsics and lens distortion from frames of the empty board.

The empty board is its own calibration pattern: its 7x7 inner corners are the corners of a
printed chessboard. :func:`inner_corners` finds them with vision's lattice finder (which
copes with red/green boards, outer rings and tape that defeat a plain chessboard detector)
and snaps each to the sub-pixel saddle of the image projected on the board's own colour axis;
:func:`calibrate_lens` runs ``cv2.calibrateCamera`` on the views.

The camera of a board is fixed, and the board may be moved only a little while calibrating,
so the views are few and alike, and the inner corners cover only the middle of the board,
while what the lens must get right is the board's outline, a square beyond the last inner
corner. The model is therefore one radial parameter, of the division form
``x_d = x_u / (1 + k4 r^2)`` (OpenCV's rational model with only k4 free). Why that form:
expanded it is ``1 - k4 r^2 + k4^2 r^4 - ...``, so one number gives a barrel lens its usual
positive second term (k2 about k1^2), where the polynomial k1 alone asserts k2 = 0. A free
second term would be better still with perfect corners, but over so small a field it trades
off against the first and wanders with the corners' noise (k2 = -20 was seen). On synthetic
cameras with k1 = -0.35, k2 = 0.10 and the true inner corners, the polynomial k1 left the
outer corners of a large board 1.6 px off its straight lines, the division term 0.16 px
(``bench/calibration.py`` part (a)).

The principal point and the aspect ratio are freed from :data:`FREE_CENTRE_VIEWS` distinct
views on (a real lens is a few pixels off-centre, and a fixed centre sends the bend astray),
and kept at the image centre and 1 with fewer, where the views cannot pin them; a fit whose
centre wanders off (:data:`CENTRE_LIMIT`) is redone with them fixed. Corners the fitted lens
explains much worse than the rest (a JPEG block, a speck, a corner half hidden) are dropped
and the lens fitted again (:data:`OUTLIER`).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from makhos.vision.geometry import BoardLocation
from makhos.vision.lens import Lens
from makhos.vision.locate import INNER_CORNERS, colour_only, locate_board

#: The model (see the module docstring): the rational model with only k4 free, no tangential term.
FLAGS = (cv2.CALIB_RATIONAL_MODEL | cv2.CALIB_ZERO_TANGENT_DIST | cv2.CALIB_FIX_K1
         | cv2.CALIB_FIX_K2 | cv2.CALIB_FIX_K3 | cv2.CALIB_FIX_K5 | cv2.CALIB_FIX_K6)
#: With fewer distinct views than this the principal point and aspect ratio stay fixed.
FREE_CENTRE_VIEWS = 6
#: A free fit whose principal point leaves this share of the image size around the centre,
#: or whose aspect ratio leaves 1 by more, is redone with them fixed.
CENTRE_LIMIT = 0.1
#: A corner whose reprojection error exceeds this many times the views' RMS (and 0.5 px) is
#: dropped and the lens fitted again.
OUTLIER = 3.0
#: Views nearer than this (mean inner-corner shift, squares) to a kept view add nothing.
DISTINCT_VIEW = 0.05


@dataclass(frozen=True)
class LensCalibration:
    """A fitted lens, its reprojection error (RMS, pixels) and how many views it came from."""

    lens: Lens
    rms: float
    views: int


def inner_corners(frame: np.ndarray, location: BoardLocation | None = None) -> np.ndarray | None:
    """The 49 inner corners of an empty board, (49, 2) sub-pixel, in the order of
    ``vision.locate.INNER_CORNERS``; None when the board is not found or a corner is hidden
    or did not converge (a man on the board, a hand).

    The window reaches 0.3 of a square's shorter side each way (wide enough to average the
    image's noise, short of the next corner even on a flattened square). On a board whose
    squares differ in colour, not brightness (red and green), that contrast lives in the
    JPEG's chroma, stored at half resolution in blocks of 16 camera pixels whose edges pull
    each corner by up to 1.5-2.5 px: there the plane is smoothed by about a block's reach and
    the window widened to 0.4 (on 23 red/green views at JPEG quality 36-82, median error
    0.48 -> 0.23 px, worst corner 2.5 -> 1.2 px).
    """
    location = location or locate_board(frame)
    if location is None:
        return None
    plane, chroma = _grid_plane(frame, location)
    predicted = location.to_image(INNER_CORNERS).astype(np.float32)
    step = np.minimum(
        np.linalg.norm(location.to_image(INNER_CORNERS + [1, 0]) - predicted, axis=1),
        np.linalg.norm(location.to_image(INNER_CORNERS + [0, 1]) - predicted, axis=1))
    short = float(np.median(step))
    reach = 0.3
    if chroma:
        plane = cv2.GaussianBlur(plane, (0, 0), min(CHROMA_SMOOTHING, 0.12 * short))
        reach = 0.4
    half = int(np.clip(reach * short, 3, 25))
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 50, 0.001)
    refined = cv2.cornerSubPix(plane, predicted.reshape(-1, 1, 2).copy(), (half, half), (-1, -1),
                               criteria).reshape(-1, 2)
    moved = np.linalg.norm(refined - predicted, axis=1)
    if not np.all(np.isfinite(refined)) or (moved > 0.3 * step).any():
        return None
    return refined


#: Gaussian smoothing (camera pixels) of a colour-only board's plane: about a JPEG chroma
#: block's reach (a block is 16 pixels, its edge errors a few pixels wide).
CHROMA_SMOOTHING = 3.0


def _grid_plane(frame: np.ndarray, location: BoardLocation) -> tuple[np.ndarray, bool]:
    """The frame projected on the colour axis from one square colour to the other, and
    whether that contrast is colour only (hardly any brightness: red and green squares).

    Grey alone fails a red and green board (one grey for both); a single colour plane
    works there but throws away the others' contrast, and a JPEG keeps colour at half
    resolution. The projection takes every plane's share of the contrast.
    """
    if frame.ndim == 2:
        return frame.astype(np.float32), False
    cells = np.moveaxis(np.mgrid[0:8, 0:8], 0, -1).reshape(-1, 2)
    centres = location.to_image(cells[:, ::-1] + 0.5)
    xs = np.clip(np.rint(centres[:, 0]).astype(int), 0, frame.shape[1] - 1)
    ys = np.clip(np.rint(centres[:, 1]).astype(int), 0, frame.shape[0] - 1)
    colours = frame[ys, xs].astype(np.float32)
    odd = cells.sum(axis=1) % 2 == 1
    axis = np.median(colours[odd], axis=0) - np.median(colours[~odd], axis=0)
    chroma = colour_only(axis)
    axis /= max(float(np.linalg.norm(axis)), 1e-6)
    return (frame.astype(np.float32) @ axis).astype(np.float32), chroma


def distinct_views(views: list[np.ndarray], square_px: float) -> list[np.ndarray]:
    """The views that differ from every earlier kept one (a still board gives one view)."""
    kept: list[np.ndarray] = []
    for view in views:
        if all(np.linalg.norm(view - k, axis=1).mean() > DISTINCT_VIEW * square_px for k in kept):
            kept.append(view)
    return kept


def calibrate_lens(views: list[np.ndarray], size: tuple[int, int]) -> LensCalibration:
    """Fit the lens to views of the inner corners (each (49, 2), as :func:`inner_corners`
    gives them) in frames of ``size`` (width, height)."""
    if not views:
        raise ValueError("no view of the empty board: show the whole empty board to the camera")
    board = np.column_stack([INNER_CORNERS, np.zeros(len(INNER_CORNERS))]).astype(np.float32)
    images = [np.asarray(v, np.float32).reshape(-1, 2) for v in views]
    objects = [board] * len(images)
    free = len(images) >= FREE_CENTRE_VIEWS
    fit = _fit(objects, images, size, free)
    if free and not _centred(fit[1], size):
        free, fit = False, _fit(objects, images, size, False)
    rms, _, _, residuals = fit
    limit = max(OUTLIER * rms, 0.5)
    kept = [r <= limit for r in residuals]
    if not all(k.all() for k in kept) and all(k.sum() >= 20 for k in kept):
        objects = [board[k] for k in kept]
        images = [image[k] for image, k in zip(images, kept)]
        refit = _fit(objects, images, size, free)
        if not free or _centred(refit[1], size):
            fit = refit
    rms, matrix, distortion, _ = fit
    return LensCalibration(Lens(matrix, distortion, size), rms, len(views))


def _fit(objects: list[np.ndarray], images: list[np.ndarray], size: tuple[int, int],
         free_centre: bool) -> tuple[float, np.ndarray, np.ndarray, list[np.ndarray]]:
    """One ``cv2.calibrateCamera`` run: RMS, matrix, distortion (8) and each view's
    per-corner reprojection errors."""
    w, h = size
    guess = np.array([[w, 0, (w - 1) / 2], [0, w, (h - 1) / 2], [0, 0, 1]], np.float64)
    flags = FLAGS | cv2.CALIB_USE_INTRINSIC_GUESS
    if not free_centre:
        flags |= cv2.CALIB_FIX_PRINCIPAL_POINT | cv2.CALIB_FIX_ASPECT_RATIO
    rms, matrix, distortion, rvecs, tvecs = cv2.calibrateCamera(
        objects, [i.reshape(-1, 1, 2) for i in images], (w, h), guess, np.zeros(8), flags=flags)
    residuals = [np.linalg.norm(cv2.projectPoints(o, r, t, matrix, distortion)[0].reshape(-1, 2)
                                - i, axis=1)
                 for o, i, r, t in zip(objects, images, rvecs, tvecs)]
    return float(rms), matrix, distortion.ravel(), residuals


def _centred(matrix: np.ndarray, size: tuple[int, int]) -> bool:
    """Whether a fitted principal point and aspect ratio stayed near the image centre and 1."""
    w, h = size
    off = np.abs(matrix[:2, 2] - [(w - 1) / 2, (h - 1) / 2]) / [w, h]
    return bool((off <= CENTRE_LIMIT).all() and abs(matrix[1, 1] / matrix[0, 0] - 1) <= CENTRE_LIMIT)
