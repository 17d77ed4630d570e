"""A pinhole camera with radial lens distortion, looking at the board.

World frame (board units, one square = 1): X along the board's columns, Y along its rows
(the canonical board image's x and y), Z = X x Y points INTO the table, so a point at height
h above the board has Z = -h. The 8x8 playing area is [0, 8] x [0, 8] at Z = 0.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Camera:
    """Intrinsics K, distortion (k1, k2, p1, p2, k3), pose R, t (world -> camera), image size."""

    K: np.ndarray
    dist: np.ndarray
    R: np.ndarray
    t: np.ndarray
    size: tuple[int, int]  # (width, height)

    @property
    def centre(self) -> np.ndarray:
        """Camera position in the world frame."""
        return np.asarray(-self.R.T @ self.t)

    def project_ideal(self, points: np.ndarray) -> np.ndarray:
        """Project (N, 3) world points to (N, 2) pixels of the undistorted image.

        The renderer draws in the undistorted image and distorts once at the end, so this
        plain matrix product is what every drawing call uses (it is vectorised and cheap).
        """
        cam = points @ self.R.T + self.t
        pix = cam @ self.K.T
        return np.asarray(pix[:, :2] / pix[:, 2:3])

    def project(self, points: np.ndarray) -> np.ndarray:
        """Project (N, 3) world points to (N, 2) pixels of the distorted (output) image."""
        rvec, _ = cv2.Rodrigues(self.R)
        out, _ = cv2.projectPoints(points.astype(np.float64), rvec, self.t.astype(np.float64),
                                   self.K, self.dist)
        return out.reshape(-1, 2)

    def board_homography(self) -> np.ndarray:
        """Homography from board-plane (X, Y) to undistorted image pixels."""
        H = self.K @ np.column_stack([self.R[:, 0], self.R[:, 1], self.t])
        return np.asarray(H / H[2, 2])

    def undistort_maps(self, step: int = 4) -> tuple[np.ndarray, np.ndarray]:
        """Maps for cv2.remap: for each output (distorted) pixel, where it lies in the ideal image.

        Computed on a grid ``step`` pixels apart and upsampled: distortion is smooth, and the
        full-resolution iterative undistortion would cost ~100 ms per scene.
        """
        w, h = self.size
        offset = (step - 1) / 2.0  # grid point i sits at pixel step*i + offset, as cv2.resize expects
        nx, ny = -(-w // step) + 1, -(-h // step) + 1
        gx, gy = np.meshgrid(np.arange(nx, dtype=np.float32) * step + offset,
                             np.arange(ny, dtype=np.float32) * step + offset)
        pts = np.stack([gx.ravel(), gy.ravel()], axis=1).reshape(-1, 1, 2)
        ideal = cv2.undistortPoints(pts, self.K, self.dist, None, self.K,
                                        criteria=(cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 20, 1e-3))
        ideal = ideal.reshape(ny, nx, 2)
        full = (nx * step, ny * step)
        mx = cv2.resize(ideal[..., 0], full, interpolation=cv2.INTER_LINEAR)[:h, :w]
        my = cv2.resize(ideal[..., 1], full, interpolation=cv2.INTER_LINEAR)[:h, :w]
        return np.ascontiguousarray(mx), np.ascontiguousarray(my)


def look_at(elevation: float, azimuth: float, roll: float, distance: float,
            target: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Pose (R, t) of a camera at ``distance`` from ``target``, angles in radians.

    ``azimuth`` is the direction (in the board plane) from the target to the camera's foot;
    the image's "up" is the far side of the board, away from the camera, as a person sitting
    at that side would see it, then rolled about the optical axis by ``roll``.
    """
    h_dir = np.array([np.cos(azimuth), np.sin(azimuth), 0.0])
    world_up = np.array([0.0, 0.0, -1.0])
    ce, se = np.cos(elevation), np.sin(elevation)
    centre = target + distance * (ce * h_dir + se * world_up)
    forward = (target - centre) / distance
    up = se * (-h_dir) + ce * world_up
    y_axis = -up
    x_axis = np.cross(y_axis, forward)
    cr, sr = np.cos(roll), np.sin(roll)
    x_rolled = cr * x_axis + sr * y_axis
    y_rolled = -sr * x_axis + cr * y_axis
    R = np.stack([x_rolled, y_rolled, forward])
    return R, -R @ centre
