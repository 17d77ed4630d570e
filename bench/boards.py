"""Boards per core and memory per board: live boards at real-time pace, a process each or
several in one process.

    python -m bench.boards --boards 4 --video /work/cache/speed/speed-60000-16-30fps.mp4
    python -m bench.boards --boards 4 --one-process --video /work/cache/speed/speed-60000-16-30fps.mp4

Every board runs the product's camera loop (:class:`worker.loop.Worker`) on the same
rendered video played at its own pace, as a camera delivers it (``CameraInput(speed=1.0)``:
decoding included, frames handed on at their time), and is compared with the video's true
game (move-perfect or not).

- A process per board (as a hall of ``makhos worker --board N``): each prints its CPU
  seconds, its peak RSS and its PSS at the end (what it holds of the shared libraries
  counted once, shared between the workers); this one sums them up.
- ``--one-process`` (as ``makhos worker --board 1 --board 2 ...``, :mod:`worker.boards`):
  the boards start ``--stagger`` seconds apart in one process, sharing the networks
  (:class:`vision.networks.Networks`); the process's memory is sampled as the boards are
  added, so what each added board costs is read off the same run: RSS and its anonymous
  part (the process's own, not the libraries' pages) with 1, 2, ... N boards running.

Real-time pace: a board keeps it when it reaches the video's end within a second of the
video's length (a board that falls behind reads its frames late, and its run grows longer).
CPU per board: its CPU seconds over the video's seconds (the share of a core a board at
real-time pace takes, whether or not a loaded machine let it keep the pace), so boards per
core is its inverse. In one process the boards decode on one thread each, as
``makhos worker`` with several boards does.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from bench.record import compare, video_fps

#: A board keeps real-time pace when it ends within this many seconds of the video's length.
PACE_S = 1.0


def memory() -> tuple[float, float, float]:
    """The process's RSS, its anonymous part and its PSS, in MiB (Linux)."""
    fields: dict[str, float] = {}
    for line in Path("/proc/self/smaps_rollup").read_text().splitlines()[1:]:
        name, value, *_ = line.split()
        fields[name.rstrip(":")] = int(value) / 1024
    return fields["Rss"], fields["Anonymous"], fields["Pss"]


def video_seconds(video: Path) -> float:
    import cv2

    capture = cv2.VideoCapture(str(video))
    frames = capture.get(cv2.CAP_PROP_FRAME_COUNT)
    capture.release()
    return float(frames) / video_fps(video)


def watch(video: Path, board: str, networks: Any, decoder_threads: int | None = None) -> dict[str, Any]:
    """Record ``video`` as the live board ``board``; its wall time and whether it was
    recorded move-perfect."""
    from makhos.events import SQLiteLog
    from makhos.worker.inputs import CameraInput
    from makhos.worker.loop import Worker, WorkerConfig

    log = SQLiteLog()
    worker = Worker(WorkerConfig(board=board, offline=True), log,
                    CameraInput(str(video), speed=1.0, networks=networks, decoder_threads=decoder_threads))
    wall = time.monotonic()
    worker.run(threading.Event())
    assert worker.session is not None  # run() started it
    result = compare(video, worker.session, log.read_board(board))
    return {"wall": time.monotonic() - wall, "perfect": result["perfect"],
            "false_moves": result["false_moves"]}


def one_board(video: Path) -> dict[str, Any]:
    """A process with one board: its figures."""
    import cv2

    from makhos.vision.networks import Networks

    cv2.setNumThreads(1)
    networks = Networks()
    networks.piece_reader()  # loaded before the clock starts, as in one process
    cpu = time.process_time()
    figures = watch(video, "live", networks)
    rss, anonymous, pss = memory()
    return {**figures, "cpu": time.process_time() - cpu, "pss_mib": pss,
            "rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def process_per_board(args: argparse.Namespace, length: float) -> list[dict[str, Any]]:
    command = [sys.executable, "-m", "bench.boards", "--one", "--video", str(args.video)]
    boards = [subprocess.Popen(command, stdout=subprocess.PIPE, text=True) for _ in range(args.boards)]
    results = [json.loads(board.communicate()[0].strip().splitlines()[-1]) for board in boards]
    share = sum(r["cpu"] for r in results) / (len(results) * length)
    print(f"  a process per board. CPU per board: {100 * share:.1f} % of a core = "
          f"{1 / share:.1f} boards per core")
    print(f"  peak RSS per worker process: {max(r['rss_mib'] for r in results):.0f} MiB "
          f"(min {min(r['rss_mib'] for r in results):.0f}); PSS at the end (shared pages "
          f"counted once): {sum(r['pss_mib'] for r in results) / len(results):.0f} MiB per worker")
    return results


def one_process(args: argparse.Namespace, length: float) -> list[dict[str, Any]]:
    """The boards in this process, started ``args.stagger`` seconds apart; the memory with
    each number of boards running is the largest sampled while that many ran."""
    import cv2

    from makhos.vision.networks import Networks

    cv2.setNumThreads(1)
    networks = Networks()
    networks.piece_reader()
    base = memory()
    running: list[int] = [0]
    peaks: dict[int, tuple[float, float]] = {}
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.25):
            rss, anonymous, _ = memory()
            old = peaks.get(running[0], (0.0, 0.0))
            peaks[running[0]] = (max(old[0], rss), max(old[1], anonymous))

    results: list[dict[str, Any]] = []

    def board(n: int) -> None:
        results.append(watch(args.video, f"board-{n}", networks, decoder_threads=1))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    cpu = time.process_time()
    threads = []
    for n in range(args.boards):
        if n:
            time.sleep(args.stagger)
        threads.append(threading.Thread(target=board, args=(n,)))
        threads[-1].start()
        running[0] = n + 1
    for thread in threads:
        thread.join()
    cpu = time.process_time() - cpu
    done.set()
    share = cpu / (args.boards * length)
    print(f"  one process. CPU per board: {100 * share:.1f} % of a core = {1 / share:.1f} boards "
          f"per core (decoding included)")
    print(f"  memory before any board (Python, libraries, the piece reader's network): "
          f"RSS {base[0]:.0f} MiB, anonymous {base[1]:.0f} MiB")
    counts = [k for k in sorted(peaks) if k]
    print("  boards running  " + "  ".join(f"{k:>9}" for k in counts))
    print("  peak RSS        " + "  ".join(f"{peaks[k][0]:>5.0f} MiB" for k in counts))
    print("  peak anonymous  " + "  ".join(f"{peaks[k][1]:>5.0f} MiB" for k in counts))
    last, first = counts[-1], counts[0]
    if last > first:
        growth = (peaks[last][0] - peaks[first][0]) / (last - first)
        print(f"  each added board: {growth:.0f} MiB of RSS "
              f"({(peaks[last][1] - peaks[first][1]) / (last - first):.0f} anonymous); "
              f"{peaks[last][0] / last:.0f} MiB a board in all with {last} boards")
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--video", type=Path, required=True, help="a rendered game video (truth beside it)")
    parser.add_argument("--boards", type=int, default=4)
    parser.add_argument("--one-process", action="store_true",
                        help="all boards in this process, as makhos worker --board 1 --board 2 ...")
    parser.add_argument("--stagger", type=float, default=8.0,
                        help="seconds between the boards' starts with --one-process (default 8)")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one_board(args.video)), flush=True)
        return 0
    length = video_seconds(args.video)
    print(f"{args.boards} live boards on {args.video.name} ({length:.0f} s); {os.cpu_count()} CPUs, "
          f"load {os.getloadavg()[0]:.1f} at the start", flush=True)
    results = one_process(args, length) if args.one_process else process_per_board(args, length)
    lags = [r["wall"] - length for r in results]
    print(f"  {sum(r['perfect'] for r in results)}/{args.boards} move-perfect, false moves "
          f"{sum(r['false_moves'] for r in results)}; real-time pace kept by "
          f"{sum(lag <= PACE_S for lag in lags)}/{args.boards} (lag at the end {min(lags):.1f}-"
          f"{max(lags):.1f} s); load {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
