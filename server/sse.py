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
from typing import Callable, Iterator

from flask import Response, abort, request

from .hall import Audience, Hall

RETRY_MS = 1000


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


def stream(hall: Hall, board: str | None, after: int, audience: Audience,
           state_of: Callable[[str], str]) -> Iterator[str]:
    """Yield SSE messages for ``board`` (None: every board) until the server closes."""
    yield f"retry: {RETRY_MS}\n\n"
    last = hall.feed.last_seq
    if after > last:
        state = state_of(board) if board is not None else "null"  # the hall's page reloads
        yield (f"id: 0\nevent: reset\n"
               f'data: {{"reset":{{"after":{after},"last":{last}}},"state":{state}}}\n\n')
        after = 0
    keepalive = hall.config.keepalive_seconds
    while not hall.feed.closed:
        batch = hall.events(board, after, audience)
        if not batch:
            if not hall.wait(board, after, audience, keepalive):
                yield ": keepalive\n\n"
            continue
        last_of_board = {e.board: e.seq for e in batch}
        for event in batch:
            state = state_of(event.board) if last_of_board[event.board] == event.seq else "null"
            yield (f"id: {event.seq}\nevent: update\n"
                   f'data: {{"event":{event.to_json()},"state":{state}}}\n\n')
        after = batch[-1].seq


def response(messages: Iterator[str]) -> Response:
    return Response(messages, mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


def dumps(data) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
