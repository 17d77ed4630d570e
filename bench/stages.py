"""Where `makhos record`'s time goes: each stage's CPU per frame and its share (#44).

    python -m bench.stages                                   # renders bench.speed's 720p30 video once
    python -m bench.stages --video /work/cache/speed/speed-60000-16-30fps.mp4

The product's camera loop (:func:`bench.record.record`) runs one video with a CPU clock of
the main thread around each stage; decoding runs in its own thread beside it, so it is the
process's CPU less the main thread's. A stage's figure includes the stages indented under
it; "the rest" of a stage is what none of its listed parts took. Printed: the calls, the
milliseconds of CPU per call and per frame of the video, and the share of the whole
recording's CPU (decoding included), per frame of the video (the source hands on only the
frames the vision may look at, see ``vision.sources.VideoFile``'s ``pace``). Timing wrappers
cost a few microseconds a call.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.record import compare, record
from bench.speed import videos
from makhos.session import BoardSession
from makhos.tracker.tracker import GameTracker
from makhos.vision.classifier import SquareClassifier
from makhos.vision.follower import BoardFollower
from makhos.vision.glance import Glance
from makhos.vision.grid_probe import GridProbe
from makhos.vision.occlusion import OcclusionGate
from makhos.vision.pipeline import BoardReader
from makhos.vision.reader import PieceReader
from makhos.vision.registration import BoardRegistrar


@dataclass
class Stage:
    """One timed method and the stages it calls."""

    name: str
    owner: type
    method: str
    parts: list["Stage"] = field(default_factory=list)
    calls: int = 0
    seconds: float = 0.0

    def walk(self) -> Iterator["Stage"]:
        yield self
        for part in self.parts:
            yield from part.walk()

    def rows(self, depth: int = 0) -> Iterator[tuple[str, int, int, float]]:
        """(name, depth, calls, seconds) of this stage, its parts, and what none of them took."""
        if not self.calls:
            return
        yield self.name, depth, self.calls, self.seconds
        parts = [part for part in self.parts if part.calls]
        for part in parts:
            yield from part.rows(depth + 1)
        if parts:
            yield "the rest", depth + 1, 0, self.seconds - sum(part.seconds for part in parts)


def stages() -> Stage:
    """The stages in the order a frame meets them; the reads are the network, whichever
    reader (the piece reader, or the square classifier of older models) a session has."""
    return Stage("the session (all of a frame's work)", BoardSession, "feed", [
        Stage("vision (BoardReader.process)", BoardReader, "process", [
            Stage("the glance", Glance, "wants"),
            Stage("following the board", BoardFollower, "update", [
                Stage("registration", BoardRegistrar, "register"),
                Stage("the grid probe", GridProbe, "check"),
                Stage("local refits", BoardFollower, "_refine"),
                Stage("full searches", BoardFollower, "_search")]),
            Stage("the gate (occlusion)", OcclusionGate, "update", [
                Stage("cutting the cells", OcclusionGate, "_cells"),
                Stage("motion", OcclusionGate, "_motion"),
                Stage("covered", OcclusionGate, "_covered", [
                    Stage("the ring against the still view", OcclusionGate, "_ring_change")])]),
            Stage("the reads (piece reader)", PieceReader, "embed"),
            Stage("the reads (square classifier)", SquareClassifier, "classify")]),
        Stage("the tracker (explaining a change)", GameTracker, "observe")])


def _timed(stage: Stage, method: Callable[..., Any]) -> Callable[..., Any]:
    def timed(*args: Any, **kwargs: Any) -> Any:
        began = time.thread_time()
        try:
            return method(*args, **kwargs)
        finally:
            stage.seconds += time.thread_time() - began
            stage.calls += 1
    return timed


@contextmanager
def timing(root: Stage) -> Iterator[None]:
    """Each stage's method wrapped with its clock while the block runs."""
    timed = list(root.walk())
    originals = [(s.owner, s.method, s.owner.__dict__[s.method]) for s in timed]
    for stage, (_, _, method) in zip(timed, originals):
        setattr(stage.owner, stage.method, _timed(stage, method))
    try:
        yield
    finally:
        for owner, name, method in originals:
            setattr(owner, name, method)


def measure(path: Path) -> None:
    root = stages()
    analysed = handed = 0

    def count(session: BoardSession) -> None:
        nonlocal analysed, handed
        handed += 1
        analysed += session.last is not None and session.last.analysed

    main = time.thread_time()
    with timing(root):
        session, events, cpu, frames = record(path, None, count)
    main = time.thread_time() - main
    result = compare(path, session, events)
    print(f"{path.name}: {frames} frames, {handed} handed on by the source, {analysed} analysed; {cpu:.2f} s"
          f" CPU in all, {main:.2f} s in the main thread; move-perfect: {result['perfect']}"
          f" (load {os.getloadavg()[0]:.1f})")
    rows = [("decoding (its own thread)", 0, 0, cpu - main), *root.rows(),
            ("the loop beside the session (source, log, events)", 0, 0, main - root.seconds)]
    print(f"  {'stage':<52} {'calls':>6} {'ms/call':>8} {'ms/frame':>9} {'share':>6}")
    for name, depth, calls, seconds in rows:
        per_call = f"{1000 * seconds / calls:8.2f}" if calls else " " * 8
        print(f"  {'  ' * depth + name:<52} {calls or '':>6} {per_call} {1000 * seconds / frames:9.2f}"
              f" {100 * seconds / cpu:5.1f}%", flush=True)


def main() -> int:
    for path in videos(__doc__ or "", (30.0,)):
        measure(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
