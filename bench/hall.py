"""A tournament hall through Redis: many boards, many viewers, two server processes.

    python3 -m bench.hall                       # 100 boards, 500 SSE clients, 20x speed
    python3 -m bench.hall --boards 20 --clients 100 --plies 16

Everything runs on loopback (127.0.0.1, free ports) and is torn down at the end:

- a redis-server of its own (append-only file, fsync on every append: the durable setting;
  ``--fsync everysec`` to compare);
- two ``makhos serve --redis`` processes, serving the same boards;
- ``--clients`` SSE viewers (asyncio, in this process) on ``/api/board/<id>/events``, spread
  evenly over the boards and alternately over the two servers, connected before play starts;
- the boards' workers replaying recorded games (random legal games, seeded) at ``--speed``
  through the real worker code path without cameras (:class:`worker.loop.Worker`, its
  BoardSession, tracker and outbox): all boards but one in ``--shards`` processes of many
  Worker threads each, and one board in its own ``makhos worker`` process, as in a hall.
  In a hall the workers run on the camera machines, not beside the servers; here they
  share the servers' cores, so they run at ``--worker-nice`` (default 10) to stand for
  that: the servers' delay is measured, not the workers' queue for a core. ``--worker-nice
  0`` measures them all at one priority.

When every worker has finished its game (or ``--limit`` seconds have passed) and the
viewers have drained, it checks every viewer against its board's stream in Redis: events
lost, duplicated, out of order (all must be 0), and the delay from append (Redis's clock,
stored with the entry) to the viewer's receipt of the event's ``id:`` line, as p50/p99/max
over all (viewer, event) pairs. CPU and memory: the lone ``makhos worker`` process as
measured, and each shard's per board (its CPU and RSS divided by its boards).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from lab.redis_server import RedisServer, free_port
from makhos.events import EventLog, GameEvent

ROOT = Path(__file__).resolve().parents[1]
ID_LINE = re.compile(rb"^id: (\d+)")
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def rss_mib(pid: int, field_name: str = "VmRSS") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field_name + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def write_games(folder: Path, boards: int, plies: int) -> list[Path]:
    from makhos.engine.game import Game
    from makhos.engine.pdn import write_game

    paths = []
    for board in range(1, boards + 1):
        rng = np.random.default_rng(board)
        game = Game()
        while game.result() is None and len(game.plies) < plies:
            moves = game.legal_moves()
            game.play(moves[rng.integers(len(moves))])
        path = folder / f"board-{board}.pdn"
        path.write_text(write_game(game), encoding="utf-8")
        paths.append(path)
    return paths


# ---------------------------------------------------------------- a shard of workers


def run_shard(args: argparse.Namespace) -> int:
    """Many boards' Workers in this process, one thread and one Redis connection pool each."""
    from makhos.events import open_log
    from makhos.worker.inputs import open_input
    from makhos.worker.loop import Worker, WorkerConfig

    stop = threading.Event()
    threads = []
    ply_wall = args.seconds_per_ply / args.speed
    for board in args.shard.split(","):
        source = open_input(f"replay:{Path(args.games) / f'board-{board}.pdn'}", speed=args.speed,
                            seconds_per_ply=args.seconds_per_ply)
        worker = Worker(WorkerConfig(board), open_log(args.redis), source)
        # Games of a hall do not move in step: board b starts b/boards of a ply late.
        offset = ply_wall * int(board) / args.boards
        threads.append(threading.Thread(target=lambda w=worker, t=offset: (stop.wait(t), w.run(stop)),
                                        name=f"board-{board}"))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return 0


# ---------------------------------------------------------------- viewers


@dataclass
class Viewer:
    board: str
    port: int
    received: list[tuple[int, float]] = field(default_factory=list)
    connected: bool = False


async def follow(viewer: Viewer, stop: asyncio.Event) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", viewer.port)
    writer.write(f"GET /api/board/{viewer.board}/events HTTP/1.1\r\nHost: bench\r\n"
                 f"Accept: text/event-stream\r\n\r\n".encode())
    await writer.drain()
    try:
        while not stop.is_set():
            line = await reader.readline()
            if not line:
                return
            if line.startswith(b"retry:"):
                viewer.connected = True
            match = ID_LINE.match(line)
            if match:
                viewer.received.append((int(match.group(1)), time.time()))
    finally:
        writer.close()


# ---------------------------------------------------------------- the hall


class Sampler:
    """Peak RSS and CPU seconds of the hall's processes, sampled every 0.5 s."""

    def __init__(self, processes: dict[str, subprocess.Popen[bytes]]) -> None:
        self.processes = processes
        self.cpu = {name: 0.0 for name in processes}
        self.rss = {name: 0.0 for name in processes}

    def sample(self) -> None:
        for name, process in self.processes.items():
            try:
                self.cpu[name] = cpu_seconds(process.pid)
                self.rss[name] = max(self.rss[name], rss_mib(process.pid))
            except (FileNotFoundError, ProcessLookupError, ValueError):
                pass  # ended: its last sample stands


def wait_listening(port: int, timeout: float = 30) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"no server on port {port} after {timeout} s")


def python(*args: str, nice: int = 0) -> list[str]:
    return (["nice", "-n", str(nice)] if nice else []) + [sys.executable, *args]


async def run(args: argparse.Namespace) -> int:
    workdir = Path(tempfile.mkdtemp(prefix="bench-hall-"))
    games = write_games(workdir, args.boards, args.plies)
    boards = [str(b) for b in range(1, args.boards + 1)]
    profile = workdir / "hall.json"  # the servers know the boards before their first event
    profile.write_text(json.dumps({"event": "bench", "boards": [{"id": b} for b in boards]}))
    redis_server = RedisServer(workdir, fsync=args.fsync)
    redis_server.start()
    assert redis_server.process is not None
    redis_process, url = redis_server.process, redis_server.url
    ports = [free_port(), free_port()]
    servers = {f"server {i + 1}": subprocess.Popen(
        python("-m", "makhos.cli.main", "serve", "--redis", url, "--port", str(port),
               "--hall-profile", str(profile)),
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for i, port in enumerate(ports)}
    workers: dict[str, subprocess.Popen[bytes]] = {}
    stop = asyncio.Event()
    try:
        for port in ports:
            wait_listening(port)
        viewers = [Viewer(boards[i % len(boards)], ports[i % 2]) for i in range(args.clients)]
        tasks = [asyncio.create_task(follow(v, stop)) for v in viewers]
        deadline = time.time() + 30
        while sum(v.connected for v in viewers) < len(viewers) and time.time() < deadline:
            await asyncio.sleep(0.1)
        connected = sum(v.connected for v in viewers)

        started = time.time()
        lone, sharded = boards[-1], boards[:-1]
        workers["makhos worker"] = subprocess.Popen(
            python("-m", "makhos.cli.main", "worker", "--source", f"replay:{games[-1]}", "--board", lone,
                   "--redis", url, "--speed", str(args.speed), "--ply-seconds", str(args.seconds_per_ply),
                   nice=args.worker_nice),
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shard_boards = {}
        for k in range(args.shards):
            part = sharded[k::args.shards]
            if part:
                name = f"shard {k + 1}"
                shard_boards[name] = len(part)
                workers[name] = subprocess.Popen(
                    python(__file__, "--shard", ",".join(part), "--boards", str(args.boards),
                           "--redis", url, "--games", str(workdir),
                           "--speed", str(args.speed), "--seconds-per-ply", str(args.seconds_per_ply),
                           nice=args.worker_nice),
                    cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        sampler = Sampler({**workers, **servers})
        while any(w.poll() is None for w in workers.values()) and time.time() - started < args.limit:
            sampler.sample()
            await asyncio.sleep(0.5)
        played = time.time() - started
        unfinished = [name for name, w in workers.items() if w.poll() is None]

        from makhos.events import open_log

        log = open_log(url)
        appended = append_times(url, boards)
        expected = {b: [e.seq for e in log.read_board(b)] for b in boards}
        drain = time.time() + 10
        while time.time() < drain and any(
                [s for s, _ in v.received][-1:] != expected[v.board][-1:] for v in viewers):
            await asyncio.sleep(0.1)
        redis_rss = rss_mib(redis_process.pid)
    finally:
        stop.set()
        for process in [*workers.values(), *servers.values()]:
            if process.poll() is None:
                process.terminate()
        for process in [*workers.values(), *servers.values()]:
            process.wait(timeout=10)
        redis_process.terminate()
        redis_process.wait(timeout=10)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    shutil.rmtree(workdir, ignore_errors=True)

    lost = duplicated = disordered = 0
    delays = []
    for viewer in viewers:
        seqs = [s for s, _ in viewer.received]
        lost += len(set(expected[viewer.board]) - set(seqs))
        duplicated += len(seqs) - len(set(seqs))
        disordered += sum(1 for a, b in zip(seqs, seqs[1:]) if b <= a)
        delays += [(at - appended[s]) * 1000 for s, at in viewer.received if s in appended]
    if args.delays:  # for looking at when the slow deliveries happened
        pairs = [[round(appended[s] - started, 3), round((at - appended[s]) * 1000, 1)]
                 for v in viewers for s, at in v.received if s in appended]
        args.delays.write_text(json.dumps(pairs))
    delays.sort()
    events = sum(len(v) for v in expected.values())
    p99 = delays[min(len(delays) - 1, int(0.99 * len(delays)))] if delays else float("nan")
    print(f"machine: {os.cpu_count()} CPUs, {platform.processor() or platform.machine()}, "
          f"Python {platform.python_version()}, 1-min load {os.getloadavg()[0]:.1f} at the end")
    print(f"boards: {args.boards} ({args.plies}-ply games, a ply every {args.seconds_per_ply:g} s of game "
          f"time at {args.speed:g}x, workers at nice {args.worker_nice}); played in {played:.1f} s; "
          f"unfinished workers: {unfinished or 'none'}")
    print(f"viewers connected: {connected} of {args.clients}, over 2 servers; events in the log: {events}; "
          f"deliveries: {len(delays)}")
    print(f"lost: {lost}, duplicated: {duplicated}, out of order: {disordered}")
    if delays:
        print(f"append-to-receipt delay: p50 {statistics.median(delays):.0f} ms, p99 {p99:.0f} ms, "
              f"max {delays[-1]:.0f} ms")
    cpu = sampler.cpu
    print(f"lone `makhos worker` (1 board): CPU {cpu['makhos worker']:.2f} s "
          f"({100 * cpu['makhos worker'] / played:.1f} % of a core), peak RSS "
          f"{sampler.rss['makhos worker']:.0f} MiB")
    for name, count in shard_boards.items():
        share, rss = 100 * cpu[name] / played / count, sampler.rss[name]
        print(f"{name} ({count} boards): CPU {cpu[name]:.1f} s = {share:.1f} % of a core per board; "
              f"peak RSS {rss:.0f} MiB = {rss / count:.1f} MiB per board")
    for name in servers:
        print(f"{name}: CPU {cpu[name]:.1f} s, peak RSS {sampler.rss[name]:.0f} MiB")
    print(f"redis-server RSS at the end: {redis_rss:.0f} MiB; the {args.clients} viewers (this process): "
          f"CPU {sum(os.times()[:2]):.1f} s")
    ok = lost == duplicated == disordered == 0 and connected == args.clients and not unfinished
    return 0 if ok else 1


def append_times(url: str, boards: list[str]) -> dict[int, float]:
    """seq -> Redis's clock when the entry was appended (field ``t`` of each stream entry)."""
    import redis

    client = redis.Redis.from_url(url, decode_responses=True)
    times: dict[int, float] = {}
    for board in boards:
        for entry_id, fields in client.xrange(f"makhos:board:{board}") or []:
            if entry_id is not None and fields is not None:
                times[int(str(entry_id).split("-")[0])] = float(fields["t"])
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=100)
    parser.add_argument("--clients", type=int, default=500)
    parser.add_argument("--speed", type=float, default=20.0, help="replay speed (default 20x)")
    parser.add_argument("--plies", type=int, default=30, help="plies per recorded game")
    parser.add_argument("--seconds-per-ply", type=float, default=20.0,
                        help="game time per ply (default 20 s; the rules allow 120)")
    parser.add_argument("--shards", type=int, default=4, help="processes for all boards but one")
    parser.add_argument("--worker-nice", type=int, default=10,
                        help="niceness of the worker processes (default 10; 0: same as the servers)")
    parser.add_argument("--delays", type=Path, help="write [append time - start, delay ms] pairs as JSON")
    parser.add_argument("--fsync", choices=("always", "everysec"), default="always",
                        help="Redis appendfsync (default always: an answered append is on disk)")
    parser.add_argument("--limit", type=float, default=120.0, help="seconds of play before giving up")
    parser.add_argument("--shard", help=argparse.SUPPRESS)  # internal: run these boards' workers
    parser.add_argument("--redis", help=argparse.SUPPRESS)
    parser.add_argument("--games", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.shard:
        return run_shard(args)
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
