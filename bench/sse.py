"""SSE fan-out: thousands of viewers on one board, delay from event append to receipt,
the server's memory and CPU, and whether the pages and the referee still answer meanwhile.

    python3 -m bench.sse                          # 5,000 clients, 20 moves, 0.5 s apart
    python3 -m bench.sse --clients 500 --moves 10
    python3 -m bench.sse --redis --servers 2      # two servers sharing a Redis hall

It runs ``makhos serve`` as a separate process on loopback (127.0.0.1, a free port), opens
``--clients`` SSE streams on ``/api/board/1/events`` (asyncio, in this process, a few
hundred connections at a time), then appends moves to the SQLite log from this process, as
the recorder would, noting the wall time of each append. Every client notes when each
event's ``id:`` reaches it. The delay of an event at a client is receipt time minus append
time (same machine, same clock). While the moves are fed, a probe asks in turn for the hall
API (``/api/hall``), a page (``/board/1``) and a referee action (``set_players``, with the
token) and times each answer.

It prints: clients connected, streams dropped (connected but closed by the server before
the end; must be 0), events lost (must be 0), p50/p99/max delay over all (client, event)
pairs, the server's resident memory (idle, with every client, peak) and CPU (share of one
core while the moves were fed), and the probes' answer times (median and worst of each).
Bounded in time: connecting gives up after 60 s; an event that has not reached a client
``--drain`` seconds (10) after the last move counts as lost.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

from makhos.engine import Rules
from makhos.engine.game import Game
from makhos.events import EventKind, GameEvent, SQLiteLog
from makhos.events.redis_log import RedisLog
from makhos.events.details import GameStarted

ID_LINE = re.compile(rb"^id: (\d+)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


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


ID_ANYWHERE = re.compile(rb"(?:^|\n)id: (\d+)\n")


async def client(port: int, after: int, received: dict[int, float], connected: list[int],
                 dropped: list[int], stop: asyncio.Event) -> None:
    """One viewer: reads the stream in chunks and notes when each ``id:`` line arrives."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        return
    writer.write(f"GET /api/board/1/events HTTP/1.1\r\nHost: bench\r\n"
                 f"Accept: text/event-stream\r\nLast-Event-ID: {after}\r\n\r\n".encode())
    counted = False
    tail = b""
    try:
        await writer.drain()
        while not stop.is_set():
            chunk = await reader.read(65536)
            if not chunk:
                if counted and not stop.is_set():
                    dropped.append(1)
                return
            now = time.time()
            text = tail + chunk
            if not counted and b"retry:" in text:
                counted = True
                connected.append(1)
            cut = text.rfind(b"\n\n")  # whole messages only; the rest waits for the next chunk
            for match in ID_ANYWHERE.finditer(text, 0, cut + 2 if cut >= 0 else 0):
                received.setdefault(int(match.group(1)), now)
            tail = text[cut + 2:] if cut >= 0 else text
            tail = tail[-4096:]
    except (OSError, asyncio.IncompleteReadError):
        if counted and not stop.is_set():
            dropped.append(1)
    finally:
        writer.close()


async def viewers(port: int, after: int, count: int, batch: int) -> None:
    """A client process (``--viewers``): open ``count`` streams, say ``connected N`` on
    stdout, read until stdin closes, then print what each received as one JSON line."""
    import json

    stop = asyncio.Event()
    connected: list[int] = []
    dropped: list[int] = []
    received: list[dict[int, float]] = [dict() for _ in range(count)]
    tasks = []
    deadline = time.time() + 60
    for first in range(0, count, batch):  # a few hundred SYNs at a time
        tasks += [asyncio.create_task(client(port, after, received[i], connected, dropped, stop))
                  for i in range(first, min(first + batch, count))]
        while len(connected) < len(tasks) and time.time() < deadline:
            await asyncio.sleep(0.05)
    print(f"connected {len(connected)}", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)  # until told
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    print(json.dumps({"connected": len(connected), "dropped": len(dropped),
                      "received": [got for got in received if got]}), flush=True)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def probe(port: int, token: str) -> dict[str, float]:
    """One round of the probe: the hall API, a page, a referee action; seconds each."""
    import http.client

    asks = {"hall API": ("GET", "/api/hall", None, {}),
            "page": ("GET", "/board/1", None, {}),
            "referee action": ("POST", "/api/referee/1/action",
                               b'{"action": "set_players", "first": "Somchai", "second": "Malee"}',
                               {"X-Referee-Token": token, "Content-Type": "application/json"})}
    times = {}
    for name, (method, path, body, headers) in asks.items():
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        started = time.perf_counter()
        try:
            conn.request(method, path, body=body, headers=headers)
            answer = conn.getresponse()
            answer.read()
            times[name] = time.perf_counter() - started if answer.status < 300 else float("inf")
        except OSError:
            times[name] = float("inf")
        finally:
            conn.close()
    return times


def raise_open_files_limit() -> None:
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def answer(proc: subprocess.Popen[str]) -> str:
    """The next line a viewer process printed (it was started with stdout=PIPE)."""
    assert proc.stdout is not None
    return proc.stdout.readline()


def run(args: argparse.Namespace) -> int:
    import json
    import threading

    raise_open_files_limit()
    workdir = Path(tempfile.mkdtemp(prefix="bench-sse-"))
    redis_server = None
    log: SQLiteLog | RedisLog
    if args.redis:  # a redis-server of its own, as bench/hall.py starts it
        from lab.redis_server import RedisServer

        redis_server = RedisServer(workdir)
        redis_server.start()
        log = RedisLog(redis_server.url)
        source = ["--redis", redis_server.url]
    else:
        db = workdir / "events.db"
        log = SQLiteLog(db)
        source = ["--events", str(db)]
    start = log.append(GameEvent("1", EventKind.GAME_STARTED, time.time(),
                                 fen=Game().position.fen(), detail=GameStarted(Rules())))
    ports = [free_port() for _ in range(args.servers)]
    port = ports[0]  # the probes ask the first server
    token = "bench-token"
    servers = [subprocess.Popen(
        [sys.executable, *(["-m", "cProfile", "-o", args.profile] if args.profile and i == 0 else []),
         "-m", "makhos.cli.main", "serve", *source, "--port", str(p), "--token", token],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) for i, p in enumerate(ports)]
    probes: list[dict[str, float]] = []
    procs: list[subprocess.Popen[str]] = []
    results: list[dict[str, Any]] = []
    try:
        for p in ports:
            for _ in range(100):
                try:
                    socket.create_connection(("127.0.0.1", p), timeout=0.2).close()
                    break
                except OSError:
                    time.sleep(0.1)
        idle = sum(rss_mib(server.pid) for server in servers)
        began = time.time()
        shares = [args.clients // args.procs + (i < args.clients % args.procs) for i in range(args.procs)]
        procs = [subprocess.Popen([sys.executable, "-m", "bench.sse", "--viewers", str(share),
                                   "--port", str(ports[i % len(ports)]), "--after", str(start.seq),
                                   "--batch", str(max(1, args.batch // args.procs))],
                                  cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
                 for i, share in enumerate(shares)]
        connected = sum(int(answer(p).split()[1] or 0) for p in procs)
        connect_s = time.time() - began
        if connected < args.clients:
            print(f"only {connected} of {args.clients} clients connected in 60 s")
        with_clients = sum(rss_mib(server.pid) for server in servers)
        appended: dict[int, float] = {}
        cpu_before, feed_started = sum(cpu_seconds(server.pid) for server in servers), time.time()
        probing = threading.Event()

        def probe_loop() -> None:
            while not probing.is_set():
                probes.append(probe(port, token))
                probing.wait(args.interval)

        prober = threading.Thread(target=probe_loop)
        prober.start()
        for event in moves(args.moves):
            stored = log.append(event)
            appended[stored.seq] = time.time()
            time.sleep(args.interval)
        probing.set()
        prober.join()
        cpu = (sum(cpu_seconds(server.pid) for server in servers) - cpu_before) / (time.time() - feed_started)
        time.sleep(args.drain)  # what has not arrived by then counts as lost
        peak = sum(rss_mib(server.pid, "VmHWM") for server in servers)
        for proc in procs:
            assert proc.stdin is not None  # opened with stdin=PIPE
            proc.stdin.close()
        for proc in procs:
            results.append(json.loads(answer(proc)))
            proc.wait(timeout=30)
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
        for server in servers:
            server.send_signal(signal.SIGINT)  # makhos serve ends cleanly (a profile is written)
        for server in servers:
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
        log.close()
        if redis_server is not None:
            redis_server.kill()

    delays, lost = [], 0
    dropped = sum(r["dropped"] for r in results)
    for result in results:
        for got in result["received"]:
            got = {int(seq): at for seq, at in got.items()}
            for seq, at in appended.items():
                if seq in got:
                    delays.append((got[seq] - at) * 1000)
                else:
                    lost += 1
    delays.sort()
    p99 = delays[min(len(delays) - 1, int(0.99 * len(delays)))] if delays else float("nan")
    print(f"machine: {os.cpu_count()} CPUs, {platform.processor() or platform.machine()}, "
          f"Python {platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print(f"clients connected: {connected} of {args.clients} in {connect_s:.1f} s "
          f"({args.procs} client processes, {args.servers} server process(es) over "
          f"{'a Redis hall' if args.redis else 'one SQLite log'}); streams dropped: {dropped}; events: {len(appended)}, "
          f"{args.interval:g} s apart; deliveries: {len(delays)}, lost: {lost}")
    if delays:
        print(f"append-to-receipt delay: p50 {statistics.median(delays):.0f} ms, "
              f"p99 {p99:.0f} ms, max {delays[-1]:.0f} ms")
    print(f"server memory (RSS, all servers): idle {idle:.0f} MiB, {connected} clients "
          f"{with_clients:.0f} MiB, peak {peak:.0f} MiB; server CPU while fed: {100 * cpu:.0f} % "
          f"of one core; machine load average {os.getloadavg()[0]:.1f}")
    worst = 0.0
    for name in ("hall API", "page", "referee action"):
        times = sorted(p[name] for p in probes)
        if times:
            worst = max(worst, times[-1])
            print(f"{name} during the load: {len(times)} asked, median {1000 * statistics.median(times):.0f} ms, "
                  f"worst {1000 * times[-1]:.0f} ms")
    ok = lost == 0 and not dropped and connected == args.clients and worst < 1.0
    return 0 if ok else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=5000)
    parser.add_argument("--profile", metavar="FILE", help="run the server under cProfile, "
                        "writing its profile here (the loop's thread only)")
    parser.add_argument("--batch", type=int, default=250, help="clients connecting at once")
    parser.add_argument("--procs", type=int, default=2, help="client processes (default 2)")
    parser.add_argument("--drain", type=float, default=10.0,
                        help="seconds after the last move for the stragglers (default 10)")
    parser.add_argument("--redis", action="store_true",
                        help="a Redis hall (a redis-server of the bench's own) instead of SQLite")
    parser.add_argument("--servers", type=int, default=1,
                        help="makhos serve processes over the one log (default 1; clients "
                             "alternate between them)")
    parser.add_argument("--viewers", type=int, help=argparse.SUPPRESS)  # a client process
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--after", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--interval", type=float, default=0.5, help="seconds between moves")
    args = parser.parse_args()
    if args.viewers is not None:
        raise_open_files_limit()
        asyncio.run(viewers(args.port, args.after, args.viewers, args.batch))
        return 0
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
