"""From a camera's frames to a board profile: what ``makhos calibrate`` does.

A person shows the camera the empty board (moving or tilting it a little helps the focal
length), then sets up the start position. Each frame is sorted as it arrives: an empty board
whose 49 inner corners are all seen is a lens view; a board showing as many pieces as the
start position and clearly oriented by them is a start candidate; anything else (hands,
pieces being set up) is passed over. The profile takes the corners, numbering and played
colour from the best start frame, the lens from the distinct empty views, and the piece
set's adaptation from the start frame read through that lens.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from engine import Colour, Rules
from vision.classifier import DEFAULT_MODEL, SquareClassifier
from vision.locate import locate_board
from vision.orientation import Orientation, cell_evidence, orient

from .adaptation import SetAdaptation, fit_adaptation, model_fingerprint
from .intrinsics import LensCalibration, calibrate_lens, distinct_views, inner_corners
from .profile import BoardProfile

#: Least orientation confidence for a start frame (a set-up start position gives ~1).
START_CONFIDENCE = 0.6


class FrameKind(enum.Enum):
    NO_BOARD = "no board"
    EMPTY = "empty board"
    START = "start position"
    OTHER = "other"


@dataclass
class _Start:
    frame: np.ndarray
    orientation: Orientation


@dataclass
class Calibrator:
    """Feed frames with :meth:`offer` until :attr:`done`, then take :meth:`profile`."""

    rules: Rules = Rules()
    first_mover: Colour | None = None
    model: Path = DEFAULT_MODEL
    views_wanted: int = 12
    views: list[np.ndarray] = field(default_factory=list)
    size: tuple[int, int] | None = None
    _start: _Start | None = None

    @property
    def start_seen(self) -> bool:
        return self._start is not None

    @property
    def done(self) -> bool:
        return self.start_seen and len(self.views) >= self.views_wanted

    def offer(self, frame: np.ndarray) -> FrameKind:
        """Sort one frame and keep what it is good for."""
        size = (frame.shape[1], frame.shape[0])
        if self.size is not None and size != self.size:
            raise ValueError(f"frames changed size from {self.size} to {size}")
        self.size = size
        location = locate_board(frame)
        if location is None:
            return FrameKind.NO_BOARD
        pieces = int(cell_evidence(frame, location).occupied.sum())
        if pieces == 0:
            corners = inner_corners(frame, location)
            if corners is None:
                return FrameKind.OTHER
            self.views = distinct_views(self.views + [corners], location.square_px)
            return FrameKind.EMPTY
        light, dark = self.rules.start_squares()
        if pieces != len(light) + len(dark):
            return FrameKind.OTHER
        orientation = orient(frame, location)
        if orientation.confidence < START_CONFIDENCE:
            return FrameKind.OTHER
        if self._start is None or orientation.confidence >= self._start.orientation.confidence:
            self._start = _Start(frame, orientation)
        return FrameKind.START

    def profile(self) -> BoardProfile:
        """The profile from what was seen; ValueError when the start position never was."""
        if self._start is None:
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
        light, dark = self.rules.start_squares()
        if all(light.values()) and all(dark.values()):
            return None
        labels = "".join("L" if light.get(s) else "l" if s in light else
                         "D" if dark.get(s) else "d" if s in dark else "." for s in range(1, 33))
        orientation = self._start.orientation
        return fit_adaptation(SquareClassifier(self.model), self._start.frame,
                              orientation.location.corners, orientation.played, labels,
                              model_fingerprint(self.model),
                              lens=camera.lens if camera is not None else None)
