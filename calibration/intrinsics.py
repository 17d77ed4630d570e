"""Camera intrinsics and lens distortion from frames of the empty board.

The empty board is its own calibration pattern: its 7x7 inner corners are the corners of a
printed chessboard. :func:`inner_corners` finds them with vision's lattice finder (which
copes with red/green boards, outer rings and tape that defeat a plain chessboard detector)
and snaps each to the sub-pixel saddle of the image projected on the board's own colour axis;
:func:`calibrate_lens` runs ``cv2.calibrateCamera`` on the views.

The camera of a board is fixed, and the board may be moved only a little while calibrating,
so the views are few and alike, and the inner corners cover only the middle of the board.
The model is therefore kept small: principal point at the image centre, square pixels, no
tangential term, one radial term k1. A second radial term fits the inner corners a little
better but, trading off against k1 over so small a field, sends the outer corners (beyond
the last inner corner) pixels astray: on synthetic cameras with k1 = -0.35, k2 = 0.1 the
k1-only fit recovered k1 within 0.02 and the outer corners within a pixel, the two-term
fit wandered to k2 = -20. Tilting the board between views fixes the focal length better;
one view already fixes the bend, which is what reading the board needs.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.geometry import BoardLocation
from vision.lens import Lens
from vision.locate import INNER_CORNERS, locate_board

#: The model's fixed parts (see the module docstring).
FLAGS = (cv2.CALIB_FIX_PRINCIPAL_POINT | cv2.CALIB_FIX_ASPECT_RATIO | cv2.CALIB_ZERO_TANGENT_DIST
         | cv2.CALIB_FIX_K2 | cv2.CALIB_FIX_K3)
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
    or did not converge (a man on the board, a hand)."""
    location = location or locate_board(frame)
    if location is None:
        return None
    plane = _grid_plane(frame, location)
    predicted = location.to_image(INNER_CORNERS).astype(np.float32)
    half = int(np.clip(0.25 * location.square_px, 3, 25))
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 50, 0.001)
    refined = cv2.cornerSubPix(plane, predicted.reshape(-1, 1, 2).copy(), (half, half), (-1, -1),
                               criteria).reshape(-1, 2)
    moved = np.linalg.norm(refined - predicted, axis=1)
    if not np.all(np.isfinite(refined)) or moved.max() > 0.3 * location.square_px:
        return None
    return refined


def _grid_plane(frame: np.ndarray, location: BoardLocation) -> np.ndarray:
    """The frame projected on the colour axis from one square colour to the other.

    Grey alone fails a red and green board (one grey for both); a single colour plane
    works there but throws away the others' contrast, and a JPEG keeps colour at half
    resolution. The projection takes every plane's share of the contrast.
    """
    if frame.ndim == 2:
        return frame.astype(np.float32)
    cells = np.stack(np.mgrid[0:8, 0:8], axis=-1).reshape(-1, 2)
    centres = location.to_image(cells[:, ::-1] + 0.5)
    xs = np.clip(np.rint(centres[:, 0]).astype(int), 0, frame.shape[1] - 1)
    ys = np.clip(np.rint(centres[:, 1]).astype(int), 0, frame.shape[0] - 1)
    colours = frame[ys, xs].astype(np.float32)
    odd = cells.sum(axis=1) % 2 == 1
    axis = np.median(colours[odd], axis=0) - np.median(colours[~odd], axis=0)
    axis /= max(float(np.linalg.norm(axis)), 1e-6)
    return (frame.astype(np.float32) @ axis).astype(np.float32)


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
    w, h = size
    guess = np.array([[w, 0, (w - 1) / 2], [0, w, (h - 1) / 2], [0, 0, 1]], np.float64)
    rms, matrix, distortion, _, _ = cv2.calibrateCamera(
        [board] * len(views), [v.reshape(-1, 1, 2).astype(np.float32) for v in views], (w, h),
        guess, np.zeros(5), flags=FLAGS | cv2.CALIB_USE_INTRINSIC_GUESS)
    return LensCalibration(Lens(matrix, distortion.ravel(), (w, h)), float(rms), len(views))
