"""The per-board event log: what happened, in order, written before it is shown; and the
one replay that turns it back into the game (:mod:`events.game`)."""

from . import decisions  # registers the referee's detail type  # noqa: F401
from .details import EventKind
from .event import GameEvent
from .jsonl_log import JSONLinesLog
from .log import EventLog, LogUnavailable, SQLiteLog
from .store import open_log

__all__ = ["EventKind", "EventLog", "GameEvent", "JSONLinesLog", "LogUnavailable", "SQLiteLog", "decisions", "open_log"]
