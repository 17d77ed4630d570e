"""Render a scripted game to a video file, with its truth beside it.

Still shots are rendered once and given fresh sensor noise per frame (re-rendering would
also re-jitter the pieces, which a real still board never does); shots with a hand are
rendered frame by frame along the hand's path. With :class:`~.nuisances.Nuisances` the
script's timeline (30 frames a second) is sampled the way that camera samples the world, at
its own frame rate and capture times, and each frame goes through the camera's motion,
light and noise (see :mod:`lab.videos.nuisances`), with what a hall puts in view where it
asks (:mod:`lab.videos.hall`, and a busy hall's table, :mod:`lab.videos.busy_table`); the
file is then compressed with its codec. The truth
beside the video counts in the file's own frames.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict
from fractions import Fraction
from pathlib import Path
from collections.abc import Callable, Iterator
from typing import Protocol

import cv2
import numpy as np

from makhos.engine.pdn import write_game
from lab.render import Hand, Renderer, Scene

from .busy_table import BusyTable
from .hall import lay_scoresheet, resting_arm
from .nuisances import Camera, Nuisances, content_times
from .script import FPS, GameScript, Shot


def _colour(rng: np.random.Generator, low: int, high: int) -> tuple[int, int, int]:
    """A BGR colour, each channel drawn from [low, high)."""
    b, g, r = (int(v) for v in rng.integers(low, high, 3))
    return b, g, r


def _hand_at(shot: Shot, t: float, height: float, skin: tuple[int, int, int],
            sleeve: tuple[int, int, int]) -> Hand:
    """The hand at fraction ``t`` of the shot: fingertip along the path, arm toward its side."""
    points = np.asarray(shot.path, float)
    legs = np.linalg.norm(np.diff(points, axis=0), axis=1)
    total = max(legs.sum(), 1e-6)
    distance = t * total
    for k, leg in enumerate(legs):
        if distance <= leg or k == len(legs) - 1:
            u = min(distance / max(leg, 1e-6), 1.0)
            tip = points[k] + u * (points[k + 1] - points[k])
            break
        distance -= leg
    angle = math.pi / 2 if shot.side == "dark" else -math.pi / 2
    return Hand(tip=(float(tip[0]), float(tip[1])), angle=angle, height=height, width=1.1,
                skin=skin, sleeve=sleeve)


def frames(script: GameScript, scene: Scene, seed: int = 0, noise_level: float = 2.0
           ) -> Iterator[np.ndarray]:
    """Yield the BGR frames of the script, in order; ``noise_level`` is the per-frame sensor
    noise (grey levels, standard deviation), which is also what makes a video file large."""
    renderer = Renderer(scene)
    rng = np.random.default_rng(seed)
    skin, sleeve = _colour(rng, 80, 200), _colour(rng, 20, 230)
    noise = np.empty((*renderer.background.shape[:2], 3), np.int16)
    for index, shot in enumerate(script.shots):
        if not shot.path:
            still = renderer.render(shot.board, seed=seed * 100003 + index).image.astype(np.int16)
            into = _faded_into(renderer, shot, seed * 100003 + index)
            for k in range(shot.frames):
                cv2.randn(noise, 0, noise_level)  # type: ignore[call-overload]  # scalars are fine
                shown = still if into is None else _fade(still, into, (k + 0.5) / shot.frames)
                yield np.clip(shown + noise, 0, 255).astype(np.uint8)
            continue
        height = float(rng.uniform(0.4, 1.2))
        for k in range(shot.frames):
            t = (k + 0.5) / shot.frames
            board = shot.board if t < 0.5 or shot.after is None else shot.after
            hand = _hand_at(shot, t, height, skin, sleeve)
            yield renderer.render(board, hand=hand, seed=seed * 100003 + index).image


def _faded_into(renderer: Renderer, shot: Shot, seed: int, hand: Hand | None = None,
                nudged: dict[int, tuple[float, float]] | None = None) -> np.ndarray | None:
    """The picture a cross-fade shot fades into (None: a still shot); ``hand``: an arm at
    rest in both pictures; ``nudged``: men standing off-centre in it."""
    if shot.path or shot.after is None:
        return None
    return renderer.render(shot.after, hand=hand, seed=seed, nudged=nudged).image.astype(np.int16)


def _hand_frame(renderer: Renderer, shot: Shot, t: float, hand: Callable[[float], Hand],
                seed: int, nudged: tuple[dict[int, tuple[float, float]], dict[int, tuple[float, float]]],
                smear: float) -> np.ndarray:
    """The clean picture at fraction ``t`` of a shot with a hand; ``smear``: the share of the
    hand's path swept while the shutter is open where the hand is fastest, seen as the mean of
    pictures along it (the board changes where the hand put the man down). A hand is fast
    reaching in and leaving, and still when it puts the man down (mid-shot): the sweep grows
    from nothing there to ``smear`` a quarter of the shot away."""
    sweep = smear * min(1.0, abs(t - 0.5) / 0.25)
    spread = np.linspace(t - sweep / 2, t + sweep / 2, 5) if sweep > 0 else np.array([t])
    pictures = []
    for u in np.clip(spread, 0.0, 1.0):
        late = u >= 0.5 and shot.after is not None
        board = shot.after if late and shot.after is not None else shot.board
        pictures.append(renderer.render(board, hand=hand(float(u)), seed=seed,
                                        nudged=nudged[1] if late else nudged[0]).image)
    if len(pictures) == 1:
        return pictures[0]
    return np.asarray(np.mean(pictures, axis=0).round(), np.uint8)


def _rests(nuisances: Nuisances, start: float) -> bool:
    """Whether a player's arm rests on the board's edge through the still shot from
    ``start`` (seconds): it is lifted to play, so only still shots show it."""
    at = nuisances.sleeve_at
    return at is not None and at <= start < at + nuisances.sleeve_s


def _fade(still: np.ndarray, into: np.ndarray, t: float) -> np.ndarray:
    """The cross-fade at fraction ``t`` of its shot."""
    return (still * (1.0 - t) + into * t).astype(np.int16)


def shot_starts(script: GameScript) -> np.ndarray:
    """Seconds at which each shot begins on the script's timeline, and the end."""
    return np.concatenate([[0.0], np.cumsum([s.frames for s in script.shots])]) / FPS


def camera_frames(script: GameScript, scene: Scene, nuisances: Nuisances, seed: int = 0
                  ) -> Iterator[np.ndarray]:
    """Yield the frames a camera with ``nuisances`` delivers of the script (its frame rate,
    its capture times), as BGR images of ``nuisances.size`` (the scene's camera size)."""
    renderer = Renderer(scene)
    rng = np.random.default_rng(seed)
    skin, sleeve = _colour(rng, 80, 200), _colour(rng, 20, 230)
    starts = shot_starts(script)
    camera = Camera(nuisances, float(starts[-1]))
    heights = [float(rng.uniform(0.4, 1.2)) for _ in script.shots]
    hall = np.random.default_rng([nuisances.seed, 3])
    if nuisances.scoresheet:
        lay_scoresheet(renderer, hall)
    arm = None if nuisances.sleeve_at is None else resting_arm(hall, skin, sleeve)
    table = BusyTable(renderer, script.shots, nuisances, float(starts[-1]))
    stills: dict[int, np.ndarray] = {}
    entered: set[int] = set()
    times = content_times(frame_count(script, nuisances), nuisances)
    previous = None
    for k, time in enumerate(times):
        if k and time == times[k - 1] and previous is not None:
            yield previous  # the camera delivered the same frame twice
            continue
        index = int(np.clip(np.searchsorted(starts, time, side="right") - 1, 0, len(script.shots) - 1))
        shot = script.shots[index]
        if table.update(float(time), index):
            stills.clear()
        nudged = table.nudged[index]
        if not shot.path:
            if index not in stills:
                stills.clear()
                resting = arm if _rests(nuisances, float(starts[index])) else None
                stills[index] = renderer.render(shot.board, hand=resting, seed=seed * 100003 + index,
                                                nudged=nudged[0]).image
                into = _faded_into(renderer, shot, seed * 100003 + index, resting, nudged[1])
                if into is not None:
                    stills[-1 - index] = into
            clean = stills[index]
            if -1 - index in stills:
                t = float(np.clip((time - starts[index]) / (starts[index + 1] - starts[index]), 0, 1))
                clean = np.clip(_fade(clean.astype(np.int16), stills[-1 - index], t), 0, 255).astype(np.uint8)
        else:
            if index not in entered:
                entered.add(index)
                camera.hand_enters(float(starts[index]))
            t = float(np.clip((time - starts[index]) / (starts[index + 1] - starts[index]), 0, 1))
            height = heights[index]
            clean = _hand_frame(renderer, shot, t, lambda u: _hand_at(shot, u, height, skin, sleeve),
                                seed * 100003 + index, nudged, nuisances.hand_smear)
        previous = camera.frame(clean, float(time))
        yield previous


def frame_count(script: GameScript, nuisances: Nuisances) -> int:
    return int(script.frames / FPS * nuisances.fps)


class _Writer(Protocol):
    def write(self, image: np.ndarray) -> None: ...

    def close(self) -> None: ...


class _OpenCVWriter:
    """MP4 through OpenCV's writer (``mp4v``): the calm videos, as they always were."""

    def __init__(self, path: Path, nuisances: Nuisances) -> None:
        self._video = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"mp4v"),
                                      nuisances.fps, nuisances.size)
        if not self._video.isOpened():
            raise RuntimeError(f"cannot write video {path}: no MP4 encoder in this OpenCV")

    def write(self, image: np.ndarray) -> None:
        self._video.write(image)

    def close(self) -> None:
        self._video.release()


class _PyAVWriter:
    """MPEG-4 Part 2 or H.264 through PyAV at a set bit rate and key-frame interval
    (OpenCV's bundled FFmpeg writes no H.264 and takes no bit rate)."""

    def __init__(self, path: Path, nuisances: Nuisances) -> None:
        try:
            import av
        except ImportError as error:  # the dev extra
            raise RuntimeError("hostile test videos need PyAV: pip install -e '.[dev]'") from error
        self._frame = av.VideoFrame
        self._container = av.open(str(path), "w")
        codec = {"h264": "libx264", "mpeg4": "mpeg4"}[nuisances.codec]
        rate = Fraction(nuisances.fps).limit_denominator(1001)
        options = {"preset": "veryfast"} if codec == "libx264" else {}
        stream = self._container.add_stream(codec, rate=rate, options=options)
        assert isinstance(stream, av.VideoStream)  # a video codec makes a video stream
        stream.width, stream.height = nuisances.size
        stream.pix_fmt = "yuv420p"
        stream.bit_rate = nuisances.bit_rate
        stream.gop_size = nuisances.gop
        self._stream = stream

    def write(self, image: np.ndarray) -> None:
        for packet in self._stream.encode(self._frame.from_ndarray(image, format="bgr24")):
            self._container.mux(packet)

    def close(self) -> None:
        for packet in self._stream.encode():
            self._container.mux(packet)
        self._container.close()


def video_writer(path: Path, nuisances: Nuisances) -> _Writer:
    """The writer of ``nuisances``' codec: OpenCV's for the calm ``mp4v``, PyAV otherwise."""
    return _OpenCVWriter(path, nuisances) if nuisances.codec == "mp4v" else _PyAVWriter(path, nuisances)


def write_video(script: GameScript, scene: Scene, path: Path, seed: int = 0,
                noise_level: float = 2.0, nuisances: Nuisances | None = None) -> Path:
    """Write ``path`` (MP4) and beside it the true PDN (``.pdn``) and events (``.truth.jsonl``,
    frames counted in the file's own frames). ``nuisances``: the camera, light and codec
    (default: calm, 30 fps, OpenCV's writer; written beside as ``.nuisances.json``)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    size = scene.camera.size
    nz = nuisances or Nuisances.calm(size, FPS, noise_level)
    if tuple(nz.size) != size:
        raise ValueError(f"nuisances for {nz.size}, scene camera {size}")
    writer = video_writer(path, nz)
    try:
        source = frames(script, scene, seed, noise_level) if nuisances is None else camera_frames(
            script, scene, nz, seed)
        for frame in source:
            writer.write(frame)
    finally:
        writer.close()
    assert script.game is not None  # script_game records the game it scripted
    path.with_suffix(".pdn").write_text(write_game(script.game), encoding="utf-8")
    times = content_times(frame_count(script, nz), nz)
    with path.with_suffix(".truth.jsonl").open("w", encoding="utf-8") as out:
        for event in script.events:
            record = asdict(event)
            if nuisances is not None:  # the first file frame that shows the scene at that time
                record["frame"] = int(np.searchsorted(times, event.frame / FPS))
            out.write(json.dumps(record) + "\n")
    if nuisances is not None:
        path.with_suffix(".nuisances.json").write_text(json.dumps(nz.describe()), encoding="utf-8")
    return path
