"""Outbox: a worker's events, kept and sent in order by one thread, held while the log is away.

The camera must not wait on the network: a worker goes on reading frames and refereeing
while Redis restarts, and the events it makes meanwhile queue here. The sender sends the
head of the queue until the log takes it, so the log receives them in the order they were
made. An append whose reply was lost is sent again; the log stores it once
(:class:`events.redis_log.RedisLog` keys each event by its content).

An outbox is not an :class:`~events.log.EventLog`: :meth:`Outbox.accept` promises that the
event will be stored, in order, not that it is; the log numbers it when it takes it. Who
holds an outbox (the session) knows it from its type, and waits with :meth:`Outbox.flush`
where it needs the log to have everything.

With a ``spool`` file an event is on disk before :meth:`Outbox.accept` returns (JSON lines,
rewritten as each event is taken): a worker or a recording that is killed, or stops while
the log is away, loses no event it accepted, and the next run with the same spool sends
those events first (:meth:`Outbox.held`), less those the log took before the kill
(:meth:`Outbox.unsent`).
"""

from __future__ import annotations

import collections
import logging
import os
import threading
from pathlib import Path

from .event import GameEvent
from .jsonl_log import events_in
from .log import EventLog, LogUnavailable

logger = logging.getLogger("makhos.worker")  # what it says is a worker's news


class Outbox:
    """A worker's session writes here: events are accepted and queued, reads go to the log."""

    def __init__(self, log: EventLog, retry_first: float = 0.05, retry_longest: float = 1.0,
                 spool: Path | None = None) -> None:
        self._log = log
        self._retry = (retry_first, retry_longest)  # doubling waits while the log is away
        self.spool = spool
        self._pending: collections.deque[GameEvent] = collections.deque(self.held(spool))
        self._changed = threading.Condition()
        self._closing = False
        self._failure: BaseException | None = None
        self._thread = threading.Thread(target=self._send, name="outbox", daemon=True)
        self._thread.start()

    @staticmethod
    def held(spool: Path | None) -> list[GameEvent]:
        """The events a spool file still holds, oldest first (none without a file). A last
        line cut short was being written when the process was killed: that event was never
        accepted, and is left out."""
        return events_in(spool) if spool is not None and spool.exists() else []

    @staticmethod
    def unsent(held: list[GameEvent], logged: list[GameEvent]) -> list[GameEvent]:
        """Of the events a spool ``held``, those the log has not taken (``logged``: the
        board's events it holds). The sender rewrites the spool only after the log took its
        head, so a run killed between the two leaves that event in both. Redis would store
        the resent one once (it keys events by content); SQLite and a JSON-lines file store
        it again, and a move stored twice is replayed as a second, irregular ply of the side
        that just moved. Two real events never share their content (each has its frame's
        time), so the same content is the same event."""
        if not held:  # the usual start: no need to go through the log
            return []
        taken = {e.with_seq(0).to_json() for e in logged}
        return [e for e in held if e.with_seq(0).to_json() not in taken]

    def accept(self, event: GameEvent) -> None:
        """Take the event to send after those accepted before it. Once this returns it is
        kept (on the spool, if there is one); the log numbers it when it takes it."""
        with self._changed:
            if self._failure is not None:
                raise self._failure
            if self.spool is not None:
                with self.spool.open("a", encoding="utf-8") as out:
                    out.write(event.to_json() + "\n")
            self._pending.append(event)
            self._changed.notify_all()

    def _spool_rest(self) -> None:
        """Rewrite the spool with what is still queued (called with the lock held)."""
        if self.spool is None:
            return
        if not self._pending:
            self.spool.unlink(missing_ok=True)
            return
        fresh = self.spool.with_suffix(".tmp")
        fresh.write_text("".join(e.to_json() + "\n" for e in self._pending), encoding="utf-8")
        os.replace(fresh, self.spool)

    def read(self, board: str | None = None, after: int = 0, limit: int = 1000) -> list[GameEvent]:
        """The log's events; nothing new while it is away (a poller simply asks again)."""
        try:
            return self._log.read(board, after, limit)
        except LogUnavailable:
            return []

    def read_board(self, board: str) -> list[GameEvent]:
        """The board's events the log holds; like :meth:`read`, none while it is away."""
        try:
            return self._log.read_board(board)
        except LogUnavailable:
            return []

    @property
    def backlog(self) -> int:
        with self._changed:
            return len(self._pending)

    def flush(self, timeout: float) -> bool:
        """Wait until every queued event is in the log; False if that took over ``timeout``."""
        with self._changed:
            done = self._changed.wait_for(lambda: not self._pending or self._failure is not None, timeout)
            return done and self._failure is None

    def close(self, timeout: float = 5.0) -> bool:
        """Send what is queued (for up to ``timeout`` s), then stop; True if nothing is left."""
        flushed = self.flush(timeout)
        with self._changed:
            self._closing = True
            self._changed.notify_all()
        self._thread.join(timeout=2)
        return flushed

    def _send(self) -> None:
        delay = self._retry[0]
        while True:
            with self._changed:
                self._changed.wait_for(lambda: self._pending or self._closing)
                if self._closing:
                    return
                head = self._pending[0]
            try:
                self._log.append(head)
            except LogUnavailable as error:
                if delay == self._retry[0]:
                    logger.warning("log unreachable (%s): holding %d event(s)", error, self.backlog)
                with self._changed:  # new events do not hurry a retry; closing does
                    self._changed.wait_for(lambda: self._closing, delay)
                delay = min(2 * delay, self._retry[1])
                continue
            except Exception as error:  # a refused password, a bad event: the worker must stop
                with self._changed:
                    self._failure = error
                    self._changed.notify_all()
                return
            if delay != self._retry[0]:
                logger.warning("log back: sending %d held event(s) in order", self.backlog)
            delay = self._retry[0]
            with self._changed:
                self._pending.popleft()
                self._spool_rest()
                self._changed.notify_all()
