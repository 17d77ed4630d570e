"""A hall's address written wrong, or pointing at the wrong thing: ``makhos serve`` and
``makhos worker`` stop at once with one clear line naming what to change, create no file,
and never retry for ever a log they never reached (a log lost *later* is waited for:
tests/hall/test_faults.py)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from hall_sample import makhos, recorded
from lab.redis_server import free_port


def _listener(greeting: bytes | None) -> Iterator[int]:
    """A loopback port where something other than Redis answers: ``greeting`` sent at
    once (an SSH banner) or in answer to the first bytes (an HTTP reply), or nothing ever."""
    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                client, _ = server.accept()
            except OSError:
                return
            held.append(client)  # kept open: a server that answers and waits
            if greeting is not None:
                if greeting.startswith(b"HTTP"):
                    client.recv(1024)
                client.sendall(greeting)

    threading.Thread(target=serve, daemon=True).start()
    yield server.getsockname()[1]
    server.close()
    for client in held:
        client.close()


@pytest.fixture
def ssh_port() -> Iterator[int]:
    yield from _listener(b"SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n")


@pytest.fixture
def http_port() -> Iterator[int]:
    yield from _listener(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: keep-alive\r\n\r\n")


@pytest.fixture
def silent_port() -> Iterator[int]:
    yield from _listener(None)


def worker(tmp_path: Path, redis: str, token: str | None = None):
    _, pdn = recorded(tmp_path, seed=9, plies=4)
    return makhos("worker", "--source", f"replay:{pdn}", "--speed", "100", "--board", "1",
                  "--redis", redis, token=token, cwd=tmp_path)


def serve(tmp_path: Path, *args: str, token: str | None = None):
    return makhos("serve", "--port", "0", *args, token=token, cwd=tmp_path)


def one_clear_line(done, *words: str) -> str:
    """The command's error: exit 2, one line that says each of ``words``, no traceback."""
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and len(lines) == 1, done.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize("command", [worker, serve])
@pytest.mark.parametrize("value, advice", [
    ("127.0.0.1:6390", "write redis://127.0.0.1:6390/0"),
    ("127.0.0.1:6390/0", "write redis://127.0.0.1:6390/0"),
    ("", "the Redis URL is empty"),
    ("redis://127.0.0.1:99999/0", "'redis://127.0.0.1:99999/0': the port is a number"),
    ("redis://127.0.0.1:abc/0", "'redis://127.0.0.1:abc/0': the port is a number"),
])
def test_a_redis_url_written_wrong_is_refused_and_no_file_is_made(tmp_path, command, value, advice):
    done = command(tmp_path, "--redis", value) if command is serve else command(tmp_path, value)
    line = one_clear_line(done, advice)
    assert "/0/0" not in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game-9.pdn"] * (command is worker)


@pytest.mark.parametrize("command", [worker, serve])
@pytest.mark.parametrize("other", ["ssh_port", "http_port"])
def test_something_other_than_redis_on_the_port_is_named_not_a_traceback(request, tmp_path, command, other):
    url = f"redis://127.0.0.1:{request.getfixturevalue(other)}/0"
    done = command(tmp_path, "--redis", url) if command is serve else command(tmp_path, url)
    one_clear_line(done, "answers, but not as Redis")


def test_a_port_beyond_65535_is_a_clear_error(tmp_path):
    one_clear_line(makhos("serve", "--port", "99999", cwd=tmp_path), "--port 99999")


@pytest.mark.parametrize("address", [
    "refused", "redis://no-such-host.invalid:6379/0", "unix:///nowhere/redis.sock", "tls", "silent",
])
def test_a_worker_whose_log_was_never_reached_stops_at_start_with_one_line(
        request, tmp_path, redis_server, address):
    """Unreachable port, unresolvable host, missing socket, TLS to a plain Redis, a server
    that says nothing: each is a wrong address, and retrying it for ever hides that."""
    url = {"refused": f"redis://127.0.0.1:{free_port()}/0",
           "tls": f"rediss://127.0.0.1:{redis_server.port}/0",
           "silent": f"redis://127.0.0.1:{request.getfixturevalue('silent_port')}/0"}.get(address, address)
    done = worker(tmp_path, url)
    one_clear_line(done, "cannot reach the event log", "is Redis running there")
    assert "retrying" not in done.stdout + done.stderr


@pytest.mark.parametrize("command", [worker, serve])
def test_a_hall_token_given_to_a_redis_without_a_password_is_refused(tmp_path, redis_server, command):
    """Redis without ``requirepass`` takes any AUTH: the hall would believe itself locked."""
    url = redis_server.url
    done = (command(tmp_path, "--redis", url, token="hall-7f3a") if command is serve
            else command(tmp_path, url, token="hall-7f3a"))
    one_clear_line(done, "asks for no password", "--requirepass")
