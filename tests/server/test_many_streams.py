"""Live streams hold no thread (issue #32): with far more open streams than the server has
threads, the hall API, a page and a referee action each answer within a second, and the
action reaches every stream. Served for real by the product's server (server.serving)."""

from __future__ import annotations

import http.client
import selectors
import socket
import time

import pytest

from makhos.events import SQLiteLog
from makhos.server import create_app
from makhos.server.config import BoardInfo, ServerConfig

from live_browser import served
from server_sample import TOKEN

STREAMS = 400  # against 2 page threads (waitress needed a thread for each)
THREADS = 2


def open_stream(port: int, path: str) -> socket.socket:
    conn = socket.create_connection(("127.0.0.1", port), timeout=10)
    conn.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
                 .encode())
    return conn


def timed(port: int, method: str, path: str, body: bytes | None = None,
          headers: dict | None = None) -> tuple[int, float]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    started = time.perf_counter()
    try:
        conn.request(method, path, body=body, headers=headers or {})
        answer = conn.getresponse()
        answer.read()
        return answer.status, time.perf_counter() - started
    finally:
        conn.close()


@pytest.mark.parametrize("path", ["/api/board/1/events", "/api/hall/events"])
def test_hundreds_of_open_streams_lock_out_neither_pages_nor_the_referee(tmp_path, path):
    log = SQLiteLog(tmp_path / "events.db")
    config = ServerConfig(events=log, referee_token=TOKEN, boards=(BoardInfo("1"),),
                          keepalive_seconds=60.0)
    streams: list[socket.socket] = []
    with served(create_app(config), threads=THREADS) as url:
        port = int(url.rsplit(":", 1)[1])
        try:
            streams = [open_stream(port, path) for _ in range(STREAMS)]
            for conn in streams:  # every stream is running: its headers and retry: came
                head = b""
                while b"retry:" not in head:
                    chunk = conn.recv(4096)
                    assert chunk, "a stream was closed"
                    head += chunk
                assert head.startswith(b"HTTP/1.1 200")
            hall = timed(port, "GET", "/api/hall")
            page = timed(port, "GET", "/board/1")
            action = timed(port, "POST", "/api/referee/1/action",
                           b'{"action": "set_players", "first": "A", "second": "B"}',
                           {"X-Referee-Token": TOKEN, "Content-Type": "application/json"})
            assert [hall[0], page[0], action[0]] == [200, 200, 201]
            assert max(hall[1], page[1], action[1]) < 1.0, (hall, page, action)
            # The action reaches every open stream.
            selector = selectors.DefaultSelector()
            for conn in streams:
                conn.setblocking(False)
                selector.register(conn, selectors.EVENT_READ, data=bytearray())
            waiting = set(streams)
            deadline = time.monotonic() + 10
            while waiting and time.monotonic() < deadline:
                for key, _ in selector.select(timeout=0.5):
                    data = key.data
                    data += key.fileobj.recv(65536)
                    if b"id: 1\n" in data:
                        waiting.discard(key.fileobj)
                        selector.unregister(key.fileobj)
            assert not waiting, f"{len(waiting)} of {STREAMS} streams never got the action"
        finally:
            for conn in streams:
                conn.close()
    log.close()
