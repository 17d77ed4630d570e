"""What a worker watches: a camera (frames through vision) or a replayed game (readings).

Both end in the same :class:`session.BoardSession`; a camera's frames go through its
BoardReader (:meth:`BoardSession.feed`), a replay's readings join after it
(:meth:`BoardSession.observe`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Protocol

from makhos.events import GameEvent
from makhos.events.details import CameraNotice
from makhos.session import BoardSession

from .playback import Observation, PlaybackSource
from .takeup import TakeUp, take_up

if TYPE_CHECKING:  # imported when used: a replay needs neither OpenCV nor onnxruntime
    from makhos.calibration.desk import ProfileDesk
    from makhos.session.annotate import CameraView
    from makhos.vision.networks import Networks
    from makhos.vision.pipeline import BoardReader
    from makhos.vision.sources import Frame

REPLAY_PREFIX = "replay:"


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

    def taken_up(self, history: list[GameEvent]) -> Input:
        """This input set to go on from the board's log, ``history`` (at a worker's start)."""

    def opening(self) -> tuple[float, CameraNotice] | None:
        """What the log keeps of the source taken up, and when (None: nothing to keep)."""

    def items(self, after: float) -> Iterator[Any]:
        """What comes from the source, later than ``after`` where it can skip."""

    def time_of(self, item: Any) -> float:
        """The item's time on the source's clock."""

    def feed(self, session: BoardSession, item: Any) -> tuple[float, list[GameEvent]]:
        """Hand one item to the session: its time and the events it caused."""


@dataclass(frozen=True)
class PlaybackInput:
    source: PlaybackSource
    live: bool = False
    watches_camera: bool = False

    def describe(self) -> str:
        return self.source.describe()

    def reader(self) -> None:
        return None

    def taken_up(self, history: list[GameEvent]) -> PlaybackInput:
        return self  # a replay goes on after the log's time by itself (``items``)

    def opening(self) -> None:
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
    the referee's annotated camera view up to date; ``networks``: those the process's boards
    share (``vision.networks``; None: this board loads its own).
    """

    spec: str
    model: Path | None = None
    speed: float | None = None
    profile: Path | None = None  # the board profile (calibration) of this camera
    desk: ProfileDesk | None = None  # the calibration page of this camera
    view: CameraView | None = None
    start: float = 0.0  # seconds into a video file to play it from
    watches_camera: bool = True
    taken: TakeUp | None = None  # where the board's log has it go on (``taken_up``)
    networks: Networks | None = None
    # Threads that decode a video file's or network camera's stream (None: FFmpeg's choice,
    # as many as the machine has cores). Each holds frames of its own, so a process watching
    # several boards decodes each on one: the boards keep the cores busy.
    decoder_threads: int | None = None

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

            return board_reader(BoardProfile.load(self.profile), self.profile, model_path(self.model),
                                self.networks)
        # A camera, or a recording played at a pace, is read in real time: a read never waits
        # for the reader's refit; a recording read as fast as it decodes reads the same each run.
        return BoardReader(square_reader(model=self.model, networks=self.networks,
                                         live=self.speed is not None or self.live))

    def taken_up(self, history: list[GameEvent]) -> CameraInput:
        """Set to go on from the board's log (:mod:`worker.takeup`): the recording the log's
        last plies were read from where the log ends, any other from ``start``."""
        from makhos.vision.sources import ImageFolder, VideoFile, open_source

        source = open_source(self.spec, start=self.start)
        recording = source.identity() if isinstance(source, (VideoFile, ImageFolder)) else None
        return replace(self, taken=take_up(history, recording, self.start, self.speed is not None))

    def opening(self) -> tuple[float, CameraNotice] | None:
        return None if self.taken is None else (self.taken.at, self.taken.notice())

    @property
    def begin(self) -> float:
        """The second of a recording it is read from."""
        return self.start if self.taken is None else self.taken.begin

    def items(self, after: float) -> Iterator[Frame]:
        """The frames from :attr:`begin`, in the log's clock. ``after`` is not needed: where
        a recording goes on was settled from the log by :meth:`taken_up`, and a camera's
        frames come after the log's end by themselves."""
        from makhos.vision.glance import GlanceConfig
        from makhos.vision.sources import Frame, ImageFolder, LiveCamera, VideoFile, open_source, paced

        # A recording's frames no closer than the vision's glance looks at them.
        source = open_source(self.spec, start=self.start, pace=GlanceConfig().moving_interval)
        if isinstance(source, VideoFile) and self.begin != self.start:
            source = replace(source, start=self.begin)
        if self.decoder_threads is not None and isinstance(source, (VideoFile, LiveCamera)):
            source = replace(source, open_capture=_decoding(self.decoder_threads))
        frames: Iterator[Frame] = iter(source)
        if isinstance(source, ImageFolder) and self.begin > 0:
            frames = (frame for frame in frames if frame.timestamp >= self.begin)
        origin = 0.0 if self.taken is None else self.taken.origin
        if origin:
            frames = (Frame(frame.image, origin + frame.timestamp, frame.index) for frame in frames)
        return paced(frames, self.speed, stamp=False) if self.speed is not None else frames

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
                                               model_path(self.model), self.networks))
        events = session.feed(item.image, item.timestamp)
        if self.view is not None and session.last is not None:
            self.view.offer(item.image, session.last, session.health.health)
        return item.timestamp, events


def _decoding(threads: int) -> Callable[[int | str], Any]:
    """Opens a capture whose stream FFmpeg decodes on ``threads`` threads (a webcam's
    frames come from the camera, undecoded by FFmpeg, and open as before)."""
    import cv2

    def open_capture(target: int | str) -> Any:
        if isinstance(target, int):
            return cv2.VideoCapture(target)
        return cv2.VideoCapture(target, cv2.CAP_FFMPEG, [cv2.CAP_PROP_N_THREADS, threads])

    return open_capture


def open_input(spec: str, speed: float | None = None, seconds_per_ply: float = 10.0,
               profile: Path | None = None, start: float = 0.0, view: CameraView | None = None,
               networks: Networks | None = None, decoder_threads: int | None = None) -> Input:
    """``replay:GAME.pdn`` replays a recorded game; anything else is a camera source, read
    with its board ``profile`` when one is given (a replay's readings are made already).
    ``speed`` paces a replay (default 1) or a recording (default: as fast as it is read);
    ``view``: where a camera's annotated view is kept (``makhos serve --frames``); a camera
    reads with ``networks`` (those the process's boards share) where given, and its stream
    is decoded on ``decoder_threads``."""
    if spec.startswith(REPLAY_PREFIX):
        path = Path(spec[len(REPLAY_PREFIX):])
        if not path.is_file():
            raise FileNotFoundError(f"no recorded game {path}")
        return PlaybackInput(PlaybackSource.from_pdn(path, speed=speed or 1.0, seconds_per_ply=seconds_per_ply))
    return CameraInput(spec, profile=profile, start=start, speed=speed, view=view, networks=networks,
                       decoder_threads=decoder_threads)
