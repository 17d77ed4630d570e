"""open_log: the one place that turns a user's ``--events``/``--redis`` into an EventLog.

Callers (the server, workers, benches) never branch on the store: a ``redis://``,
``rediss://`` (TLS) or ``unix://`` URL opens a :class:`~events.redis_log.RedisLog`,
a ``.jsonl`` path a :class:`~events.jsonl_log.JSONLinesLog` (a recording's log), anything
else a SQLite file path (the embedded default).

>>> open_log(":memory:").boards()
[]
"""

from __future__ import annotations

from pathlib import Path

from .jsonl_log import JSONLinesLog
from .log import EventLog, SQLiteLog

REDIS_SCHEMES = ("redis://", "rediss://", "unix://")


def is_redis_url(target: str | Path) -> bool:
    return str(target).lower().startswith(REDIS_SCHEMES)


def open_log(target: str | Path, password: str | None = None) -> EventLog:
    """The log at ``target``; ``password`` (a hall token) is used when the URL has none,
    so it need not appear on a command line that ``ps`` shows."""
    if is_redis_url(target):
        from .redis_log import RedisLog  # redis-py is only imported by those who use it

        return RedisLog(str(target), password=password)
    if Path(target).suffix == ".jsonl":
        return JSONLinesLog(target)
    return SQLiteLog(target)
