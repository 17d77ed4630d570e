"""An EventLog in a JSON-lines file: one event a line, written as it happens.

``makhos record --events game.jsonl`` keeps its log here, so a record that is killed
leaves every event it made on disk, and ``--resume`` reads the same file back. Each line
is flushed to the operating system before :meth:`JSONLinesLog.append` returns (a killed
process loses nothing); it is not synced to the disk on every event, which a power cut
may still cost, as for any file a program writes.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

from .event import GameEvent


def events_in(path: Path) -> list[GameEvent]:
    """The events of a JSON-lines file, in order. A last line cut short is left out: a
    writer killed in the middle of it had not finished storing that event."""
    lines = path.read_text(encoding="utf-8").splitlines()
    events: list[GameEvent] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            events.append(GameEvent.from_json(line))
        except (ValueError, KeyError, TypeError) as error:
            if number == len(lines):
                break
            raise ValueError(f"{path}:{number}: not an event ({error})") from None
    return events


class JSONLinesLog:
    """Opens ``path`` and reads back what it holds (``fresh`` empties it first)."""

    def __init__(self, path: str | Path, fresh: bool = False) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._events: list[GameEvent] = []
        if fresh or not self.path.exists():
            self.path.write_text("", encoding="utf-8")
        else:
            self._events = self._read_back()
        self._file = self.path.open("a", encoding="utf-8")

    def _read_back(self) -> list[GameEvent]:
        return [event.with_seq(seq) for seq, event in enumerate(events_in(self.path), start=1)]

    def append(self, event: GameEvent) -> GameEvent:
        with self._lock:
            stored = event.with_seq(len(self._events) + 1)
            self._file.write(stored.to_json() + "\n")
            self._file.flush()
            self._events.append(stored)
            return stored

    def read(self, board: str | None = None, after: int = 0, limit: int = 1000) -> list[GameEvent]:
        with self._lock:
            chosen = [e for e in self._events[after:] if board is None or e.board == board]
        return chosen[:limit]

    def read_board(self, board: str) -> list[GameEvent]:
        with self._lock:
            return [e for e in self._events if e.board == board]

    def boards(self) -> list[str]:
        with self._lock:
            return sorted({e.board for e in self._events})

    def wait_for_append(self, timeout: float) -> None:
        time.sleep(timeout)  # another process's lines are not watched for

    def close(self) -> None:
        self._file.close()
