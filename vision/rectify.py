"""From a camera frame and the board's four corners to the 32 played-square crops.

The classifier is trained and run on exactly these crops, so this module is the single
definition of what a "square image" is. Each crop is a small rectified patch of the board
plane around one played square, turned so that "up" in the crop points away from the
camera: a tall stack seen obliquely then always spills toward the top of its crop,
whatever the camera's position around the board, and the crop keeps enough board above
the square (``CropGeometry.above``) to show the whole stack.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from makhos.engine.squares import row_col

from .lens import Lens


@dataclass(frozen=True, slots=True)
class CropGeometry:
    """Crop size in pixels and its scale; the square's centre sits at ``centre`` (x, y)."""

    pps: int = 32  # crop pixels per board square
    width: int = 40
    height: int = 64
    centre_y: float = 44.0  # the square centre's distance from the crop's top edge, pixels

    @property
    def centre(self) -> tuple[float, float]:
        """Pixel coordinates (OpenCV convention: integer = pixel centre) of the square centre."""
        return (self.width / 2 - 0.5, self.centre_y - 0.5)


CROP = CropGeometry()


@dataclass(frozen=True, slots=True)
class SquareCrops:
    """What the square network reads of one board: each square's crop and how steeply
    that square is seen (``sightlines``), rows in square order."""

    images: np.ndarray  # (N, height, width, 3) uint8 BGR
    sight: np.ndarray  # (N, 2) float32

    def with_images(self, images: np.ndarray) -> SquareCrops:
        """The same squares with their crops changed (mirrored, moved, relit)."""
        return SquareCrops(images, self.sight)


def played_cells(played: str = "dark") -> np.ndarray:
    """(row, col) in the board's own frame of squares 1..32, as a (32, 2) int array.

    Dark squares are those with row + col odd (the engine's grid). For play on the light
    squares the numbering is mirrored left-right (col -> 7 - col): rows keep their numbers
    (1-4 on the far row) and the squares in play become those with row + col even.

    >>> played_cells("dark")[[0, 28]].tolist(), played_cells("light")[[0, 28]].tolist()
    ([[0, 1], [7, 0]], [[0, 6], [7, 7]])
    """
    if played not in ("dark", "light"):
        raise ValueError(f"played must be 'dark' or 'light', not {played!r}")
    cells = np.array([row_col(s) for s in range(1, 33)])
    if played == "light":
        cells[:, 1] = 7 - cells[:, 1]
    return cells


def square_centres(played: str = "dark") -> np.ndarray:
    """(x, y) in board units of the centres of squares 1..32, as a (32, 2) float array."""
    return played_cells(played)[:, ::-1] + 0.5


def board_to_image(corners: np.ndarray) -> np.ndarray:
    """Homography from board units ((0, 0) = top-left corner, (8, 8) = bottom-right) to
    image pixels, from the four corners in the order top-left, top-right, bottom-right,
    bottom-left of the board's own frame."""
    src = np.array([[0, 0], [8, 0], [8, 8], [0, 8]], np.float32)
    return cv2.getPerspectiveTransform(src, np.asarray(corners, np.float32))


def camera_position(corners: np.ndarray, image_size: tuple[int, int]) -> np.ndarray:
    """Where the camera is, (x, y, height above the board) in board units.

    The standard plane-homography decomposition, with the principal point at the image
    centre and the focal length solved from the two constraints on the rotation's first
    columns (orthogonal, equal length). Rough intrinsics are enough for what this serves
    (the direction crops are turned, and how steeply each square is seen); a top-down
    view, where the solve is ill-conditioned, falls back to a typical webcam focal length.
    """
    w, h = image_size
    H = np.array([[1, 0, -w / 2], [0, 1, -h / 2], [0, 0, 1]]) @ board_to_image(corners)
    H = H / np.linalg.norm(H[:, 0])
    (a, b, _), (c, d, _), (e, f, _) = H
    # (a b + c d) / F^2 + e f = 0 ;  (a^2 + c^2 - b^2 - d^2) / F^2 + e^2 - f^2 = 0
    coef = np.array([a * b + c * d, a * a + c * c - b * b - d * d])
    rhs = -np.array([e * f, e * e - f * f])
    inv_f2 = float(coef @ rhs / max(coef @ coef, 1e-12))
    focal = 1.0 / np.sqrt(inv_f2) if inv_f2 > 0 else w
    if not 0.3 * w < focal < 5 * w:
        focal = float(w)
    M = np.diag([1 / focal, 1 / focal, 1.0]) @ H
    scale = 2 / (np.linalg.norm(M[:, 0]) + np.linalg.norm(M[:, 1]))
    r1, r2, t = M[:, 0] * scale, M[:, 1] * scale, M[:, 2] * scale
    if t[2] < 0:
        r1, r2, t = -r1, -r2, -t
    R = np.column_stack([r1, r2, np.cross(r1, r2)])
    x, y, z = -R.T @ t
    return np.array([x, y, abs(z)])


def camera_foot(corners: np.ndarray, image_size: tuple[int, int]) -> np.ndarray:
    """The point of the board plane under the camera, (x, y) in board units."""
    return camera_position(corners, image_size)[:2]


def sightlines(corners: np.ndarray, image_size: tuple[int, int], played: str = "dark"
               ) -> np.ndarray:
    """How each played square is seen, (32, 2) float32: the cotangent of the angle it is
    seen at above the board, and one board square over the camera's height.

    A crop is rectified on the board plane, which wipes out the viewing angle: a man seen
    obliquely and a king seen more steeply spill the same distance up their crops (a stack
    of height z spills z times the cotangent, and its top grows by 1 / (1 - z / height)).
    The network gets these two numbers beside the crop to tell them apart.
    """
    camera = camera_position(corners, image_size)
    reach = np.linalg.norm(square_centres(played) - camera[:2], axis=1)
    height = max(camera[2], 1e-3)
    return np.stack([reach / height, np.full(32, 1 / height)], axis=1).astype(np.float32)


def crop_transforms(corners: np.ndarray, image_size: tuple[int, int], played: str = "dark",
                    geometry: CropGeometry = CROP) -> np.ndarray:
    """(32, 3, 3) homographies from crop pixels to image pixels, one per square 1..32."""
    centres = square_centres(played)
    away = centres - camera_foot(corners, image_size)
    norm = np.linalg.norm(away, axis=1, keepdims=True)
    up = np.where(norm > 1e-6, away / np.maximum(norm, 1e-6), [0.0, -1.0])
    right = np.stack([-up[:, 1], up[:, 0]], axis=1)
    cx, cy = geometry.centre
    s = 1.0 / geometry.pps
    # crop (x, y, 1) -> board: centre + right * (x - cx) * s - up * (y - cy) * s
    A = np.zeros((32, 3, 3))
    A[:, :2, 0] = right * s
    A[:, :2, 1] = -up * s
    A[:, :2, 2] = centres - right * cx * s + up * cy * s
    A[:, 2, 2] = 1
    return board_to_image(corners)[None] @ A


def crop_squares(image: np.ndarray, corners: np.ndarray, played: str = "dark",
                 geometry: CropGeometry = CROP, lens: Lens | None = None) -> SquareCrops:
    """The 32 played-square crops of a BGR frame, (32, height, width, 3) uint8, squares
    1..32, with their sightlines.

    A frame much finer than the crops is first shrunk with area averaging, so the bilinear
    sampling below does not alias the board texture or thin rings on the pieces. With a
    calibrated ``lens`` the crops are cut from the ideal (straight-line) image without
    making it: the corners go into it, the sampling grid comes back out through the lens.
    """
    corners = np.asarray(corners, np.float64)
    h, w = image.shape[:2]
    ideal = corners if lens is None else lens.undistort_points(corners)
    sight = sightlines(ideal, (w, h), played)
    side = np.sqrt(cv2.contourArea(corners.astype(np.float32))) / 8
    shrink = min(1.0, 1.5 * geometry.pps / max(side, 1e-6))
    if lens is not None:
        T = crop_transforms(ideal, (w, h), played, geometry)
        mapped = lens.distort_points(_sampling_grid(T, geometry))
    if shrink < 0.9:
        image = cv2.resize(image, (max(1, round(w * shrink)), max(1, round(h * shrink))),
                           interpolation=cv2.INTER_AREA)
        scale = np.array([image.shape[1] / w, image.shape[0] / h])
        corners = (corners + 0.5) * scale - 0.5
        if lens is not None:
            mapped = (mapped + 0.5) * scale - 0.5
        h, w = image.shape[:2]
    if lens is None:
        mapped = _sampling_grid(crop_transforms(corners, (w, h), played, geometry), geometry)
    map_x = mapped[..., 0].reshape(32 * geometry.height, geometry.width).astype(np.float32)
    map_y = mapped[..., 1].reshape(32 * geometry.height, geometry.width).astype(np.float32)
    out = cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return SquareCrops(out.reshape(32, geometry.height, geometry.width, 3), sight)


def _sampling_grid(T: np.ndarray, geometry: CropGeometry) -> np.ndarray:
    """(32, height * width, 2) image points of every crop pixel, from (32, 3, 3) transforms."""
    ys, xs = np.mgrid[0:geometry.height, 0:geometry.width]
    pts = np.stack([xs.ravel(), ys.ravel(), np.ones(xs.size)], axis=0).astype(np.float64)
    mapped = T @ pts  # (32, 3, N)
    return (mapped[:, :2] / mapped[:, 2:3]).transpose(0, 2, 1)
