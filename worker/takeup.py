"""Where a worker takes its camera source up: from where the log ends, or from the start.

A recording's frames enter the log at ``origin`` plus their own seconds, played as if live
or not, and a board's log keeps, each time a worker takes a source up, which source it was
(a camera notice ``opened``): a recording by its identity (:func:`vision.sources.identity`)
and its origin; a live camera by nothing, since its frames carry the wall clock. On a
restart:

- the very recording the log's last plies were read from is taken up where the log ends
  (:data:`WARM_UP` seconds before, to warm the vision), in the log's clock as before: a
  recording played from its first frame again would read as plies taken back;
- any other recording (the camera's next file, a copy re-encoded) is taken up from its
  start (``--start``), its seconds moved to begin after the log's end, :data:`UNSEEN`
  seconds at least: a log's time is no place in another file (a wall-clock time none in
  any file), and the players went on meanwhile, for a time only the tracker's gap search
  can tell (``tracker.gaps``);
- a camera goes on in the wall clock, which is after the log's end by itself.

A log from before sources were named, in a recording's seconds, is taken to be from the
recording it is restarted on, as it was then.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Callable

from makhos.events import GameEvent
from makhos.events.details import CameraNotice, CameraStatus
from makhos.events.game import WALL_CLOCK
from makhos.tracker.tracker import TRACKER_KINDS

#: Seconds of a recording played to the vision before the point where its log ends.
WARM_UP = 5.0
#: The least seconds taken to pass between a log's end and another recording's first frame,
#: which no clock tells (a wall clock only says when the worker restarted, not what the new
#: file shows): enough for the gap search to look as far as it does
#: (``TrackerConfig.gap_plies`` plies of at least ``shortest_ply`` s), short of a move's
#: clock warning.
UNSEEN = 10.0


@dataclass(frozen=True)
class TakeUp:
    """How a source's frames enter the log: read from ``begin`` (its own seconds), each
    at ``origin`` plus its own time, and said at ``at`` (the log's time)."""

    recording: str | None  # the identity of a recording (None: a camera, in the wall clock)
    origin: float = 0.0  # the log's time of the recording's second 0
    begin: float = 0.0  # the recording's second to read from
    at: float = 0.0  # the log's time of the take-up: never before the log's end

    def notice(self) -> CameraNotice:
        return CameraNotice(CameraStatus.OPENED, self.recording, self.origin)


def log_end(history: list[GameEvent]) -> tuple[float, CameraNotice | None]:
    """The time of the log's last tracker event (-inf: none), and the notice of the source
    that event was read from (None: a log from before sources were said)."""
    end, opened = -math.inf, None
    source: CameraNotice | None = None
    for event in history:
        if isinstance(event.detail, CameraNotice) and event.detail.status is CameraStatus.OPENED:
            source = event.detail
        elif event.kind in TRACKER_KINDS:
            end, opened = max(end, event.time), source
    return end, opened


def take_up(history: list[GameEvent], recording: str | None, start: float, paced: bool = False,
            clock: Callable[[], float] = time.time) -> TakeUp:
    """Where a source read from ``start`` seconds is taken up on a board whose log holds
    ``history``: ``recording`` is its identity (None: a camera), ``paced`` whether it is
    played as if live (its seconds then begin at the wall clock on a log with no game)."""
    end, opened = log_end(history)
    now = clock()
    if recording is None:
        return TakeUp(None, 0.0, start, now)
    if not math.isfinite(end):  # a log with no game in it
        origin = now - start if paced else 0.0
        return TakeUp(recording, origin, start, origin + start)
    same = opened.recording == recording if opened is not None else end < WALL_CLOCK
    if same:
        origin = opened.origin if opened is not None else 0.0
        begin = max(start, end - origin - WARM_UP)
        return TakeUp(recording, origin, begin, max(end, origin + begin))
    first = max(now, end + UNSEEN) if end > WALL_CLOCK else end + UNSEEN
    return TakeUp(recording, first - start, start, first)
