"""SSE fan-out: many viewers on one board, delay from event append to receipt, memory.

    python3 -m bench.sse                  # 500 clients, 20 moves, 0.5 s apart
    python3 -m bench.sse --clients 100 --moves 10

It runs ``makhos serve`` as a separate process on loopback (127.0.0.1, a free port), opens
``--clients`` SSE streams on ``/api/board/1/events``, then appends moves to the SQLite log
from this process, as the recorder would, noting the wall time of each append. Every
client notes when each event's ``id:`` reaches it. The delay of an event at a client is
receipt time minus append time (same machine, same clock). It prints p50/p99/max over all
(client, event) pairs, the events lost (must be 0), and the server's resident memory with
no client, with every client connected, and at its peak. Bounded in time: connecting
gives up after 30 s and the whole run after ``--moves`` x ``--interval`` + 30 s.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

from makhos.engine import Rules
from makhos.engine.game import Game
from makhos.events import EventKind, GameEvent, SQLiteLog
from makhos.events.details import GameStarted

ID_LINE = re.compile(rb"^id: (\d+)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mib(pid: int, field: str = "VmRSS") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def moves(count: int) -> list[GameEvent]:
    """``count`` move events of a legal game (the first legal move each ply, captures first)."""
    game = Game()
    out = []
    for ply in range(1, count + 1):
        legal = game.legal_moves()
        if not legal:
            break
        move = legal[(ply * 3) % len(legal)]
        side = game.position.turn
        game.play(move)
        out.append(GameEvent("1", EventKind.MOVE, time.time(), ply=ply, move=str(move),
                             fen=game.position.fen(), side=side))
    return out


async def client(port: int, after: int, received: dict[int, float], ready: asyncio.Event,
                 connected: list[int], stop: asyncio.Event) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET /api/board/1/events HTTP/1.1\r\nHost: bench\r\n"
                 f"Accept: text/event-stream\r\nLast-Event-ID: {after}\r\n\r\n".encode())
    await writer.drain()
    counted = False
    try:
        while not stop.is_set():
            line = await reader.readline()
            if not line:
                return
            if not counted and line.startswith(b"retry:"):
                counted = True
                connected.append(1)
                ready.set()
            match = ID_LINE.match(line)
            if match:
                received[int(match.group(1))] = time.time()
    finally:
        writer.close()


async def run(args: argparse.Namespace) -> int:
    workdir = Path(tempfile.mkdtemp(prefix="bench-sse-"))
    db = workdir / "events.db"
    log = SQLiteLog(db)
    start = log.append(GameEvent("1", EventKind.GAME_STARTED, time.time(),
                                 fen=Game().position.fen(), detail=GameStarted(Rules())))
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-c", "import sys; from cli.main import main; sys.exit(main())",
         "serve", "--events", str(db), "--port", str(port), "--threads", str(args.clients + 32)],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        idle = rss_mib(server.pid)
        stop = asyncio.Event()
        connected: list[int] = []
        received: list[dict[int, float]] = [dict() for _ in range(args.clients)]
        ready = asyncio.Event()
        tasks = [asyncio.create_task(client(port, start.seq, received[i], ready, connected, stop))
                 for i in range(args.clients)]
        deadline = time.time() + 30
        while len(connected) < args.clients and time.time() < deadline:
            await asyncio.sleep(0.1)
        if len(connected) < args.clients:
            print(f"only {len(connected)} of {args.clients} clients connected in 30 s")
        with_clients = rss_mib(server.pid)
        appended: dict[int, float] = {}
        for event in moves(args.moves):
            stored = log.append(event)
            appended[stored.seq] = time.time()
            await asyncio.sleep(args.interval)
        await asyncio.sleep(1.0)  # let the last event arrive
        peak = rss_mib(server.pid, "VmHWM")
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        server.terminate()
        server.wait(timeout=10)
        log.close()

    delays, lost = [], 0
    for got in received[:len(connected)]:
        for seq, at in appended.items():
            if seq in got:
                delays.append((got[seq] - at) * 1000)
            else:
                lost += 1
    delays.sort()
    p99 = delays[min(len(delays) - 1, int(0.99 * len(delays)))] if delays else float("nan")
    print(f"machine: {os.cpu_count()} CPUs, {platform.processor() or platform.machine()}, "
          f"Python {platform.python_version()}")
    print(f"clients connected: {len(connected)} of {args.clients}; events: {len(appended)}, "
          f"{args.interval:g} s apart; deliveries: {len(delays)}, lost: {lost}")
    if delays:
        print(f"append-to-receipt delay: p50 {statistics.median(delays):.0f} ms, "
              f"p99 {p99:.0f} ms, max {delays[-1]:.0f} ms")
    print(f"server memory (RSS): idle {idle:.0f} MiB, {len(connected)} clients {with_clients:.0f} MiB, "
          f"peak {peak:.0f} MiB")
    return 0 if lost == 0 and len(connected) == args.clients else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=500)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--interval", type=float, default=0.5, help="seconds between moves")
    return asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
