"""From a camera's frames to a board profile: what ``makhos calibrate`` does.

A person shows the camera the empty board (moving or tilting it a little helps the focal
length), then sets up the start position. Each frame is sorted as it arrives: an empty board
whose 49 inner corners are all seen is a lens view; a board the network reads as the start
position (every square's occupancy, each side on its own rows) is a start candidate;
anything else (hands, pieces being set up) is passed over. The profile takes the corners, numbering and played
colour from the surest start frame, the lens from the distinct empty views, and the piece
set's adaptation from the start frame read through that lens.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from makhos.engine import Colour, Rules
from makhos.vision.classifier import DEFAULT_MODEL, SquareClassifier
from makhos.vision.orientation import Orientation
from makhos.vision.photo import read_photo
from makhos.vision.rectify import crop_squares

from .adaptation import SetAdaptation, fit_adaptation, model_fingerprint
from .intrinsics import LensCalibration, calibrate_lens, distinct_views, inner_corners
from .profile import BoardProfile

class FrameKind(enum.Enum):
    NO_BOARD = "no board"
    EMPTY = "empty board"
    START = "start position"
    OTHER = "other"


#: Label -> column of (empty, light piece, dark piece).
CLASS_COLUMNS = {".": 0, "l": 1, "L": 1, "d": 2, "D": 2}


@dataclass
class _Start:
    frame: np.ndarray
    orientation: Orientation
    sureness: float  # mean probability of the start's occupancy and sides


class Calibrator:
    """Feed frames with :meth:`offer` until :attr:`done`, then take :meth:`profile`."""

    def __init__(self, rules: Rules = Rules(), first_mover: Colour | None = None,
                 model: Path = DEFAULT_MODEL, views_wanted: int = 12) -> None:
        self.rules = rules
        self.first_mover = first_mover
        self.model = model
        self.views_wanted = views_wanted
        self.network = SquareClassifier(model)
        self.views: list[np.ndarray] = []  # distinct empty-board views, inner corners each
        self.size: tuple[int, int] | None = None
        self._start: _Start | None = None

    @property
    def start_seen(self) -> bool:
        return self._start is not None

    @property
    def done(self) -> bool:
        return self.start_seen and len(self.views) >= self.views_wanted

    def offer(self, frame: np.ndarray) -> FrameKind:
        """Sort one frame and keep what it is good for.

        The network, not a brightness cue, says what stands on the squares: cream men on a
        buff board are plain to it and faint to the eye of a threshold.
        """
        size = (frame.shape[1], frame.shape[0])
        if self.size is not None and size != self.size:
            raise ValueError(f"frames changed size from {self.size} to {size}")
        self.size = size
        photo = read_photo(self.network, frame)
        if photo is None:
            return FrameKind.NO_BOARD
        location, orientation, probabilities = photo.found, photo.orientation, photo.probabilities
        corners = orientation.location.corners
        if not (probabilities[:, 0] > 0.5).all():
            return self._offer_start(frame, orientation, probabilities)
        other = "light" if orientation.played == "dark" else "dark"
        if not (self.network.classify(crop_squares(frame, corners, other))[:, 0] > 0.5).all():
            return FrameKind.OTHER  # pieces on the other colour: played squares not settled yet
        view = inner_corners(frame, location)
        if view is None:
            return FrameKind.OTHER
        self.views = distinct_views(self.views + [view], location.square_px)
        return FrameKind.EMPTY

    def _offer_start(self, frame: np.ndarray, orientation: Orientation,
                     probabilities: np.ndarray) -> FrameKind:
        """Keep the frame if it shows the start position, each side on its own rows (which
        also checks the numbering's half turn); the surest such frame wins."""
        start = self.start_labels()
        columns = [CLASS_COLUMNS[label] for label in start]
        by_side = np.stack([probabilities[:, 0], probabilities[:, 1] + probabilities[:, 3],
                            probabilities[:, 2] + probabilities[:, 4]], axis=1)
        if not np.array_equal(by_side.argmax(1), columns):
            return FrameKind.OTHER
        sureness = float(by_side[np.arange(32), columns].mean())
        if self._start is None or sureness >= self._start.sureness:
            self._start = _Start(frame, orientation, sureness)
        return FrameKind.START

    def start_labels(self) -> str:
        """The start position of the rules, 32 labels in square order."""
        light, dark = self.rules.start_squares()
        return "".join("L" if light.get(s) else "l" if s in light else
                       "D" if dark.get(s) else "d" if s in dark else "." for s in range(1, 33))

    def profile(self) -> BoardProfile:
        """The profile from what was seen; ValueError when the start position never was."""
        if self._start is None or self.size is None:
            raise ValueError("the start position was never seen: set it up in full view, "
                             "with no hand over the board")
        camera = calibrate_lens(self.views, self.size) if self.views else None
        orientation = self._start.orientation
        turns = orientation.quarter_turns
        found = np.roll(orientation.location.corners, turns, axis=0)  # as located, clockwise
        return BoardProfile(
            image_size=self.size, corners=found, quarter_turns=turns, played=orientation.played,
            rules=self.rules, first_mover=self.first_mover, camera=camera,
            adaptation=self.adaptation(camera))

    def adaptation(self, camera: LensCalibration | None) -> SetAdaptation | None:
        """The set's adaptation from the start frame; None for a start without men (the
        golden board's kings alone cannot place the man/king bound)."""
        labels = self.start_labels()
        if "l" not in labels or "d" not in labels or self._start is None:
            return None
        orientation = self._start.orientation
        return fit_adaptation(self.network, self._start.frame,
                              orientation.location.corners, orientation.played, labels,
                              model_fingerprint(self.model),
                              lens=camera.lens if camera is not None else None)
