"""What a token holder's flood of large action bodies costs everyone else's page loads.

    python3 -m bench.flood                      # 20 senders of 64 KB bodies, 20 s
    python3 -m bench.flood --senders 40 --seconds 30 --kind brackets

``makhos serve`` runs in its own process on 127.0.0.1 over a SQLite log with a game on
board 1. ``--senders`` threads each POST one body after another to the referee's action
route with the token, on a fresh connection each (as a script would); meanwhile one
client GETs ``/board/1`` and ``/api/board/1`` in turn and times each answer. Prints the
GETs' p50, p95 and max, the actions answered a second, and how many of each status.

Kinds of body (each as large as ``--kb``): ``names`` (a set_players whose names fill the
body: each character goes through the plain-text check), ``brackets`` (nested arrays,
within the depth limit, that the depth check walks), ``quotes`` (a string of escaped
quotes that never closes), ``padding`` (a valid action and spaces).
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from makhos.engine.game import Game
from makhos.events import EventKind, GameEvent, SQLiteLog
from makhos.events.details import GameStarted

TOKEN = "flood-token"


def body_of(kind: str, size: int) -> bytes:
    """An action body of ``size`` bytes of the given kind."""
    head = '{"action": "set_players", "second": "Malee", "first": "'
    if kind == "names":
        return (head + "ก" * ((size - len(head) - 2) // 3) + '"}').encode()
    if kind == "brackets":
        unit = "[[[[[[1]]]]]],"
        return ('{"action": "take_back", "x": [' + unit * ((size - 40) // len(unit)) + "1]}").encode()
    if kind == "quotes":
        return (head + '\\"' * ((size - len(head)) // 2)).encode()
    action = '{"action": "set_players", "first": "Somchai", "second": "Malee"}'
    return (action + " " * (size - len(action))).encode()


def served_log(folder: Path) -> Path:
    """A SQLite log with a 20-ply game on board 1."""
    path = folder / "events.db"
    log = SQLiteLog(path)
    game = Game()
    log.append(GameEvent("1", EventKind.GAME_STARTED, time.time(), game=1, ply=0,
                         fen=game.position.fen(), detail=GameStarted(game.rules)))
    for ply in range(1, 21):
        move, side = game.legal_moves()[0], game.position.turn
        game.play(move)
        log.append(GameEvent("1", EventKind.MOVE, time.time(), game=1, ply=ply, move=str(move),
                             fen=game.position.fen(), side=side))
    log.close()
    return path


def request(port: int, method: str, path: str, body: bytes | None = None) -> tuple[int, float]:
    started = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        headers = {"X-Referee-Token": TOKEN, "Content-Type": "application/json"} if body else {}
        conn.request(method, path, body=body, headers=headers)
        answer = conn.getresponse()
        answer.read()
        return answer.status, time.perf_counter() - started
    except OSError:
        return 0, time.perf_counter() - started  # the server closed on a refused body
    finally:
        conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--senders", type=int, default=20)
    parser.add_argument("--kb", type=int, default=64, help="body size in KiB (default 64)")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--kind", choices=("names", "brackets", "quotes", "padding"), default="names")
    args = parser.parse_args()
    body = body_of(args.kind, args.kb * 1024 - 1)
    with tempfile.TemporaryDirectory() as folder:
        log = served_log(Path(folder))
        port = _free_port()
        env = {**os.environ, "MAKHOS_REFEREE_TOKEN": TOKEN}
        server = subprocess.Popen([sys.executable, "-m", "makhos.cli.main", "serve", "--events", str(log),
                                   "--port", str(port)], env=env, stdout=subprocess.DEVNULL)
        try:
            _wait_for(port)
            print(f"# {platform.node()} {os.cpu_count()} cpu, load {os.getloadavg()[0]:.1f}; "
                  f"{args.senders} senders of {len(body):,}-byte {args.kind} bodies, {args.seconds:g} s")
            quiet = _gets(port, 3.0, threading.Event())
            print(f"GET, no flood:   p50 {_ms(quiet, 50)}  p95 {_ms(quiet, 95)}  max {max(quiet) * 1000:.0f} ms")
            # The senders in a process of their own: their threads must not hold the timing
            # client's interpreter lock (that would be the bench's delay, not the server's).
            with multiprocessing.Pool(1) as pool:
                flood = pool.apply_async(_flood, (port, body, args.senders, args.seconds))
                time.sleep(1.0)  # the senders at work
                flooded = _gets(port, args.seconds - 2.0, threading.Event())
                statuses = flood.get()
            print(f"GET, flooded:    p50 {_ms(flooded, 50)}  p95 {_ms(flooded, 95)}  "
                  f"max {max(flooded) * 1000:.0f} ms  ({len(flooded)} GETs)")
            print(f"actions: {sum(statuses.values()) / args.seconds:.0f}/s, statuses "
                  f"{dict(sorted(statuses.items()))}")
        finally:
            server.terminate()
            server.wait()


def _gets(port: int, seconds: float, stop: threading.Event) -> list[float]:
    times: list[float] = []
    end = time.monotonic() + seconds
    paths = ("/board/1", "/api/board/1")
    while time.monotonic() < end and not stop.is_set():
        status, took = request(port, "GET", paths[len(times) % 2])
        if status == 200:
            times.append(took)
        time.sleep(0.05)
    return times


def _flood(port: int, body: bytes, senders: int, seconds: float) -> Counter[int]:
    """``senders`` threads POSTing ``body`` for ``seconds``; the count of each status."""
    statuses: Counter[int] = Counter()
    stop = threading.Event()

    def send() -> None:
        while not stop.is_set():
            status, _ = request(port, "POST", "/api/referee/1/action", body)
            statuses[status] += 1

    threads = [threading.Thread(target=send) for _ in range(senders)]
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join()
    return statuses


def _ms(times: list[float], percent: int) -> str:
    ordered = sorted(times)
    return f"{ordered[min(len(ordered) - 1, len(ordered) * percent // 100)] * 1000:.0f}"


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_for(port: int) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if request(port, "GET", "/api/hall")[0] == 200:
            return
        time.sleep(0.1)
    raise RuntimeError("the server did not start")


if __name__ == "__main__":
    main()
