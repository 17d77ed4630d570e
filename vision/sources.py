"""Where frames come from: webcam, video file, image folder or network camera, behind one interface.

Every source is an iterable of :class:`Frame` (image + timestamp in seconds), so the rest of
the pipeline never asks what kind of camera it has. Files give timestamps from their
position (a folder is played at ``fps``), live sources from the monotonic clock. A live
source that drops (unplugged webcam, network camera rebooting) is reopened with
exponential backoff; a file that cannot be read raises :class:`SourceError` naming it.

>>> open_source("rtsp://cam.local/stream").describe()
'network camera rtsp://cam.local/stream'
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

#: Float slack on frame timestamps when pacing (:class:`VideoFile`'s ``pace``).
_SLACK = 1e-6
#: Bytes read at each end of a recording to tell it from another (:func:`identity`).
IDENTITY_BYTES = 1 << 16
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")
NETWORK_SCHEMES = ("rtsp://", "rtsps://", "http://", "https://", "rtmp://", "udp://", "tcp://")


class SourceError(RuntimeError):
    """A source could not be opened, or gave a frame that cannot be decoded."""


@dataclass(frozen=True)
class Frame:
    """One picture and when it was taken (seconds; comparable within one source only)."""

    image: np.ndarray  # BGR uint8
    timestamp: float
    index: int  # position in the source, from 0


class Capture(Protocol):
    """The part of ``cv2.VideoCapture`` that sources use (a fake one in tests)."""

    def isOpened(self) -> bool: ...
    def read(self) -> tuple[bool, np.ndarray | None]: ...
    def grab(self) -> bool: ...
    def release(self) -> None: ...


class FrameSource(Protocol):
    def __iter__(self) -> Iterator[Frame]: ...
    def describe(self) -> str: ...


@dataclass(frozen=True)
class ImageFolder:
    """Still images in name order (or one image), played as a video at ``fps``.

    A file that does not decode stops the run with SourceError naming it: a silently
    skipped frame could hide the move that was played in it.
    """

    folder: Path
    fps: float = 30.0

    def paths(self) -> list[Path]:
        if self.folder.is_file():
            return [self.folder]
        return sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)

    def describe(self) -> str:
        return f"image folder {self.folder}"

    def identity(self) -> str:
        """Which recording this is (:func:`identity`): how many images, the first and the last."""
        paths = self.paths()
        return identity([*paths[:1], *paths[-1:]], f"{len(paths)} images")

    def __iter__(self) -> Iterator[Frame]:
        if not self.folder.exists():
            raise SourceError(f"{self.describe()}: no such folder")
        paths = self.paths()
        if not paths:
            raise SourceError(f"{self.describe()}: no images ({', '.join(IMAGE_SUFFIXES)})")
        for i, path in enumerate(paths):
            yield Frame(read_image(path), i / self.fps, i)


def read_image(path: str | Path) -> np.ndarray:
    """Decode one image file, or raise SourceError saying which file and why."""
    path = Path(path)
    if not path.is_file():
        raise SourceError(f"{path}: no such file")
    image = cv2.imdecode(np.fromfile(path, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise SourceError(f"{path}: not a readable image (corrupt or unknown format)")
    return image


@dataclass(frozen=True)
class VideoFile:
    """A recorded video; timestamps from the container (or frame count and fps).

    ``start`` (seconds) plays it from that moment on, with the frames' own timestamps: a
    recorder resumed on the rest of a video sees the time that passed meanwhile.

    ``pace`` (seconds): a frame sooner than this after the last one handed on is grabbed
    and passed over, never converted to pixels. The vision analyses no two frames closer
    than its glance's interval (:class:`vision.glance.GlanceConfig`), and converting a
    decoded 720p picture to BGR is about a fifth of decoding it: a 30 fps video read at
    15 frames a second saves that on every other frame. The last frame its header
    announces is always handed on.
    """

    path: Path
    open_capture: Callable[[str], Capture] = cv2.VideoCapture
    start: float = 0.0
    pace: float = 0.0

    def describe(self) -> str:
        return f"video file {self.path}" + (f" from {self.start:g} s" if self.start else "")

    def identity(self) -> str:
        """Which recording this is (:func:`identity`)."""
        return identity([self.path])

    def __iter__(self) -> Iterator[Frame]:
        if not self.path.is_file():
            raise SourceError(f"{self.describe()}: no such file")
        cap = self.open_capture(str(self.path))
        try:
            if not cap.isOpened():
                raise SourceError(
                    f"{self.describe()}: cannot be opened (corrupt or unknown format)"
                )
            fps = cap.get(cv2.CAP_PROP_FPS) if hasattr(cap, "get") else 0.0
            fps = fps if fps and fps > 0 else 30.0
            index = first = round(self.start * fps)
            for _ in range(first):  # grabbed, not decoded to pixels: exact and fast enough
                if not cap.grab():
                    raise SourceError(f"{self.describe()}: the video is shorter than that")
            handed = -np.inf  # the timestamp of the last frame handed on
            # The video's last frame is handed on too: the end of a recording is where it ends.
            final = int(cap.get(cv2.CAP_PROP_FRAME_COUNT)) - 1 if hasattr(cap, "get") else -1
            while True:
                if index > first and index != final and index / fps - handed + _SLACK < self.pace:
                    if not cap.grab():
                        return
                    index += 1
                    continue
                ok, image = cap.read()
                if not ok or image is None:
                    if index == first:
                        raise SourceError(
                            f"{self.describe()}: no frame could be decoded (corrupt file?)"
                        )
                    return
                handed = index / fps
                yield Frame(image, handed, index)
                index += 1
        finally:
            cap.release()


def identity(paths: list[Path], kind: str = "") -> str:
    """Which recording ``paths`` hold, by their contents, not their names: a hash of each
    file's size and first and last :data:`IDENTITY_BYTES`. A copy under another name is
    the same recording; a new one (the camera's next file, a re-encoding, a file cut
    or grown) is another, even under the same name. Reads a few kilobytes, never the whole.
    ``kind`` tells apart recordings that only some of their files stand for (a folder's
    image count)."""
    digest = hashlib.sha256(kind.encode())
    for path in paths:
        if not path.is_file():
            raise SourceError(f"{path}: no such file")
        size = path.stat().st_size
        digest.update(f";{size};".encode())
        with path.open("rb") as file:
            digest.update(file.read(IDENTITY_BYTES))
            file.seek(max(size - IDENTITY_BYTES, 0))
            digest.update(file.read(IDENTITY_BYTES))
    return digest.hexdigest()[:24]


@dataclass(frozen=True)
class Backoff:
    """Waits between reconnection attempts: ``first`` doubling up to ``longest`` seconds."""

    first: float = 0.5
    longest: float = 10.0
    max_attempts: int | None = None  # None: keep trying for ever (a camera on a match table)

    def delays(self) -> Iterator[float]:
        delay, attempt = self.first, 0
        while self.max_attempts is None or attempt < self.max_attempts:
            yield delay
            delay, attempt = min(self.longest, 2 * delay), attempt + 1


@dataclass(frozen=True)
class LiveCamera:
    """A webcam (``target`` an index) or a network camera (an HTTP MJPEG or RTSP URL).

    URLs go through OpenCV's FFmpeg backend. When a read fails the capture is released and
    reopened after the backoff delays; a successful frame resets the backoff. A camera that
    does not open at all is a :class:`SourceError` at once, with a hint: that is a wrong
    index or URL far more often than a camera about to come back (a live run's worker still
    reopens it with its own backoff and shows "camera lost" meanwhile).
    """

    target: int | str
    backoff: Backoff = Backoff()
    open_capture: Callable[[int | str], Capture] | None = None
    sleep: Callable[[float], None] = time.sleep
    clock: Callable[[], float] = time.time  # wall time, as the page's move clock shows it

    def describe(self) -> str:
        return (
            f"webcam {self.target}"
            if isinstance(self.target, int)
            else f"network camera {self.target}"
        )

    def _open(self) -> Capture:
        if self.open_capture is not None:
            return self.open_capture(self.target)
        if isinstance(self.target, int):
            return cv2.VideoCapture(self.target)
        return cv2.VideoCapture(self.target, cv2.CAP_FFMPEG)

    def _reconnect(self) -> Capture:
        for delay in self.backoff.delays():
            self.sleep(delay)
            cap = self._open()
            if cap.isOpened():
                return cap
            cap.release()
        raise SourceError(
            f"{self.describe()}: gone, and {self.backoff.max_attempts} reconnection attempts failed"
        )

    def _not_found(self) -> str:
        if isinstance(self.target, int):
            return (f"webcam {self.target}: no camera found (is it plugged in and not used by "
                    "another program? 0 is the first camera)")
        return f"network camera {self.target}: cannot be opened (is the URL right and the camera on?)"

    def __iter__(self) -> Iterator[Frame]:
        cap = self._open()
        if not cap.isOpened():
            cap.release()
            raise SourceError(self._not_found())
        index = 0
        try:
            while True:
                ok, image = cap.read()
                if ok and image is not None:
                    yield Frame(image, self.clock(), index)
                    index += 1
                    continue
                cap.release()
                cap = self._reconnect()
        finally:
            cap.release()


def paced(frames: Iterable[Frame], speed: float = 1.0,
          sleep: Callable[[float], None] = time.sleep,
          clock: Callable[[], float] = time.time, stamp: bool = True) -> Iterator[Frame]:
    """A recording played as if live (the demo): each frame is handed on at its own time,
    stamped with the wall clock as a camera's frame would be, or (``stamp`` False) with
    the time it has (set in the clock of a log the recording goes on in)."""
    start_wall: float | None = None
    start_stamp = 0.0
    for frame in frames:
        if start_wall is None:
            start_wall, start_stamp = clock(), frame.timestamp
        due = start_wall + (frame.timestamp - start_stamp) / speed
        if due > clock():
            sleep(due - clock())
        yield Frame(frame.image, due, frame.index) if stamp else frame


def open_source(
    spec: int | str | Path, fps: float = 30.0, backoff: Backoff = Backoff(), start: float = 0.0,
    pace: float = 0.0,
) -> FrameSource:
    """The source a user means: ``0`` (webcam index), a URL, a folder, or a video file
    (played from ``start`` seconds; ValueError for a start on another source; its frames
    handed on at most one per ``pace`` seconds, see :class:`VideoFile`)."""
    text = str(spec)
    path = Path(text)
    if start and (text.isdigit() or text.lower().startswith(NETWORK_SCHEMES) or path.is_dir()
                  or path.suffix.lower() in IMAGE_SUFFIXES):
        raise ValueError(f"a start time is for a video file, not {spec}")
    if text.isdigit():
        return LiveCamera(int(text), backoff)
    if text.lower().startswith(NETWORK_SCHEMES):
        return LiveCamera(text, backoff)
    if path.is_dir() or path.suffix.lower() in IMAGE_SUFFIXES:
        return ImageFolder(path, fps)
    return VideoFile(path, start=start, pace=pace)
