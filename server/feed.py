"""The server's window on the event log: what has been seen, when, and who to wake.

The log is the truth and may be written by another process (the recorder), so one
poller thread reads it every ``poll_seconds``, or at once when the log says another process
appended (Redis does); appends made through this feed (referee
decisions) are read back at once. Each event gets the wall time the server first saw it:
the broadcast delay counts from then, because the log itself stores no append time and a
source's frame time need not be wall time. Waiting readers (SSE streams) sleep on their
board's :class:`threading.Condition` (the hall's streams on their own) and are woken by new
events of that board or when a delayed event falls due: in a hall of a hundred boards an
event wakes its board's viewers, not every viewer of the hall.
"""

from __future__ import annotations

import bisect
import threading
import time
from dataclasses import dataclass, field
from typing import Callable

from makhos.events import EventLog, GameEvent, LogUnavailable
from makhos.events.details import WORKER_ONLY

EPOCH_2001 = 1e9  # a ``time`` above this is wall-clock time, not a video's frame time


@dataclass(frozen=True, slots=True)
class Seen:
    """An event and the wall time at which this server first saw it."""

    event: GameEvent
    at: float


@dataclass(slots=True)
class _Board:
    seqs: list[int] = field(default_factory=list)
    seen: list[Seen] = field(default_factory=list)


class EventFeed:
    """Events of every board held in order, with waits for new or newly visible ones."""

    def __init__(self, log: EventLog, poll_seconds: float = 0.2,
                 clock: Callable[[], float] = time.time) -> None:
        self._log = log
        self._poll = poll_seconds
        self._clock = clock
        self._lock = threading.Lock()  # guards everything below; the conditions share it
        self._changed = threading.Condition(self._lock)  # any board (the hall's streams)
        self._board_changed: dict[str, threading.Condition] = {}
        self._pokes: dict[str, int] = {}  # per board, how often it was poked
        # Told (from whichever thread changed the feed) which board changed, None: all of
        # them (closing); how streams waiting on an event loop, not a thread, are woken.
        self._listeners: list[Callable[[str | None], None]] = []
        self._reading = threading.Lock()
        self._boards: dict[str, _Board] = {}
        self._last = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.refresh(startup=True)

    # ------------------------------------------------------------ reading the log

    def refresh(self, startup: bool = False) -> None:
        """Take in what the log holds beyond the last event seen."""
        with self._reading:
            while True:
                batch = self._log.read(after=self._last, limit=5000)
                if not batch:
                    return
                now = self._clock()
                with self._changed:
                    changed = set()
                    for event in batch:
                        # On start-up an event already in the log is as old as its wall
                        # time says, never younger than now: a restart leaks nothing early.
                        at = min(now, event.time) if startup and event.time > EPOCH_2001 else now
                        board = self._boards.setdefault(event.board, _Board())
                        self._last = event.seq
                        if event.kind in WORKER_ONLY:
                            continue  # a reader's lessons: tens of kB a ply no page shows
                        board.seqs.append(event.seq)
                        board.seen.append(Seen(event, at))
                        changed.add(event.board)
                    self._changed.notify_all()
                    for name in changed:
                        self._condition(name).notify_all()
                self._tell(*changed)

    def start(self) -> None:
        """Start polling the log for events appended by other processes."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="event-feed", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._log.wait_for_append(self._poll)  # Redis wakes us at once; SQLite polls
                self.refresh()
            except LogUnavailable:
                # Redis restarting: what is held stays served; the next poll catches up.
                self._stop.wait(self._poll)

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        with self._changed:
            self._changed.notify_all()
            for condition in self._board_changed.values():
                condition.notify_all()
        self._tell(None)

    def listen(self, listener: Callable[[str | None], None]) -> None:
        """Call ``listener(board)`` whenever a board's events or pokes change (None: the feed
        closed), from the thread that changed it: it must only hand the news on, quickly."""
        self._listeners.append(listener)

    def _tell(self, *boards: str | None) -> None:
        for listener in self._listeners:
            for board in boards:
                listener(board)

    @property
    def closed(self) -> bool:
        return self._stop.is_set()

    def append(self, event: GameEvent) -> GameEvent:
        """Write to the log (durably, first), then show: the order the project promises."""
        stored = self._log.append(event)
        self.refresh()
        return stored

    # ------------------------------------------------------------ queries

    def now(self) -> float:
        return self._clock()

    @property
    def last_seq(self) -> int:
        """The seq of the last event the log holds, as of the last look (0: an empty log)."""
        with self._changed:
            return self._last

    def boards(self) -> list[str]:
        with self._changed:
            return sorted(self._boards)

    def has_board(self, board: str) -> bool:
        with self._changed:
            return board in self._boards

    def events(self, board: str | None, after: int, until: float) -> list[GameEvent]:
        """Events (of a board, or all) with ``seq > after`` seen no later than ``until``."""
        with self._changed:
            return [s.event for s in self._after(board, after) if s.at <= until]

    def _after(self, board: str | None, after: int) -> list[Seen]:
        if board is not None:
            entry = self._boards.get(board)
            if entry is None:
                return []
            return entry.seen[bisect.bisect_right(entry.seqs, after):]
        merged = [s for entry in self._boards.values()
                  for s in entry.seen[bisect.bisect_right(entry.seqs, after):]]
        merged.sort(key=lambda s: s.event.seq)
        return merged

    def wait(self, board: str | None, after: int, delay: float, timeout: float) -> bool:
        """Block until an event after ``after`` is visible with this delay, or the board is
        poked (:meth:`poke`); False on timeout."""
        deadline = self._clock() + timeout
        with self._changed:
            condition = self._changed if board is None else self._condition(board)
            poked = self._pokes.get(board, 0) if board is not None else 0
            while not self._stop.is_set():
                ready, due = self._ready(board, after, delay, poked, deadline)
                if ready is not None:
                    return ready
                condition.wait(max(due - self._clock(), 0.001))
        return False

    def pokes(self, board: str | None) -> int:
        """How often ``board`` was poked so far (for :meth:`ready`)."""
        with self._changed:
            return self._pokes.get(board, 0) if board is not None else 0

    def ready(self, board: str | None, after: int, delay: float, poked: int,
              deadline: float) -> tuple[bool | None, float]:
        """One look of :meth:`wait` for a waiter that sleeps elsewhere (an event loop):
        (True, _) an event is visible or the board was poked since ``poked`` (:meth:`pokes`);
        (False, _) the deadline passed or the feed closed; (None, due) look again at ``due``
        or when told (:meth:`listen`)."""
        with self._changed:
            if self._stop.is_set():
                return False, deadline
            return self._ready(board, after, delay, poked, deadline)

    def _ready(self, board: str | None, after: int, delay: float, poked: int,
               deadline: float) -> tuple[bool | None, float]:
        pending = self._after(board, after)
        now = self._clock()
        if pending and pending[0].at + delay <= now:
            return True, now
        if board is not None and self._pokes.get(board, 0) != poked:
            return True, now
        if now >= deadline:
            return False, now
        return None, deadline if not pending else min(deadline, pending[0].at + delay)

    def poke(self, board: str) -> None:
        """Wake the board's waiting streams without an event: something they show beside
        the log has changed (an analysis finished)."""
        with self._changed:
            self._pokes[board] = self._pokes.get(board, 0) + 1
            self._condition(board).notify_all()
        self._tell(board)

    def _condition(self, board: str) -> threading.Condition:
        """The board's condition, sharing the feed's lock; call with the lock held."""
        condition = self._board_changed.get(board)
        if condition is None:
            condition = self._board_changed[board] = threading.Condition(self._lock)
        return condition
