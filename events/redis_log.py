"""RedisLog: the EventLog on Redis Streams, for a hall whose boards span several machines.

Workers on any machine append; any number of server processes read. Layout, under a
prefix (``makhos`` by default):

- ``makhos:seq`` — a counter (INCR): the hall-wide sequence number of the next event;
- ``makhos:board:<id>`` — one stream per board; entry id ``<seq>-0``, field ``e`` = the
  event's JSON, field ``t`` = Redis's clock when it was appended (for audits and
  ``bench/hall.py``'s delays);
- ``makhos:keys:<id>`` — a hash from an event's key to its seq, so a resent append is
  answered with the seq it already has instead of being stored twice;
- ``makhos:boards`` — the set of boards that have events;
- ``makhos:appended`` — a pub/sub channel told each new seq, so servers read at once
  instead of at their next poll (a hint only: a lost message just waits for the poll).

Why one hall-wide sequence rather than one per board: the server reads "everything after
n" (SQLite's AUTOINCREMENT gives exactly that) and the hall's SSE stream resumes every
board with one ``Last-Event-ID``. The stream entry id *is* the seq, so resuming a board is
``XREAD`` from ``<n>-0``, on any server process.

Why a Lua script: the key check, the INCR and the XADD happen as one step inside Redis.
No reader can see seq n+1 before seq n exists, and a worker that lost the reply to an
append (Redis restarted under it) can send it again: the second send finds the key.

An event's key is a hash of its own JSON (without seq): board, kind, game, ply, the frame
time and every detail. Two real events never share all of these, because each observation
has its own frame time; the same event sent twice always does. (The keys stay as long as
the log: about 100 bytes an event.)

Durability: Redis must run with ``appendonly yes`` (``appendfsync always`` keeps the
promise that an event is on disk before anyone is shown it, as SQLite does).
"""

from __future__ import annotations

import hashlib
import socket
from typing import Any, Callable, TypeVar

import redis

from .event import GameEvent
from .log import LogUnavailable

T = TypeVar("T")

APPEND = """
local seen = redis.call('HGET', KEYS[2], ARGV[1])
if seen then return tonumber(seen) end
local seq = redis.call('INCR', KEYS[3])
local now = redis.call('TIME')
redis.call('XADD', KEYS[1], seq .. '-0', 'e', ARGV[2], 't', now[1] .. '.' .. string.format('%06d', now[2]))
redis.call('HSET', KEYS[2], ARGV[1], seq)
redis.call('SADD', KEYS[4], ARGV[3])
redis.call('PUBLISH', ARGV[4], seq)
return seq
"""


class RedisLog:
    """An EventLog in Redis Streams; thread-safe (redis-py pools its connections).

    Unreachable Redis raises :class:`LogUnavailable` from every method, so callers can
    wait and retry (workers buffer, the server's poller keeps polling) without knowing
    which store they have.
    """

    def __init__(self, url: str, password: str | None = None, prefix: str = "makhos") -> None:
        options = {"password": password} if password else {}
        self._redis = redis.Redis.from_url(url, decode_responses=True, socket_connect_timeout=2,
                                           socket_timeout=5, **options)
        kwargs = self._redis.connection_pool.connection_kwargs
        self._password = kwargs.get("password")
        self._database = kwargs.get("db", 0)
        self._where = (f"{kwargs['host']}:{kwargs.get('port', 6379)}" if "host" in kwargs
                       else str(kwargs.get("path")))
        self._prefix = prefix
        self._append = self._redis.register_script(APPEND)
        self._subscription: redis.client.PubSub | None = None  # the polling reader's only
        self._password_checked = not self._password

    def _stream(self, board: str) -> str:
        return f"{self._prefix}:board:{board}"

    def append(self, event: GameEvent) -> GameEvent:
        body = event.with_seq(0).to_json()
        key = hashlib.blake2b(body.encode(), digest_size=16).hexdigest()
        keys = [self._stream(event.board), f"{self._prefix}:keys:{event.board}",
                f"{self._prefix}:seq", f"{self._prefix}:boards"]
        args = [key, body, event.board, f"{self._prefix}:appended"]
        seq = self._call(lambda: self._append(keys=keys, args=args))
        return event.with_seq(int(seq))

    def read(self, board: str | None = None, after: int = 0, limit: int = 1000) -> list[GameEvent]:
        if board is not None:
            return self._xread([board], after, limit)
        # Every event up to ``top`` is wholly stored, board set included (the append is
        # atomic), so reading the boards after ``top`` and dropping what lies beyond it
        # never skips an event of a board that appeared meanwhile.
        def snapshot() -> list[Any]:
            with self._redis.pipeline(transaction=True) as pipe:
                pipe.get(f"{self._prefix}:seq")
                pipe.smembers(f"{self._prefix}:boards")
                return pipe.execute()

        top, boards = self._call(snapshot)
        if not top or not boards:
            return []
        return [e for e in self._xread(sorted(boards), after, limit) if e.seq <= int(top)]

    def _xread(self, boards: list[str], after: int, limit: int) -> list[GameEvent]:
        streams: dict[Any, Any] = {self._stream(b): f"{after}-0" for b in boards}
        reply: list[Any] = self._call(lambda: self._redis.xread(streams, count=limit))  # type: ignore[arg-type, return-value]
        events = [_event(entry_id, fields) for _, entries in reply for entry_id, fields in entries]
        events.sort(key=lambda e: e.seq)
        # Each stream gave at most ``limit`` entries after ``after``, so the hall-wide
        # first ``limit`` are all among them.
        return events[:limit]

    def read_board(self, board: str) -> list[GameEvent]:
        # One XRANGE: the stream's entry ids are the seqs, so it comes in order.
        entries: list[Any] = self._call(lambda: self._redis.xrange(self._stream(board)))  # type: ignore[arg-type, return-value]
        return [_event(entry_id, fields) for entry_id, fields in entries]

    def boards(self) -> list[str]:
        boards: set[str] = self._call(lambda: self._redis.smembers(f"{self._prefix}:boards"))  # type: ignore[arg-type, return-value]
        return sorted(boards)

    def wait_for_append(self, timeout: float) -> None:
        """Return at the first append announced on the channel, or after ``timeout``."""
        def listen() -> None:
            if self._subscription is None:
                self._subscription = self._redis.pubsub(ignore_subscribe_messages=True)
                self._subscription.subscribe(f"{self._prefix}:appended")
            if self._subscription.get_message(timeout=timeout) is not None:
                while self._subscription.get_message(timeout=0) is not None:
                    pass  # one read takes in the whole burst

        try:
            self._call(listen)
        except LogUnavailable:
            self._subscription = None  # subscribe afresh once Redis is back
            raise

    def close(self) -> None:
        if self._subscription is not None:
            self._subscription.close()
        self._redis.close()

    def _call(self, operation: Callable[[], T]) -> T:
        """Run ``operation``; an outage becomes :class:`LogUnavailable` (wait and retry), a
        fault that waiting cannot mend a ValueError that says what to change."""
        try:
            result = operation()
            if not self._password_checked:
                self._check_password_is_asked()
            return result
        except (redis.AuthenticationError, redis.exceptions.AuthorizationError) as error:
            if not self._password:
                raise ValueError("redis asks for a password and none was given: pass the hall "
                                 "token with --hall-token or $MAKHOS_HALL_TOKEN") from error
            raise ValueError(f"redis refused the password (the hall token): {error}") from error
        except redis.ResponseError as error:
            if "DB index" in str(error):
                raise ValueError(f"redis has no database {self._database} ({error})") from error
            raise
        except redis.exceptions.InvalidResponse as error:  # a banner of SSH, a reply of HTTP...
            raise ValueError(f"{self._where} answers, but not as Redis: is it the right port?") from error
        except (redis.ConnectionError, redis.TimeoutError) as error:
            if "closed by server" in str(error) and not self._speaks_redis():
                raise ValueError(f"{self._where} answers, but not as Redis: is it the right port?") from error
            raise LogUnavailable(f"redis at {self._where}: {error}") from error

    def _check_password_is_asked(self) -> None:
        """A hall token given to a Redis that asks for no password protects nothing (Redis
        takes any AUTH then): say so rather than let a hall believe it is closed."""
        pool = self._redis.connection_pool
        options = {k: v for k, v in pool.connection_kwargs.items() if k not in ("password", "username")}
        anonymous = redis.Redis(connection_pool=redis.ConnectionPool(
            connection_class=pool.connection_class, **options))
        try:
            anonymous.ping()
        except (redis.AuthenticationError, redis.exceptions.AuthorizationError):
            self._password_checked = True  # it asks: the token is the hall's lock
            return
        finally:
            anonymous.close()
        raise ValueError(f"a hall token (the Redis password) was given, but redis at {self._where} asks for no "
                         "password, so anyone who reaches it may write the hall's games: start "
                         "redis-server with --requirepass TOKEN, or give no token")

    def _speaks_redis(self) -> bool:
        """Whether the server at the URL answers a plain PING the way Redis does (any Redis
        reply, a refusal included); False for a server of another protocol, such as HTTP."""
        kwargs = self._redis.connection_pool.connection_kwargs
        if "host" not in kwargs:
            return True  # a unix socket: nothing else listens there by mistake
        try:
            with socket.create_connection((kwargs["host"], kwargs.get("port", 6379)), timeout=2) as probe:
                probe.sendall(b"PING\r\n")
                reply = probe.recv(1)
        except OSError:
            return True  # unreachable: an outage, not a wrong server
        return reply in (b"+", b"-")


def _event(entry_id: str, fields: dict[str, str]) -> GameEvent:
    """A stream entry as the event it holds, numbered by its id (``<seq>-0``)."""
    return GameEvent.from_json(fields["e"]).with_seq(int(entry_id.split("-")[0]))
