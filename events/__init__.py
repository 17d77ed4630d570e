"""The per-board event log: what happened, in order, written before it is shown."""

from .event import EventKind, GameEvent
from .log import EventLog, LogUnavailable, SQLiteLog
from .store import open_log

__all__ = ["EventKind", "EventLog", "GameEvent", "LogUnavailable", "SQLiteLog", "open_log"]
