"""The per-board event log: what happened, in order, written before it is shown."""

from .event import EventKind, GameEvent
from .log import EventLog, SQLiteLog

__all__ = ["EventKind", "EventLog", "GameEvent", "SQLiteLog"]
