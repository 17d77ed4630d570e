"""What a worker watches: a camera (frames through vision) or a replayed game (readings).

Both end in the same :class:`session.BoardSession`; a camera's frames go through its
BoardReader (:meth:`BoardSession.feed`), a replay's readings join after it
(:meth:`BoardSession.observe`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Protocol

from makhos.events import GameEvent
from makhos.session import BoardSession

from .replay import Observation, ReplaySource

if TYPE_CHECKING:  # imported when used: a replay needs neither OpenCV nor onnxruntime
    from makhos.calibration.desk import ProfileDesk
    from makhos.session.annotate import CameraView
    from makhos.vision.pipeline import BoardReader
    from makhos.vision.sources import Frame

REPLAY_PREFIX = "replay:"
#: Seconds of a recording played to the vision before the point where its log ends.
WARM_UP = 5.0


class Input(Protocol):
    @property
    def live(self) -> bool:
        """A live input is reopened when it stops; a recording ends the worker."""

    @property
    def watches_camera(self) -> bool:
        """Silence from it means a camera lost (a replay is silent between its plies)."""

    def describe(self) -> str: ...

    def reader(self) -> Any:
        """The session's BoardReader (None when readings arrive already made)."""

    def items(self, after: float) -> Iterator[Any]:
        """What comes from the source, later than ``after`` where it can skip."""

    def time_of(self, item: Any) -> float:
        """The item's time on the source's clock."""

    def feed(self, session: BoardSession, item: Any) -> tuple[float, list[GameEvent]]:
        """Hand one item to the session: its time and the events it caused."""


@dataclass(frozen=True)
class ReplayInput:
    source: ReplaySource
    live: bool = False
    watches_camera: bool = False

    def describe(self) -> str:
        return self.source.describe()

    def reader(self) -> None:
        return None

    def items(self, after: float) -> Iterator[Observation]:
        return self.source.observations(after)

    def time_of(self, item: Observation) -> float:
        return item.time

    def feed(self, session: BoardSession, item: Observation) -> tuple[float, list[GameEvent]]:
        return item.time, session.observe(item.time, item.reading)


@dataclass(frozen=True)
class CameraInput:
    """A webcam, network camera, video file or image folder (``vision.sources.open_source``).

    ``speed`` plays a recording at that many times its own pace (1: as if live, the demo;
    None: as fast as it is read); ``view`` keeps
    the referee's annotated camera view up to date.
    """

    spec: str
    model: Path | None = None
    speed: float | None = None
    profile: Path | None = None  # the board profile (calibration) of this camera
    desk: ProfileDesk | None = None  # the calibration page of this camera
    view: CameraView | None = None
    start: float = 0.0  # seconds into a video file to play it from
    watches_camera: bool = True

    @property
    def live(self) -> bool:
        from makhos.vision.sources import LiveCamera, open_source

        return isinstance(open_source(self.spec, start=self.start), LiveCamera)

    def describe(self) -> str:
        from makhos.vision.sources import open_source

        return open_source(self.spec, start=self.start).describe()

    def reader(self) -> BoardReader:
        from makhos.calibration.reader import board_reader, square_reader
        from makhos.vision.classifier import model_path
        from makhos.vision.pipeline import BoardReader

        if self.profile is not None:
            from makhos.calibration.profile import BoardProfile

            return board_reader(BoardProfile.load(self.profile), self.profile, model_path(self.model))
        return BoardReader(square_reader(model=self.model))

    def items(self, after: float) -> Iterator[Frame]:
        """The frames from ``start``; a recording is taken up where the log ends (``after``,
        in its own seconds), so a restarted worker never plays the game again from its
        first frame (which would read as plies taken back). It starts :data:`WARM_UP`
        seconds before that point: the session only warms its vision on frames the log
        has seen (a board just found waits longer for its first still view, and a hand
        may be on its way by the resume point)."""
        from makhos.vision.sources import ImageFolder, VideoFile, open_source, paced

        source = open_source(self.spec, start=self.start)
        resume = math.isfinite(after) and after > self.start
        begin = max(self.start, after - WARM_UP)
        if resume and isinstance(source, VideoFile):
            source = VideoFile(source.path, start=begin)
        frames: Iterator[Frame] = iter(source)
        if resume and isinstance(source, ImageFolder):
            frames = (frame for frame in frames if frame.timestamp >= begin)
        return paced(frames, self.speed) if self.speed is not None else frames

    def time_of(self, item: Frame) -> float:
        return item.timestamp

    def feed(self, session: BoardSession, item: Frame) -> tuple[float, list[GameEvent]]:
        if self.desk is not None:
            self.desk.offer(item.image)
            saved = self.desk.take_saved()
            if saved is not None:  # corners moved on the calibration page: read with them now
                from makhos.calibration.reader import board_reader

                from makhos.vision.classifier import model_path

                session.read_with(board_reader(saved, self.profile or "the calibration page",
                                               model_path(self.model)))
        events = session.feed(item.image, item.timestamp)
        if self.view is not None and session.last is not None:
            self.view.offer(item.image, session.last, session.health.health)
        return item.timestamp, events


def open_input(spec: str, speed: float | None = None, seconds_per_ply: float = 10.0,
               profile: Path | None = None, start: float = 0.0) -> Input:
    """``replay:GAME.pdn`` replays a recorded game; anything else is a camera source, read
    with its board ``profile`` when one is given (a replay's readings are made already).
    ``speed`` paces a replay (default 1) or a recording (default: as fast as it is read)."""
    if spec.startswith(REPLAY_PREFIX):
        path = Path(spec[len(REPLAY_PREFIX):])
        if not path.is_file():
            raise FileNotFoundError(f"no recorded game {path}")
        return ReplayInput(ReplaySource.from_pdn(path, speed=speed or 1.0, seconds_per_ply=seconds_per_ply))
    return CameraInput(spec, profile=profile, start=start, speed=speed)
