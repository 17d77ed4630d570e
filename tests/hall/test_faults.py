"""Faults of a hall, with real processes: a worker SIGKILLed, Redis restarted, a server
restarted. Each ends with the game the players played, whole, once, in order."""

from __future__ import annotations

import http.client
import json
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from makhos.engine.pdn import read_game, write_game
from makhos.events import EventKind, open_log

from hall_sample import ROOT, folded_pdn, recorded
from lab.redis_server import free_port

SPEED = "50"  # 10 s a ply in the game: 0.2 s here


def makhos(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "makhos.cli.main", *args], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def worker(pdn: Path, url: str, board: str = "1") -> subprocess.Popen:
    return makhos("worker", "--source", f"replay:{pdn}", "--speed", SPEED, "--board", board, "--redis", url,
                  "--outbox", str(pdn.with_name(f"outbox-{board}.jsonl")))


def wait_for(predicate, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def moves_logged(log, board: str = "1") -> list[str]:
    return [e.move for e in log.read(board, limit=100_000) if e.kind is EventKind.MOVE]


def finished(process: subprocess.Popen, timeout: float = 60) -> str:
    """Wait for a worker to end its recording; its log lines."""
    _, errors = process.communicate(timeout=timeout)
    assert process.returncode == 0, errors.decode()
    return errors.decode()


def assert_logged_once_in_order(log, game) -> None:
    events = log.read("1", limit=100_000)
    assert [e.seq for e in events] == sorted({e.seq for e in events})
    assert len({e.with_seq(0).to_json() for e in events if e.kind is not EventKind.REFEREE}) == \
        len([e for e in events if e.kind is not EventKind.REFEREE])
    assert moves_logged(log) == [str(p.move) for p in game.plies]
    assert folded_pdn(log, "1") == write_game(game)


def test_a_worker_killed_mid_game_resumes_from_the_log(tmp_path, redis_server):
    game, pdn = recorded(tmp_path, seed=5)
    log = open_log(redis_server.url)
    first = worker(pdn, redis_server.url)
    wait_for(lambda: len(moves_logged(log)) >= 8)
    first.send_signal(signal.SIGKILL)
    first.wait()
    assert len(moves_logged(log)) < len(game.plies)
    finished(worker(pdn, redis_server.url))
    assert_logged_once_in_order(log, game)




class Viewer:
    """An SSE client that remembers each event id it received, across reconnections."""

    def __init__(self) -> None:
        self.ids: list[int] = []

    def follow(self, port: int, until: float = float("inf"), timeout: float = 30.0) -> None:
        """Read ``/api/board/1/events`` from the last id seen until seq ``until`` or EOF."""
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        headers = {"Last-Event-ID": str(self.ids[-1])} if self.ids else {}
        connection.request("GET", "/api/board/1/events", headers=headers)
        response = connection.getresponse()
        try:
            while not self.ids or self.ids[-1] < until:
                line = response.fp.readline()
                if not line:
                    return  # the server went away
                if line.startswith(b"id: "):
                    self.ids.append(int(line[4:]))
        finally:
            connection.close()


def serve(url: str, port: int) -> subprocess.Popen:
    server = makhos("serve", "--redis", url, "--port", str(port), "--threads", "8")

    def up() -> bool:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            connection.request("GET", "/api/hall")
            return connection.getresponse().status == 200
        except OSError:
            return False

    wait_for(up)
    return server


def test_redis_restarted_mid_game_loses_reorders_and_repeats_nothing(tmp_path, redis_server):
    game, pdn = recorded(tmp_path, seed=6)
    log = open_log(redis_server.url)
    port = free_port()
    server = serve(redis_server.url, port)
    try:
        running = worker(pdn, redis_server.url)
        wait_for(lambda: len(moves_logged(log)) >= 5)
        viewer = Viewer()  # watching live from here on: the server streams through the restart
        threading.Thread(target=viewer.follow, args=(port,), daemon=True).start()
        wait_for(lambda: bool(viewer.ids))
        redis_server.kill()
        time.sleep(1.5)  # the worker goes on refereeing: several plies wait in its outbox
        redis_server.start()
        said = finished(running)
        assert "holding" in said and "sending" in said
        assert_logged_once_in_order(log, game)
        seqs = [e.seq for e in log.read("1", limit=100_000)]
        wait_for(lambda: viewer.ids[-1:] == seqs[-1:])
        assert viewer.ids == seqs
    finally:
        server.kill()
        server.wait()


def test_viewers_of_a_restarted_server_resume_on_the_other_with_last_event_id(tmp_path, redis_server):
    game, pdn = recorded(tmp_path, seed=7, plies=24)
    log = open_log(redis_server.url)
    ports = free_port(), free_port()
    one, two = serve(redis_server.url, ports[0]), serve(redis_server.url, ports[1])
    try:
        running = worker(pdn, redis_server.url)
        wait_for(lambda: len(moves_logged(log)) >= 6)
        viewer = Viewer()
        middle = log.read("1", limit=100_000)[-1].seq
        viewer.follow(ports[0], until=middle)
        one.send_signal(signal.SIGKILL)
        one.wait()
        finished(running)
        last = log.read("1", limit=100_000)[-1].seq
        viewer.follow(ports[1], until=last)
        assert viewer.ids == [e.seq for e in log.read("1", limit=100_000)]
        one = serve(redis_server.url, ports[0])  # restarted, it serves the same game
        for port in ports:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.request("GET", "/api/board/1/pdn")
            body = connection.getresponse().read().decode()
            assert read_game(body).game.positions() == game.positions()
            connection.request("GET", "/api/board/1")
            assert json.loads(connection.getresponse().read())["seq"] == last
    finally:
        for server in (one, two):
            server.kill()
            server.wait()


def test_a_server_started_before_redis_says_so_and_stops(capsys):
    from makhos.cli.main import main

    assert main(["serve", "--redis", f"redis://127.0.0.1:{free_port()}/0"]) == 2
    assert "is Redis running?" in capsys.readouterr().err
