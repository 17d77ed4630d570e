"""The product's server of the pages: live streams on one event loop, the rest in threads.

A Server-Sent Events stream spends its life waiting. Served by a thread (waitress), each
open page holds one thread, and a thousand viewers lock out the referee. Here the streams
are greenlets on gevent's loop (``gevent.pywsgi``, the server Flask's deployment guide and
Flask-SSE name for long-lived connections), waiting on the loop's own signals, so an open
stream costs a few kilobytes, not a thread, and the number of viewers is bounded by memory
and file descriptors.

Nothing is monkey-patched: the vision worker, the analyst and the event feed's poller stay
real threads, as the rest of the project expects. Every request that is not a stream (a
page, the hall API, PDN, a referee action) is run by the Flask app in a pool of real
threads, so a slow SQLite write or a Redis round trip never stops the loop; the referee's
routes have a pool of their own, which no crowd of page loads can fill. A stream's own
requests (the token check, the first state) run on the loop: they only read cached state.

The feed tells the loop of each change (:meth:`server.feed.EventFeed.listen`, from its
poller thread, through the loop's thread-safe callbacks); a stream waits for its board's
signal, the hall's streams for any board's.

Bounds on time: a request's body must arrive within :data:`BODY_SECONDS`, a request not
answered within :data:`ANSWER_SECONDS` is answered 503 (its thread finishes in its own time),
and a socket idle for :data:`IDLE_SECONDS` either way is closed.
"""

from __future__ import annotations

import collections
import io
import logging
import math
import re
import socket
import threading
from collections.abc import Callable, Iterable
from typing import Any, cast

import gevent
import gevent.event
import gevent.pool
import gevent.pywsgi
import gevent.socket
from gevent.threadpool import ThreadPool

from . import sse
from .body import MAX_BODY_BYTES
from .hall import Audience, Hall

__all__ = ["Server", "STREAM_PATH", "ANSWER_SECONDS", "BODY_SECONDS"]

log = logging.getLogger(__name__)

Environ = dict[str, Any]
StartResponse = Callable[..., Any]
App = Callable[[Environ, StartResponse], Iterable[bytes]]

#: The routes whose answer is a stream: run on the loop, never in a thread.
STREAM_PATH = re.compile(r"^/api/(?:board/[^/]+/events|hall/events|referee/[^/]+/events)$"
                         r"|^/referee/[^/]+/camera\.mjpg$")
#: The referee's routes: their own threads.
REFEREE_PATH = re.compile(r"^/(?:api/)?referee/")
BODY_SECONDS = 10.0
IDLE_SECONDS = 60.0
ANSWER_SECONDS = 30.0
#: Streams woken at once by a change; then the loop's other work gets its turn.
WAKE_BATCH = 50
#: Open connections at most (streams included); each is a file descriptor.
MAX_CONNECTIONS = 20_000


class _Signals:
    """Per board, a count of changes and the streams waiting for the next, kept on the
    loop's thread.

    Each waiting stream has an event of its own, and the streams a change wakes are woken
    :data:`WAKE_BATCH` at a time, each batch scheduled behind whatever the loop has queued
    meanwhile: a move sent to thousands of streams takes turns with the pages and the
    referee's requests instead of keeping them waiting until every stream has written
    (one shared event would wake every stream within one callback of the loop, and a
    request's next step is queued behind all of them)."""

    def __init__(self, hub: Any) -> None:
        self._hub = hub
        self._seen: dict[str | None, int] = {}
        self._waiting: dict[str | None, set[gevent.event.Event]] = {}
        self._to_wake: collections.deque[gevent.event.Event] = collections.deque()
        self._draining = False

    def tell(self, board: str | None) -> None:
        """The feed's listener: any thread; hands the news to the loop."""
        self._hub.loop.run_callback_threadsafe(self._changed, board)

    def _changed(self, board: str | None) -> None:
        # A board's change wakes its streams and the hall's (None); closing wakes all.
        keys = set(self._seen) | set(self._waiting) if board is None else {board, None}
        for key in keys:
            self._seen[key] = self._seen.get(key, 0) + 1
            self._to_wake.extend(self._waiting.pop(key, ()))
        if self._to_wake and not self._draining:
            self._draining = True
            self._hub.loop.run_callback(self._drain)

    def _drain(self) -> None:
        for _ in range(min(WAKE_BATCH, len(self._to_wake))):
            self._to_wake.popleft().set()
        if self._to_wake:
            self._hub.loop.run_callback(self._drain)  # behind what was queued meanwhile
        else:
            self._draining = False

    def mark(self, board: str | None) -> int:
        return self._seen.get(board, 0)

    def wait(self, board: str | None, mark: int, timeout: float) -> None:
        """Sleep until ``board`` changes after ``mark`` (:meth:`mark`), or ``timeout``."""
        if self._seen.get(board, 0) != mark:
            return
        event = gevent.event.Event()
        waiting = self._waiting.setdefault(board, set())
        waiting.add(event)
        try:
            event.wait(timeout)
        finally:
            waiting.discard(event)


class GreenWaiting:
    """:class:`server.sse.Waiting` of a stream run as a greenlet: it waits on the loop's
    signals, and never needs to look for a gone client (it holds no thread; a gone client
    ends it at the next write, the keepalive at the latest)."""

    check_s = math.inf

    def __init__(self, signals: _Signals) -> None:
        self._signals = signals

    def wait(self, hall: Hall, board: str | None, after: int, audience: Audience,
             timeout: float) -> bool:
        feed = hall.feed
        delay = hall.delay(audience)
        deadline = feed.now() + timeout
        poked = feed.pokes(board)
        while True:
            mark = self._signals.mark(board)  # before the look: no change slips between
            ready, due = feed.ready(board, after, delay, poked, deadline)
            if ready is not None:
                return ready
            self._signals.wait(board, mark, max(due - feed.now(), 0.001))

    def sleep(self, seconds: float) -> None:
        gevent.sleep(seconds)

    def gone(self) -> bool:
        return False


def _run_in_thread(app: App, environ: Environ) -> tuple[str, list[tuple[str, str]], list[bytes]]:
    """Call the WSGI app and read its whole answer, in a pool thread."""
    answer: list[Any] = []

    def start_response(status: str, headers: list[tuple[str, str]],
                       exc_info: Any = None) -> Callable[[bytes], None]:
        answer[:] = [status, headers]
        return lambda data: chunks.append(data)

    chunks: list[bytes] = []
    result = app(environ, start_response)
    try:
        chunks.extend(result)
    finally:
        close = getattr(result, "close", None)
        if close is not None:
            close()
    return answer[0], answer[1], chunks


def _plain(status: str, text: str, start_response: StartResponse) -> list[bytes]:
    body = text.encode()
    start_response(status, [("Content-Type", "text/plain; charset=utf-8"),
                            ("Content-Length", str(len(body))), ("Connection", "close")])
    return [body]


class _Dispatcher:
    """The WSGI app the loop serves: streams here, everything else in a pool thread."""

    def __init__(self, app: App, waiting: GreenWaiting, pool: ThreadPool,
                 referee_pool: ThreadPool) -> None:
        self.app = app
        self.waiting = waiting
        self.pool = pool
        self.referee_pool = referee_pool

    def __call__(self, environ: Environ, start_response: StartResponse) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "")
        if environ.get("REQUEST_METHOD") in ("GET", "HEAD") and STREAM_PATH.match(path):
            environ[sse.WAITING_KEY] = self.waiting
            return self.app(environ, start_response)
        try:
            with gevent.Timeout(BODY_SECONDS):
                environ["wsgi.input"] = io.BytesIO(_read_body(environ))
        except gevent.Timeout:
            return _plain("408 Request Timeout", "the body did not arrive in time\n", start_response)
        except _BodyRefused as refused:
            return _plain(refused.status, str(refused), start_response)
        environ.pop("wsgi.file_wrapper", None)  # files are read in the thread, not sent by the loop
        pool = self.referee_pool if REFEREE_PATH.match(path) else self.pool
        try:
            status, headers, chunks = cast(
                tuple[str, list[tuple[str, str]], list[bytes]],
                pool.spawn(_run_in_thread, self.app, environ).get(timeout=ANSWER_SECONDS))
        except gevent.Timeout:
            return _plain("503 Service Unavailable", "no answer in time; try again\n", start_response)
        start_response(status, headers)
        return chunks


class _BodyRefused(Exception):
    """A body the app is never given: its status line and the reason, for the client."""

    def __init__(self, status: str, reason: str) -> None:
        super().__init__(reason)
        self.status = status


def _read_body(environ: Environ) -> bytes:
    """The request body, read on the loop (a pool thread may not touch the loop's socket).

    A body over the limit with ``Content-Length`` is left unread, and the app refuses it on
    that header alone; a chunked one is read one byte past the limit at most and refused
    here (:class:`_BodyRefused`, 413), never cut and handed on. A body that ends before
    its ``Content-Length`` (the client closed its side, or the chunks broke off) is a 400,
    refused quietly: a dropped upload is the client's fault, not the log's news."""
    stream = environ["wsgi.input"]
    try:
        length = int(environ.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length > MAX_BODY_BYTES:
        return b""  # the app refuses it on Content-Length alone
    chunked = environ.get("HTTP_TRANSFER_ENCODING", "").lower() == "chunked"
    if not length and not chunked:
        return b""
    try:
        data = cast(bytes, stream.read(length if length else MAX_BODY_BYTES + 1))
    except (OSError, ValueError):  # gevent: end of file inside the body, or a broken chunk
        data = None
    if data is None or len(data) < length:
        raise _BodyRefused("400 Bad Request", "the body ended before it was whole\n")
    if len(data) > MAX_BODY_BYTES:
        raise _BodyRefused("413 Request Entity Too Large",
                           f"the body is over {MAX_BODY_BYTES} bytes\n")
    return data


class _Handler(gevent.pywsgi.WSGIHandler):  # type: ignore[misc]
    """pywsgi's handler, with a bound on idle sockets and one ``send`` per message.

    A socket that neither sends nor takes anything for :data:`IDLE_SECONDS` is closed: a
    client that opens a connection and says nothing (or half a request line), or a viewer
    that stops reading its stream, holds no connection for ever. (A stream writes at least a
    keepalive every ``keepalive_seconds``.) gevent's ``sendall`` asks the socket for its
    buffer size before every write, a system call per message per viewer that a move sent
    to thousands of streams pays thousands of times: one ``send`` does for a message that
    fits the socket's buffer."""

    def handle(self) -> None:
        self.socket.settimeout(IDLE_SECONDS)
        super().handle()

    def _sendall(self, data: bytes) -> None:
        try:
            sent = self.socket.send(data)
            if sent < len(data):
                self.socket.sendall(memoryview(data)[sent:])
        except OSError as error:
            self.status = f"socket error: {error}"
            code = cast(int, getattr(self, "code", 0))  # as pywsgi's own _sendall does
            if code > 0:
                self.code = -code
            raise
        self.response_length += len(data)


class Server:
    """Serve a Flask app of :func:`server.create_app` on ``host:port`` (0: a free port).

    The socket is bound at once (an address in use is an OSError here, not later);
    :meth:`serve_forever` serves in the calling thread, :meth:`start` in a thread of its
    own until :meth:`close`.
    """

    def __init__(self, app: Any, host: str = "127.0.0.1", port: int = 0, threads: int = 32,
                 referee_threads: int = 4, access_log: Any = None) -> None:
        if threads < 1 or referee_threads < 1:
            raise ValueError("a server needs at least one thread for pages and one for the referee")
        self.app = app
        self.threads = threads
        self.referee_threads = referee_threads
        self.access_log = access_log
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self._socket = socket.create_server((host, port), family=family, backlog=4096)
        self.host = host
        self.port: int = self._socket.getsockname()[1]
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._served = threading.Event()

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def serve_forever(self) -> None:
        """Serve in this thread until :meth:`close` (or for ever)."""
        hub = gevent.get_hub()
        hub.NOT_ERROR = (*hub.NOT_ERROR, KeyboardInterrupt)  # Ctrl-C ends serving, quietly
        signals = _Signals(hub)
        hall: Hall = self.app.extensions["makhos"]
        hall.feed.listen(signals.tell)
        pool, referee_pool = ThreadPool(self.threads), ThreadPool(self.referee_threads)
        listener = gevent.socket.socket(fileno=self._socket.detach())
        server = gevent.pywsgi.WSGIServer(
            listener, _Dispatcher(self.app, GreenWaiting(signals), pool, referee_pool),
            spawn=gevent.pool.Pool(MAX_CONNECTIONS), log=self.access_log, handler_class=_Handler)
        server.start()
        self._served.set()
        try:
            while not self._stop.is_set():
                gevent.sleep(0.05)
        finally:
            hall.close()  # ends the open streams
            server.stop(timeout=1)
            pool.kill()
            referee_pool.kill()

    def start(self) -> None:
        """Serve in a thread of its own."""
        self._thread = threading.Thread(target=self.serve_forever, name="makhos-server", daemon=True)
        self._thread.start()
        self._served.wait(10)

    def close(self) -> None:
        """Stop serving (the hall's feed closes with it) and wait for the server's thread."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
        else:  # never served: the socket is still ours, and the hall still open
            try:
                self._socket.close()
            except OSError:
                pass
            self.app.extensions["makhos"].close()
