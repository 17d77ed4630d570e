"""Server-Sent Events streams: one message per event, ``id:`` = the event's seq.

A client that reconnects sends ``Last-Event-ID`` and gets every event after it, so
nothing is lost across a reconnect. Each message carries the event; the last message of
a burst also carries the state it leads to (a board's full state, or the hall's line
for that board), so a client renders once per burst and never folds events itself.

An id beyond the end of the log means the client last read another log (the server
restarted over a fresh one): the stream then says ``reset`` with ``id: 0`` and the state as
it is, and sends the log from its first event, so the client forgets what it had and
misses nothing of this log.
"""

from __future__ import annotations

import json
import time
from typing import Callable, Iterator, Protocol

from flask import Response, abort, request

from makhos.events import GameEvent

from .hall import Audience, Hall

RETRY_MS = 1000
#: How often a stream served by a thread looks whether its client has gone: such a stream
#: holds one of the server's threads, and a closed tab must give it back at once, not at
#: the next keepalive. (Streams on the product's server, :mod:`server.serving`, hold no
#: thread, and learn of a gone client at their next write.)
GONE_CHECK_S = 0.5

#: The WSGI environ key under which a server that runs streams on an event loop puts its
#: :class:`Waiting` (:mod:`server.serving`); without it a stream waits as a thread does.
WAITING_KEY = "makhos.waiting"


class Waiting(Protocol):
    """How a stream waits, as the server that runs it needs: a thread blocks on the feed's
    conditions; a greenlet on its event loop's signals."""

    #: The longest single wait, after which the stream looks whether its client has gone.
    check_s: float

    def wait(self, hall: Hall, board: str | None, after: int, audience: Audience,
             timeout: float) -> bool:
        """As :meth:`Hall.wait`."""

    def sleep(self, seconds: float) -> None: ...

    def gone(self) -> bool:
        """Whether the client has disconnected, where the server can tell."""


class ThreadWaiting:
    """Waiting of a stream that holds a thread (waitress, Werkzeug's test server)."""

    check_s = GONE_CHECK_S

    def __init__(self, gone: Callable[[], bool]) -> None:
        self.gone = gone

    def wait(self, hall: Hall, board: str | None, after: int, audience: Audience,
             timeout: float) -> bool:
        return hall.wait(board, after, audience, timeout)

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)


def waiting() -> Waiting:
    """How the stream of the request being served waits (its server says)."""
    given = request.environ.get(WAITING_KEY)
    return given if given is not None else ThreadWaiting(client_gone())


def resume_point() -> int:
    """Where to resume: ``Last-Event-ID`` (browsers on reconnect) or ``?after=``; 0 = start.
    Anything but a whole number >= 0 is a 400."""
    raw = request.headers.get("Last-Event-ID") or request.args.get("after") or "0"
    try:
        value = int(raw)
    except ValueError:
        value = -1
    if value < 0:
        abort(400, description="Last-Event-ID (or ?after=) must be a whole number >= 0")
    return value


def client_gone() -> Callable[[], bool]:
    """For the request being served: whether its client has disconnected (waitress tells;
    other servers never say, and their streams end at the next write that fails)."""
    gone = request.environ.get("waitress.client_disconnected")
    return gone if callable(gone) else (lambda: False)


def stream(hall: Hall, board: str | None, after: int, audience: Audience,
           state_of: Callable[[str], str],
           analysis_of: Callable[[str], str | None] | None = None,
           waits: Waiting | None = None) -> Iterator[bytes]:
    """Yield SSE messages for ``board`` (None: every board) until the server closes or
    the client goes (``waits``: :func:`waiting` of the request; a thread's by default).

    ``analysis_of(board)``, for a public board's stream of an event with analysis, gives
    the analysis of the position shown: sent as ``event: analysis`` (no ``id:``, so a
    reconnect still resumes by the log) whenever it differs from the last one sent, after
    a burst of events or when a search finishes (the analyst pokes the board)."""
    yield f"retry: {RETRY_MS}\n\n".encode()
    last = hall.feed.last_seq
    if after > last:
        state = state_of(board) if board is not None else "null"  # the hall's page reloads
        yield (f"id: 0\nevent: reset\n"
               f'data: {{"reset":{{"after":{after},"last":{last}}},"state":{state}}}\n\n').encode()
        after = 0
    keepalive = hall.config.keepalive_seconds
    waits = waits if waits is not None else ThreadWaiting(lambda: False)
    sent_analysis: str | None = None
    quiet_since = time.monotonic()
    while not hall.feed.closed and not waits.gone():
        batch = hall.events(board, after, audience)
        last_of_board = {e.board: e.seq for e in batch}
        parts = [update(hall, event, state_of(event.board) if last_of_board[event.board] == event.seq
                        else "null") for event in batch]
        if batch:
            after = batch[-1].seq
        if analysis_of is not None and board is not None:
            analysis = analysis_of(board)
            if analysis is not None and analysis != sent_analysis:
                parts.append(f"event: analysis\ndata: {analysis}\n\n".encode())
                sent_analysis = analysis
        if parts:  # a burst in one write
            yield parts[0] if len(parts) == 1 else b"".join(parts)
        if batch or waits.wait(hall, board, after, audience, min(keepalive, waits.check_s)):
            quiet_since = time.monotonic()
        elif time.monotonic() - quiet_since >= keepalive:
            quiet_since = time.monotonic()
            yield b": keepalive\n\n"


#: Messages kept per hall (a few bursts' worth): a move sent to thousands of streams is
#: serialised and encoded once, not once a stream.
MESSAGES_KEPT = 512


def update(hall: Hall, event: GameEvent, state: str) -> bytes:
    """The ``update`` message of ``event`` with ``state`` (its board's state after it, or
    ``"null"`` within a burst), as bytes; made once for every stream that sends it."""
    key = (event.seq, state)  # state texts are cached strings: their hash is kept too
    message = hall.messages.get(key)
    if message is None:
        if len(hall.messages) >= MESSAGES_KEPT:
            hall.messages.clear()
        message = hall.messages[key] = (f"id: {event.seq}\nevent: update\n"
                                        f'data: {{"event":{event.to_json()},"state":{state}}}\n\n'
                                        ).encode()
    return message


def response(messages: Iterator[bytes]) -> Response:
    return Response(messages, mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


def dumps(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
