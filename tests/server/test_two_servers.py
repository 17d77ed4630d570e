"""Several ``makhos serve`` processes over one Redis hall (docs/hall.md, "More viewers than
one server"): a decision made on one server reaches the streams of the other, and a viewer
who moves to the other server resumes there with ``Last-Event-ID``, missing nothing. Each
server is the product's (server.serving), each with its own connection to a real
redis-server; skips without the binary."""

from __future__ import annotations

import http.client
import shutil
import socket
import subprocess
import time

import pytest

from makhos.events import open_log
from makhos.server import create_app
from makhos.server.config import BoardInfo, ServerConfig

from live_browser import served
from server_sample import TOKEN

BINARY = shutil.which("redis-server")


@pytest.fixture
def redis_url(tmp_path):
    if BINARY is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
    import redis

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    process = subprocess.Popen([BINARY, "--bind", "127.0.0.1", "--port", str(port), "--dir",
                                str(tmp_path), "--save", "", "--appendonly", "no"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    client = redis.Redis(host="127.0.0.1", port=port)
    deadline = time.monotonic() + 10
    while True:
        try:
            client.ping()
            break
        except redis.ConnectionError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.02)
    yield f"redis://127.0.0.1:{port}/0"
    process.kill()
    process.wait()


def stream_ids(port: int, path: str, after: int, count: int, timeout: float = 10) -> list[int]:
    """The first ``count`` event ids of a stream opened with ``Last-Event-ID: after``."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as conn:
        conn.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nLast-Event-ID: {after}\r\n\r\n"
                     .encode())
        data, ids = b"", []
        deadline = time.monotonic() + timeout
        while len(ids) < count and time.monotonic() < deadline:
            data += conn.recv(65536)
            ids = [int(line[4:]) for line in data.split(b"\n") if line.startswith(b"id: ")]
        return ids


def act(port: int, body: bytes) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("POST", "/api/referee/1/action", body=body,
                     headers={"X-Referee-Token": TOKEN, "Content-Type": "application/json"})
        answer = conn.getresponse()
        answer.read()
        return answer.status
    finally:
        conn.close()


def test_two_servers_over_one_redis_hall_serve_the_same_live_board(redis_url):
    logs = [open_log(redis_url), open_log(redis_url)]
    apps = [create_app(ServerConfig(events=log, referee_token=TOKEN, boards=(BoardInfo("1"),)))
            for log in logs]
    with served(apps[0]) as first, served(apps[1]) as second:
        ports = [int(url.rsplit(":", 1)[1]) for url in (first, second)]
        assert act(ports[0], b'{"action": "set_players", "first": "A", "second": "B"}') == 201
        assert act(ports[1], b'{"action": "set_players", "first": "A", "second": "C"}') == 201
        # Each server streams both decisions, whichever server took them, with the hall's ids.
        on_first = stream_ids(ports[0], "/api/board/1/events", 0, 2)
        on_second = stream_ids(ports[1], "/api/board/1/events", 0, 2)
        assert on_first == on_second and len(on_first) == 2
        # A viewer who read the first event on one server resumes on the other.
        assert stream_ids(ports[1], "/api/board/1/events", on_first[0], 1) == on_first[1:]
    for log in logs:
        log.close()
