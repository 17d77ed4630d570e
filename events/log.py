"""Append-only event logs. SQLite is the embedded default; one table holds every board.

Readers resume with :meth:`EventLog.read` ``after`` the last sequence number they saw,
which is what makes SSE ``Last-Event-ID`` resume lossless; whoever replays a whole board
(a restored tracker, a check, a bench) asks :meth:`EventLog.read_board` once instead of
paging.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path
from typing import Protocol

from .event import GameEvent


class LogUnavailable(RuntimeError):
    """The store cannot be reached now (Redis restarting, network down); try again later.

    Nothing was lost: an append that raised it may or may not have been stored, and
    sending it again is safe (appends of the same event are idempotent where the store
    is remote).
    """


class EventLog(Protocol):
    """What every event store offers (SQLite here; Redis Streams for a hall).

    Any method may raise :class:`LogUnavailable` when the store is remote and unreachable.
    """

    def append(self, event: GameEvent) -> GameEvent:
        """Store the event durably and return it with its sequence number."""

    def read(self, board: str | None = None, after: int = 0, limit: int = 1000) -> list[GameEvent]:
        """Events with ``seq > after`` (of one board, or all), oldest first."""

    def read_board(self, board: str) -> list[GameEvent]:
        """Every event of one board, oldest first: what a replay of its games starts from."""

    def boards(self) -> list[str]:
        """Every board that has events."""

    def wait_for_append(self, timeout: float) -> None:
        """Return when another process may have appended, or after ``timeout`` seconds.

        A reader that polls (the server's feed) calls it between reads. It is only a hint:
        a store that cannot tell simply waits, and the reader reads either way.
        """


class SQLiteLog:
    """An EventLog in one SQLite file (``:memory:`` for tests).

    Appends are committed before they return, so an event is on disk before anyone can
    be shown it, and a restarted process reads everything back.
    """

    def __init__(self, path: str | Path = ":memory:") -> None:
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS events ("
            " seq INTEGER PRIMARY KEY AUTOINCREMENT, board TEXT NOT NULL, body TEXT NOT NULL)"
        )
        self._db.execute("CREATE INDEX IF NOT EXISTS events_board ON events (board, seq)")

    def append(self, event: GameEvent) -> GameEvent:
        with self._lock:
            cursor = self._db.execute(
                "INSERT INTO events (board, body) VALUES (?, ?)", (event.board, event.to_json())
            )
            assert cursor.lastrowid is not None  # an INSERT always gives one
            return event.with_seq(cursor.lastrowid)

    def read(self, board: str | None = None, after: int = 0, limit: int = 1000) -> list[GameEvent]:
        with self._lock:
            if board is None:
                rows = self._db.execute(
                    "SELECT seq, body FROM events WHERE seq > ? ORDER BY seq LIMIT ?", (after, limit)
                ).fetchall()
            else:
                rows = self._db.execute(
                    "SELECT seq, body FROM events WHERE board = ? AND seq > ? ORDER BY seq LIMIT ?",
                    (board, after, limit),
                ).fetchall()
        return [GameEvent.from_json(body).with_seq(seq) for seq, body in rows]

    def read_board(self, board: str) -> list[GameEvent]:
        with self._lock:
            rows = self._db.execute("SELECT seq, body FROM events WHERE board = ? ORDER BY seq",
                                    (board,)).fetchall()
        return [GameEvent.from_json(body).with_seq(seq) for seq, body in rows]

    def boards(self) -> list[str]:
        with self._lock:
            rows = self._db.execute("SELECT DISTINCT board FROM events ORDER BY board").fetchall()
        return [board for (board,) in rows]

    def wait_for_append(self, timeout: float) -> None:
        time.sleep(timeout)  # SQLite tells no other process of a commit

    def close(self) -> None:
        self._db.close()
