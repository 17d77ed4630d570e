"""The calibration page's image work: the camera frame, the rectified board, saving corners.

The server never imports OpenCV; it asks a desk (``server.config.CalibrationDesk``) for
pictures and readings. One desk serves one board of a ``makhos run``: the worker offers it
each frame, the page drags the corners, and a saved profile is handed to the worker
between two frames (:meth:`ProfileDesk.take_saved`), so the new corners apply at once.
"""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from makhos.vision.classifier import DEFAULT_MODEL
from makhos.vision.geometry import BoardLocation, clockwise, location_from_corners
from makhos.vision.reading import LABELS
from makhos.vision.rectify import crop_squares, played_cells

from .profile import BoardProfile
from .reader import square_reader

PX = 48  # pixels per square of the rectified board
_TEXT = {".": (160, 160, 160), "l": (30, 30, 200), "d": (170, 80, 20), "L": (30, 30, 200),
         "D": (170, 80, 20)}


class ProfileDesk:
    """The calibration page of one board, over its profile file."""

    def __init__(self, board: str, path: Path, model: Path | str = DEFAULT_MODEL) -> None:
        self.board = board
        self.path = Path(path)
        self.profile = BoardProfile.load(self.path)
        self.classifier = square_reader(self.profile, self.path, model)
        self._frame: np.ndarray | None = None
        self._saved: BoardProfile | None = None
        self._lock = threading.Lock()

    # ------------------------------------------------------------ the worker's side

    def offer(self, image: np.ndarray) -> None:
        """The latest camera frame (kept by reference: frames are not written to)."""
        with self._lock:
            self._frame = image

    def take_saved(self) -> BoardProfile | None:
        """The profile saved from the page since the last call, once."""
        with self._lock:
            saved, self._saved = self._saved, None
        return saved

    # ------------------------------------------------------------ the page's side

    def state(self, board: str) -> dict[str, Any] | None:
        if board != self.board:
            return None
        profile = self.profile
        frame = self._latest()
        reading = None
        if frame is not None:
            labels, sureness = self._reading(frame, profile.corners, profile.quarter_turns)
            reading = [{"square": s, "label": label, "p": round(p, 3)}
                       for s, (label, p) in enumerate(zip(labels, sureness), start=1)]
        return {"board": board, "profile": self.path.name, "size": list(profile.image_size),
                "corners": np.round(profile.corners, 1).tolist(),
                "quarter_turns": profile.quarter_turns, "played": profile.played,
                "lens": profile.camera is not None, "adapted": profile.adaptation is not None,
                "squares": reading}

    def frame(self, board: str) -> bytes | None:
        frame = self._latest() if board == self.board else None
        return None if frame is None else _jpeg(frame)

    def board_view(self, board: str, corners: list[list[float]], quarter_turns: int) -> bytes | None:
        frame = self._latest() if board == self.board else None
        if frame is None:
            return None
        location = self._numbered(corners, quarter_turns)
        labels, _ = self._reading(frame, location.corners, 0)
        return _jpeg(draw_board(self._ideal(frame), self._ideal_location(location),
                                self.profile.played, labels))

    def save(self, board: str, corners: list[list[float]], quarter_turns: int) -> dict[str, Any]:
        if board != self.board:
            raise ValueError(f"this desk calibrates board {self.board}, not {board}")
        location = self._numbered(corners, quarter_turns)  # checks them
        profile = dataclasses.replace(self.profile, corners=np.roll(location.corners, quarter_turns, axis=0),
                                      quarter_turns=quarter_turns)
        profile.save(self.path)
        with self._lock:
            self.profile = self._saved = profile
        state = self.state(board)
        assert state is not None  # the board is this desk's
        return state

    # ------------------------------------------------------------ helpers

    def _latest(self) -> np.ndarray | None:
        with self._lock:
            return self._frame

    def _numbered(self, corners: list[list[float]], quarter_turns: int) -> BoardLocation:
        """The numbering-frame location of corners from the page; ValueError when unusable."""
        try:
            c = np.array(corners, np.float64).reshape(4, 2)
        except (TypeError, ValueError):
            raise ValueError("corners must be four [x, y] pairs") from None
        w, h = self.profile.image_size
        if not np.all(np.isfinite(c)) or (c < 0).any() or (c[:, 0] >= w).any() or (c[:, 1] >= h).any():
            raise ValueError(f"corners must lie inside the {w}x{h} image")
        if not clockwise(c) or cv2.contourArea(c.astype(np.float32)) < 64 * 16:
            raise ValueError("the corners must go clockwise around a board of at least 4x4 px squares")
        if isinstance(quarter_turns, bool) or quarter_turns not in (0, 1, 2, 3):
            raise ValueError("quarter_turns must be 0, 1, 2 or 3")
        return location_from_corners(c).rotated(quarter_turns)

    def _reading(self, frame: np.ndarray, corners: np.ndarray, quarter_turns: int
                 ) -> tuple[list[str], list[float]]:
        numbered = np.roll(np.asarray(corners, np.float64), -quarter_turns, axis=0)
        crops = crop_squares(frame, numbered, self.profile.played, lens=self.profile.lens)
        probabilities = self.classifier.classify(crops)
        return ([LABELS[k] for k in probabilities.argmax(1)],
                [float(p) for p in probabilities.max(1)])

    def _ideal(self, frame: np.ndarray) -> np.ndarray:
        lens = self.profile.lens
        return frame if lens is None else lens.undistort(frame)

    def _ideal_location(self, location: BoardLocation) -> BoardLocation:
        lens = self.profile.lens
        if lens is None:
            return location
        return location_from_corners(lens.undistort_points(location.corners))


def draw_board(frame: np.ndarray, location: BoardLocation, played: str, labels: list[str]) -> np.ndarray:
    """The board seen from above (row 0 at the top) with its grid, square numbers and the
    reading of each played square ('.' empty, l/d men, L/D kings)."""
    to_board = np.diag([1 / PX, 1 / PX, 1.0])
    view = cv2.warpPerspective(frame, location.homography @ to_board, (8 * PX, 8 * PX),
                               flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
    for k in range(9):
        at = min(k * PX, 8 * PX - 1)  # the last line on the image's last pixel, not past it
        cv2.line(view, (at, 0), (at, 8 * PX), (0, 255, 255), 1)
        cv2.line(view, (0, at), (8 * PX, at), (0, 255, 255), 1)
    for square, ((row, col), label) in enumerate(zip(played_cells(played), labels), start=1):
        x, y = col * PX, row * PX
        cv2.putText(view, str(square), (x + 3, y + 13), cv2.FONT_HERSHEY_SIMPLEX, 0.4,
                    (0, 0, 0), 3, cv2.LINE_AA)
        cv2.putText(view, str(square), (x + 3, y + 13), cv2.FONT_HERSHEY_SIMPLEX, 0.4,
                    (255, 255, 255), 1, cv2.LINE_AA)
        if label == ".":
            cv2.circle(view, (x + PX // 2, y + PX // 2 + 4), 3, _TEXT["."], -1, cv2.LINE_AA)
            continue
        # On a white badge: a label drawn on the piece itself vanishes on a piece of its
        # own colour (blue on blue men, red on orange ones).
        (w, h), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, 0.7, 2)
        cx, cy = x + PX // 2, y + PX // 2 + 4
        badge = (cx - w // 2 - 5, cy - h // 2 - 5), (cx + w // 2 + 5, cy + h // 2 + 5)
        cv2.rectangle(view, *badge, (255, 255, 255), -1)
        cv2.rectangle(view, *badge, (0, 0, 0), 1)
        cv2.putText(view, label, (cx - w // 2, cy + h // 2), cv2.FONT_HERSHEY_SIMPLEX, 0.7,
                    _TEXT[label], 2, cv2.LINE_AA)
    return view


def _jpeg(image: np.ndarray) -> bytes:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])
    if not ok:
        raise ValueError("could not encode the image")
    return data.tobytes()
