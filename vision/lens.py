"""A calibrated camera lens: map points between the camera's (bent) image and the ideal one.

The ideal image is the one a pinhole camera with the same matrix would see: straight board
lines stay straight, so four corners and one homography describe the whole board there.
Vision keeps working on the camera's own frames (tracking and the occlusion gate tolerate
the bend and cost under a millisecond); only points go through the lens: the four corners
into the ideal image, and the crops' sampling grid back out of it. Undistorting whole
frames (a remap of every pixel, several milliseconds at 1280x720) is left to the pages and
benchmarks that show or measure the ideal image.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Lens:
    """Camera matrix ``matrix`` (3, 3), OpenCV distortion ``distortion`` (k1, k2, p1, p2, k3,
    k4, k5, k6: the rational model; five numbers are the polynomial one, the rest zero) and
    the image size ``(width, height)`` they were calibrated at."""

    matrix: np.ndarray
    distortion: np.ndarray
    size: tuple[int, int]

    def __post_init__(self) -> None:
        object.__setattr__(self, "matrix", np.asarray(self.matrix, np.float64).reshape(3, 3))
        d = np.zeros(8)
        given = np.asarray(self.distortion, np.float64).ravel()[:8]
        d[:len(given)] = given
        object.__setattr__(self, "distortion", d)
        object.__setattr__(self, "size", (int(self.size[0]), int(self.size[1])))

    def undistort_points(self, points: np.ndarray) -> np.ndarray:
        """Camera pixels (..., 2) -> ideal-image pixels (same camera matrix), iteratively."""
        pts = np.asarray(points, np.float64)
        flat = pts.reshape(-1, 1, 2)
        criteria = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 40, 1e-6)
        ideal = cv2.undistortPoints(flat, self.matrix, self.distortion, None, self.matrix,
                                    criteria=criteria)
        return ideal.reshape(pts.shape)

    def distort_points(self, points: np.ndarray) -> np.ndarray:
        """Ideal-image pixels (..., 2) -> camera pixels: the lens model itself, closed form
        and vectorised (this direction needs no iteration, so sampling grids use it)."""
        pts = np.asarray(points, np.float64)
        (fx, _, cx), (_, fy, cy), _ = self.matrix
        k1, k2, p1, p2, k3, k4, k5, k6 = self.distortion
        x = (pts[..., 0] - cx) / fx
        y = (pts[..., 1] - cy) / fy
        r2 = x * x + y * y
        radial = (1 + r2 * (k1 + r2 * (k2 + r2 * k3))) / (1 + r2 * (k4 + r2 * (k5 + r2 * k6)))
        xd = x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x)
        yd = y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y
        return np.stack([xd * fx + cx, yd * fy + cy], axis=-1)

    @property
    def bend(self) -> float:
        """The leading radial term (k1 - k4: the r^2 coefficient of either model), the one
        figure to print: negative for barrel distortion, about -0.1 for a plain webcam."""
        return float(self.distortion[0] - self.distortion[5])

    def undistort(self, frame: np.ndarray) -> np.ndarray:
        """The whole frame as the ideal camera would see it (same size and matrix)."""
        return cv2.undistort(frame, self.matrix, self.distortion)

    def fits(self, frame: np.ndarray) -> bool:
        """Whether a frame has the size this lens was calibrated at."""
        same: bool = frame.shape[1] == self.size[0] and frame.shape[0] == self.size[1]
        return same
