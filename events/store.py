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
from urllib.parse import urlsplit

from .jsonl_log import JSONLinesLog
from .log import EventLog, SQLiteLog

REDIS_SCHEMES = ("redis://", "rediss://", "unix://")


def is_redis_url(target: str | Path) -> bool:
    return str(target).lower().startswith(REDIS_SCHEMES)


def check_redis_url(url: str) -> str:
    """``url`` if it names a Redis server as redis-py reads it; else a ValueError that says
    how to write it (a bare ``host:port`` would otherwise open a SQLite file of that name,
    and an empty one the default ``events.db``).

    >>> check_redis_url("127.0.0.1:6379")
    Traceback (most recent call last):
    ...
    ValueError: '127.0.0.1:6379' is not a Redis URL: write redis://127.0.0.1:6379/0
    >>> check_redis_url("127.0.0.1:6379/2")
    Traceback (most recent call last):
    ...
    ValueError: '127.0.0.1:6379/2' is not a Redis URL: write redis://127.0.0.1:6379/2
    >>> check_redis_url("redis://127.0.0.1:99999/0")
    Traceback (most recent call last):
    ...
    ValueError: 'redis://127.0.0.1:99999/0': the port is a number from 1 to 65535
    """
    if not url.strip():
        raise ValueError("the Redis URL is empty: give the hall's (redis://host:port/0), or "
                         "none at all for the SQLite file")
    scheme, found, rest = url.partition("://")
    if not found:
        raise ValueError(f"{url!r} is not a Redis URL: write redis://{url}{'' if '/' in url else '/0'}")
    if not is_redis_url(url):
        raise ValueError(f"{url!r} is not a Redis URL: it starts with redis://, rediss:// or "
                         f"unix://, not {scheme}://")
    if scheme.lower() != "unix":
        parts = urlsplit(url)
        try:
            port = parts.port  # urllib's own check, in its own words otherwise
        except ValueError:
            port = 0
        if port == 0:
            raise ValueError(f"{url!r}: the port is a number from 1 to 65535")
        database = parts.path.strip("/")
        if database and not (database.isdigit() and len(database) <= 4):
            raise ValueError(f"{url!r}: the database after the last / is a number (redis://host:port/0)")
    return url


def open_log(target: str | Path, password: str | None = None, fresh: bool = False) -> EventLog:
    """The log at ``target``; ``password`` (a hall token) is used when the URL has none,
    so it need not appear on a command line that ``ps`` shows. ``fresh``: a log file starts
    empty (a new recording over an old one's file); a hall's log is never emptied."""
    if "://" in str(target):
        if fresh:
            raise ValueError(f"{target}: a hall's log is only added to, never started afresh")
        from .redis_log import RedisLog  # redis-py is only imported by those who use it

        return RedisLog(check_redis_url(str(target)), password=password)
    if Path(target).suffix == ".jsonl":
        return JSONLinesLog(target, fresh=fresh)
    if fresh and str(target) != ":memory:":
        for leftover in ("", "-wal", "-shm"):  # an old write-ahead file would replay into the new
            Path(f"{target}{leftover}").unlink(missing_ok=True)
    return SQLiteLog(target)
