"""Where the board lies in a frame: the data that flows from localisation to every later stage.

Board coordinates are measured in squares: the playing area is the square
``[0, 8] x [0, 8]``; ``x`` runs along row 0 from the first corner to the second, ``y``
from the first corner to the fourth. The corners are listed clockwise as seen in the image
(``y`` pointing down), so ``corners[0] -> corners[1]`` is the edge of row 0 of the board's
own frame. Which physical side is row 0 (the numbering) is decided later from the pieces,
see :mod:`vision.orientation`.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

#: The four outer corners in board coordinates, in the documented order.
BOARD_CORNERS = np.array([[0, 0], [8, 0], [8, 8], [0, 8]], dtype=np.float32)


@dataclass(frozen=True)
class BoardLocation:
    """The 8x8 playing area found in one frame.

    ``corners`` are image pixels ``(4, 2)`` float32 in the documented order;
    ``homography`` maps board coordinates (squares) to image pixels; ``confidence`` in
    ``[0, 1]`` is the share of the grid's evidence that was seen (inner X-corners found);
    ``method`` says how it was found: ``"grid"``, ``"aruco"``, ``"manual"`` or ``"tracked"``.
    """

    corners: np.ndarray
    homography: np.ndarray
    confidence: float
    method: str

    @property
    def square_px(self) -> float:
        """Mean side of one square in pixels: the scale for every tolerance downstream."""
        sides = np.linalg.norm(self.corners - np.roll(self.corners, -1, axis=0), axis=1)
        return float(sides.mean() / 8.0)

    def to_image(self, board_xy: np.ndarray) -> np.ndarray:
        """Map ``(N, 2)`` board coordinates (squares) to image pixels."""
        return project(self.homography, board_xy)

    def rotated(self, quarter_turns: int) -> BoardLocation:
        """The same board with the first corner moved ``quarter_turns`` places clockwise.

        Used once the pieces tell which side is row 0; the homography is re-expressed so
        that board coordinates still start at the (new) first corner.
        """
        k = quarter_turns % 4
        corners = np.roll(self.corners, -k, axis=0)
        return BoardLocation(
            corners, homography_from_corners(corners), self.confidence, self.method
        )


def project(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Apply a 3x3 homography to ``(N, 2)`` points (vectorised, no OpenCV call)."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    h = np.asarray(homography, dtype=np.float64)
    # A degenerate fit may send points to infinity; callers treat non-finite as off-image.
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        q = pts @ h[:, :2].T + h[:, 2]
        return (q[:, :2] / q[:, 2:3]).astype(np.float32)


def homography_from_corners(corners: np.ndarray) -> np.ndarray:
    """Board coordinates -> image homography from the four outer corners."""
    return cv2.getPerspectiveTransform(BOARD_CORNERS, np.asarray(corners, dtype=np.float32))


def clockwise(corners: np.ndarray) -> bool:
    """True when the corners turn clockwise on screen (image ``y`` pointing down)."""
    c = np.asarray(corners, dtype=np.float64)
    x, y = c[:, 0], c[:, 1]
    return float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)) > 0


def location_from_corners(
    corners: np.ndarray, confidence: float = 1.0, method: str = "manual"
) -> BoardLocation:
    """A location from four known corners (board profile, ArUco, or a test's truth).

    The order is kept if clockwise; a counter-clockwise list is mirrored (keeping the first
    corner) so the documented order holds.
    """
    c = np.asarray(corners, dtype=np.float32).reshape(4, 2)
    if not clockwise(c):
        c = c[[0, 3, 2, 1]]
    return BoardLocation(c, homography_from_corners(c), float(confidence), method)


def corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    """Largest corner distance (pixels) between two corner lists, whatever corner each starts at.

    Localisation finds the board before the numbering is known, so its first corner may be
    any of the four; accuracy is judged on the best of the four cyclic shifts.
    """
    f = np.asarray(found, np.float64).reshape(4, 2)
    t = np.asarray(truth, np.float64).reshape(4, 2)
    if clockwise(f) != clockwise(t):
        t = t[[0, 3, 2, 1]]
    return float(min(np.linalg.norm(np.roll(f, -k, axis=0) - t, axis=1).max() for k in range(4)))
