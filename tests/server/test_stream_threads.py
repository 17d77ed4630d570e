"""Streams whose clients left never starve the server: tabs closed in a burst, more than
the server has threads, leave the API answering at once (served for real by the product's
server, where a stream holds no thread at all; with a thread-based server such as waitress
a closed tab gave its thread back at once, through ``sse.client_gone``)."""

from __future__ import annotations

import socket
import time
import urllib.request

import pytest

from makhos.events import SQLiteLog
from makhos.server import create_app
from makhos.server.config import BoardInfo, ServerConfig

from live_browser import served

THREADS = 2


def open_and_drop_stream(host: str, port: int, path: str) -> None:
    """Open an SSE stream, read its first bytes (the stream is running), then hang up."""
    with socket.create_connection((host, port), timeout=5) as conn:
        conn.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n"
                     .encode())
        assert b"200" in conn.recv(4096)


@pytest.mark.parametrize("path", ["/api/board/1/events", "/api/hall/events"])
def test_streams_whose_clients_left_free_their_threads_long_before_the_keepalive(path, tmp_path):
    log = SQLiteLog(tmp_path / "events.db")
    config = ServerConfig(events=log, boards=(BoardInfo("1"),), keepalive_seconds=60.0)
    with served(create_app(config), threads=THREADS) as url:
        host, port = url.removeprefix("http://").split(":")
        for _ in range(3 * THREADS):  # more streams than threads, one after another
            open_and_drop_stream(host, int(port), path)
        started = time.monotonic()
        with urllib.request.urlopen(url + "/api/hall", timeout=10) as answer:
            assert answer.status == 200
        assert time.monotonic() - started < 5  # not the 60 s keepalive of a held thread
    log.close()
