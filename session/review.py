"""What a recording's review report shows of the camera: the rectified board at each
accepted ply, and the stretches of video in which the board was not read.

A :class:`ReviewCamera` watches a session frame by frame (a worker's observer) and keeps
only what the report needs, encoded small as it goes: one 240 px JPEG per ply (a 60-ply
game stays well inside the report's 5 MB) and one frame per stretch without a reading.
It picks a frame when the game it sees changes, so a move taken back and played again
gets the picture of the ply that stood.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from makhos.engine.game import Ply
from makhos.vision.pipeline import FrameResult
from makhos.vision.reading import LABELS, Reading

from .session import BoardSession

#: Side of a rectified board picture, in pixels.
PICTURE_PX = 240
#: Width of a frame shown for a stretch without a reading.
STRETCH_PX = 320
#: A stretch without a reading shorter than this is a hand making a move: not listed.
LONGEST_HAND = 3.0


@dataclass(frozen=True)
class PlyPicture:
    """The camera's view of the board when a ply was accepted.

    ``seen`` is the reading of that frame, one letter per square 1-32 (``.`` empty, ``l``/``d``
    a light/dark man, ``L``/``D`` a light/dark king), in the engine's numbering; ``doubt``
    the square read with least certainty and that certainty. ``shows`` is the ply whose
    position the frame shows: several plies seen at once (through a gap) share the frame of
    the last. ``jpeg`` is None when the frame showed no board."""

    time: float
    shows: int
    jpeg: bytes | None
    seen: str | None
    doubt: tuple[int, float] | None


@dataclass(frozen=True)
class Unread:
    """A stretch of the video in which the board was not read, and a frame from it."""

    start: float
    end: float
    jpeg: bytes


class ReviewCamera:
    def __init__(self, stretches: bool = True) -> None:
        """``stretches``: keep a frame of each stretch without a reading (a recording's
        report); a live board's worker, which runs all day, keeps none."""
        self.keeps_stretches = stretches
        self.pictures: list[PlyPicture] = []  # index i: the ply i + 1 of the current game
        self.stretches: list[Unread] = []
        self.frames = 0
        self.read = 0
        self._plies: list[Ply] = []
        self._unread_since: float | None = None
        self._unread_frame: np.ndarray | None = None
        self._last_time = 0.0

    def observe(self, session: BoardSession) -> None:
        """After each frame the session took."""
        result, image = session.last, session.image
        if result is None or image is None:
            return
        self.frames += 1
        self._last_time = result.time
        if result.reading is not None or result.gate.readable:  # a still board, settling or read
            self.read += 1
            self._close_stretch(result.time)
        elif self._unread_since is None:
            self._unread_since, self._unread_frame = result.time, _fit_width(image, STRETCH_PX)
        game = session.tracker.game
        plies = list(game.plies) if game is not None else []
        if plies != self._plies:
            self._follow(plies, result, image)

    def finish(self) -> None:
        """The video ended: a stretch still open ends with it."""
        self._close_stretch(self._last_time)

    @property
    def share_read(self) -> float:
        """The share of the frames in which the board was read."""
        return self.read / self.frames if self.frames else 0.0

    def _follow(self, plies: list[Ply], result: FrameResult, image: np.ndarray) -> None:
        """Pictures for the plies that are new (or replaced), all from this frame."""
        same = 0
        while same < min(len(plies), len(self._plies)) and plies[same] == self._plies[same]:
            same += 1
        del self.pictures[same:]
        picture = self._picture(result, image, len(plies))
        self.pictures += [picture] * (len(plies) - same)
        self._plies = plies
        self.changed(same)

    def changed(self, first: int) -> None:
        """The pictures from index ``first`` on are new (or gone): a hook for keeping them."""

    @staticmethod
    def _picture(result: FrameResult, image: np.ndarray, shows: int) -> PlyPicture:
        jpeg = None
        if result.location is not None:
            jpeg = _jpeg(rectified(image, result.location.homography, result.played == "light"))
        return PlyPicture(result.time, shows, jpeg, *_seen(result.reading))

    def _close_stretch(self, time: float) -> None:
        since, frame = self._unread_since, self._unread_frame
        self._unread_since = self._unread_frame = None
        if since is not None and frame is not None and time - since >= LONGEST_HAND and self.keeps_stretches:
            self.stretches.append(Unread(since, time, _jpeg(frame)))


def rectified(image: np.ndarray, homography: np.ndarray, mirrored: bool) -> np.ndarray:
    """The board seen from above, ``PICTURE_PX`` square, square 1 where the engine's grid
    puts it (a board played on the light squares is mirrored back, as its numbering is)."""
    scale = PICTURE_PX / 8.0
    to_board = np.diag([1.0 / scale, 1.0 / scale, 1.0])
    if mirrored:
        to_board = np.array([[-1.0 / scale, 0.0, 8.0], [0.0, 1.0 / scale, 0.0], [0.0, 0.0, 1.0]])
    warped: np.ndarray = cv2.warpPerspective(image, homography @ to_board, (PICTURE_PX, PICTURE_PX),
                                             flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP)
    return warped


def _seen(reading: Reading | None) -> tuple[str | None, tuple[int, float] | None]:
    if reading is None:
        return None, None
    sureness = reading.probabilities.max(axis=1)
    square = int(sureness.argmin())
    letters = "".join(LABELS[k] for k in reading.labels())
    return letters, (square + 1, float(sureness[square]))


def _fit_width(image: np.ndarray, width: int) -> np.ndarray:
    height = max(1, round(image.shape[0] * width / image.shape[1]))
    small: np.ndarray = cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA)
    return small


def _jpeg(image: np.ndarray) -> bytes:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 75])
    if not ok:
        raise ValueError("the picture could not be encoded as JPEG")
    return bytes(data.tobytes())
