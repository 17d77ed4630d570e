"""Worker: one board's loop, from its input to the hall's log, through every fault it can meet.

- Start (or restart after SIGKILL): the board's events are read back and replayed into a
  fresh tracker (:meth:`tracker.GameTracker.restore`), so the game goes on from the log.
- The camera stops delivering (unplugged, rebooting, frozen): after ``lost_after``
  seconds without a frame a ``camera`` event says "lost" (the page shows it); the source
  is reopened with doubling waits; the first frame back says "back", and the tracker
  explains against the game whatever was played meanwhile, or raises an alert.
- A recording (a video file, a replay) plays to its end: a ``camera`` event says "ended",
  and the pages stop the clock.
- The log is away (Redis restarting): events queue in the :class:`~events.outbox.Outbox`
  and are sent in order when it returns.
"""

from __future__ import annotations

import logging
import math
import queue
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from makhos.engine import Colour, Rules
from makhos.events import EventLog, LogUnavailable
from makhos.events.decisions import SetPlayers
from makhos.events.details import CameraStatus
from makhos.events.outbox import Outbox
from makhos.session import BoardSession
from makhos.tracker import GameTracker, TrackerConfig
from makhos.tracker.tracker import TRACKER_KINDS

from .inputs import Input

logger = logging.getLogger("makhos.worker")

_END = object()


@dataclass(frozen=True)
class WorkerConfig:
    board: str
    rules: Rules = Rules()
    first_mover: Colour | None = None
    offline: bool = False  # no referee watches (a recording): the tracker decides alone
    players: tuple[str, str] | None = None  # from the hall profile; logged once per board
    lost_after: float = 3.0  # wall seconds without a frame before the camera is "lost"
    reopen_first: float = 0.5  # waits before reopening a failed source, doubling...
    reopen_longest: float = 10.0  # ...up to this
    flush_seconds: float = 10.0  # on a clean stop, how long to wait for the log to take the rest
    spool: Path | None = None  # the outbox on disk: events the log has not taken yet

    def pauses(self) -> Pauses:
        return Pauses(self.reopen_first, self.reopen_longest)


class Pauses:
    """Doubling waits between tries at something that failed (a source, the log, a board's
    worker), from ``first`` up to ``longest``: a fault that lasts is not hammered, one that
    passes is retried soon."""

    def __init__(self, first: float, longest: float) -> None:
        self.first, self.longest = first, longest
        self.next = first  # the next wait, seconds

    def wait(self, stop: threading.Event) -> bool:
        """Wait the next pause, doubling the one after; whether ``stop`` was set meanwhile."""
        stopped = stop.wait(self.next)
        self.next = min(2 * self.next, self.longest)
        return stopped

    def reset(self) -> None:
        """The thing works again: the next fault waits the shortest pause first."""
        self.next = self.first


class EventsHeld(RuntimeError):
    """The worker stopped before the log took every event: they wait in the spool file (or,
    without one, are lost), and the process must not end as if all were well."""


class Worker:
    def __init__(self, config: WorkerConfig, log_store: EventLog, source: Input,
                 observer: Callable[[BoardSession], None] | None = None, lost: bool = False) -> None:
        self.config = config
        self.log = log_store
        self.source = source
        self.observer = observer  # called after each item (a recording's progress, its diagnosis)
        # The log says the camera is lost (a worker started again after one that failed):
        # the first item says it is back.
        self.lost = lost
        self.outbox: Outbox | None = None
        self.session: BoardSession | None = None
        self._after = float("-inf")  # the input time the session goes on after

    # ------------------------------------------------------------ start

    def start_session(self, stop: threading.Event) -> float:
        """Resume the board's game from the log; returns the input time to go on after.

        Waits (with doubling pauses) while the log is unreachable: a worker may start
        before Redis does.
        """
        config = self.config
        reader = self.source.reader()
        pauses = config.pauses()
        held = Outbox.held(config.spool)  # a run before this one stopped with these unsent
        while True:
            try:
                history = self.log.read_board(config.board)
                # In order, first; those the log took before the run was killed, not again.
                resent = [self.log.append(event) for event in Outbox.unsent(held, history)]
                held = []
                if resent:
                    history = self.log.read_board(config.board)
                break
            except LogUnavailable as error:
                logger.warning("board %s: log unreachable (%s); retrying in %.1f s",
                               config.board, error, pauses.next)
                if pauses.wait(stop):
                    raise
        tracker = GameTracker(config.board, config.rules, TrackerConfig(first_mover=config.first_mover,
                                                                        offline=config.offline))
        seen = tracker.restore(history)
        self.source = self.source.taken_up(history)
        # Decisions logged after ``seen`` are the session's to apply, through the outbox's reads.
        if config.spool is not None:
            config.spool.unlink(missing_ok=True)  # delivered: the log has them all
        self.outbox = Outbox(self.log, spool=config.spool)
        self.session = BoardSession(reader, tracker, self.outbox, seen=seen)
        if config.players and not any(isinstance(e.detail, SetPlayers) for e in history):
            first, second = config.players
            game = tracker.logged_game.current.number
            self.outbox.accept(SetPlayers(first, second).to_event(config.board, game, time.time()))
        opening = self.source.opening()
        if opening is not None:  # which source this run reads: where a restart may take it up
            self.session.camera_notice(*opening)
        # The input's clock: the times of the events its tracker made.
        self._after = max((e.time for e in history if e.kind in TRACKER_KINDS), default=float("-inf"))
        return self._after

    # ------------------------------------------------------------ running

    def run(self, stop: threading.Event) -> None:
        """Watch until the input ends (a recording) or ``stop`` is set; then flush. The
        session is started here unless it was already (to say what it resumes first)."""
        after = self.start_session(stop) if self.session is None else self._after
        _, outbox = self._started()
        try:
            self._watch(after, stop)
        except Exception as error:
            # Said before it is raised, so the pages show that this board is no longer
            # watched (a hall's other boards go on: ``worker.boards``).
            if not self.lost:
                self._camera(self._after, CameraStatus.LOST, f"the worker stopped: {error}")
                self.lost = True
            raise
        finally:
            delivered = outbox.close(self.config.flush_seconds)
        if not delivered:
            where = (f"wait in {self.config.spool}; the next run of this worker sends them"
                     if self.config.spool is not None else "are lost")
            raise EventsHeld(f"board {self.config.board}: {outbox.backlog} event(s) not sent, "
                             f"the log stayed away: they {where}")

    def _started(self) -> tuple[BoardSession, Outbox]:
        if self.session is None or self.outbox is None:
            raise RuntimeError("the worker's session is not started (start_session)")
        return self.session, self.outbox

    def _watch(self, after: float, stop: threading.Event) -> None:
        config = self.config
        session, _ = self._started()
        pauses = config.pauses()
        while not stop.is_set():
            items: queue.Queue[Any] = queue.Queue(maxsize=4)
            pump = threading.Thread(target=_pump, args=(self.source.items(after), items, stop),
                                    name=f"source-{config.board}", daemon=True)
            pump.start()
            last_frame = time.monotonic()
            ended = None
            while not stop.is_set():
                try:
                    item = items.get(timeout=0.2)
                except queue.Empty:
                    if (self.source.watches_camera and not self.lost
                            and time.monotonic() - last_frame >= config.lost_after):
                        self._camera(after, CameraStatus.LOST)
                        self.lost = True
                    continue
                if item is _END or isinstance(item, Exception):
                    ended = item
                    break
                if self.lost:
                    self._camera(self.source.time_of(item), CameraStatus.BACK)
                    self.lost = False
                after, _ = self.source.feed(session, item)
                self._after = after
                if self.observer is not None:
                    self.observer(session)
                last_frame = time.monotonic()
                pauses.reset()
            if stop.is_set():
                return
            if ended is _END and not self.source.live:
                # Said, so the pages stop the clock and show that no move will come.
                self._camera(after, CameraStatus.ENDED)
                return
            if not self.source.live:
                assert isinstance(ended, Exception)
                raise ended  # a recording that cannot be read will not read better later
            logger.warning("board %s: %s stopped (%s); reopening in %.1f s", config.board,
                           self.source.describe(), ended if ended is not _END else "ended", pauses.next)
            if not self.lost:
                self._camera(after, CameraStatus.LOST)
                self.lost = True
            if pauses.wait(stop):
                return

    def _camera(self, at: float, status: CameraStatus, reason: str | None = None) -> None:
        """A camera notice, at the source's time (now, if it never gave a frame)."""
        session, _ = self._started()
        session.camera_notice(at if math.isfinite(at) else time.time(), status, reason)  # through the outbox


def _pump(items: Iterator[Any], out: queue.Queue[Any], stop: threading.Event) -> None:
    """Move the source's items to the worker; a source blocked in a read blocks only this thread."""
    try:
        for item in items:
            if not _put(out, item, stop):
                return
        last = _END
    except Exception as error:  # a source that fails is reopened by the worker
        last = error
    _put(out, last, stop)


def _put(out: queue.Queue[Any], item: Any, stop: threading.Event) -> bool:
    """Hand ``item`` on, waiting while the worker is behind; False once the worker stops."""
    while not stop.is_set():
        try:
            out.put(item, timeout=0.2)
            return True
        except queue.Full:
            continue
    return False
