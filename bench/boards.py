"""Boards per core: several `makhos worker`-like processes, each a live board at real-time pace.

    python -m bench.boards --boards 4 --video /work/cache/speed/speed-60000-16-30fps.mp4

Each board is its own process (as in a hall: one worker per camera) running the product's
camera loop (:class:`worker.loop.Worker`) on a replayed video played at its own pace, as a
camera delivers it (``CameraInput(speed=1.0)``: decoding included, frames handed on at
their time). Each process prints its CPU seconds, its peak RSS and whether it recorded the
game move-perfect; this one sums them up: the share of a core one live board takes, so how
many boards one core holds, and the memory a hall of N workers needs.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from bench.record import compare


def one_board(video: Path) -> dict[str, Any]:
    """Record ``video`` as a live board; the figures of this process."""
    import cv2

    from makhos.events import SQLiteLog
    from makhos.worker.inputs import CameraInput
    from makhos.worker.loop import Worker, WorkerConfig

    cv2.setNumThreads(1)
    log = SQLiteLog()
    worker = Worker(WorkerConfig(board="live", offline=True), log, CameraInput(str(video), speed=1.0))
    wall, cpu = time.monotonic(), time.process_time()
    worker.run(threading.Event())
    assert worker.session is not None  # run() started it
    result = compare(video, worker.session, log.read_board("live"))
    return {"cpu": time.process_time() - cpu, "wall": time.monotonic() - wall,
            "rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "perfect": result["perfect"], "false_moves": result["false_moves"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--video", type=Path, required=True, help="a rendered game video (truth beside it)")
    parser.add_argument("--boards", type=int, default=4)
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one_board(args.video)), flush=True)
        return 0
    command = [sys.executable, "-m", "bench.boards", "--one", "--video", str(args.video)]
    boards = [subprocess.Popen(command, stdout=subprocess.PIPE, text=True) for _ in range(args.boards)]
    results = [json.loads(board.communicate()[0].strip().splitlines()[-1]) for board in boards]
    share = sum(r["cpu"] / r["wall"] for r in results) / len(results)
    perfect = sum(r["perfect"] for r in results)
    print(f"{args.boards} live boards on {args.video.name}: {perfect}/{args.boards} move-perfect, "
          f"false moves {sum(r['false_moves'] for r in results)}")
    print(f"  CPU per board: {100 * share:.1f} % of a core (mean over the run's wall time) = "
          f"{1 / share:.1f} boards per core")
    print(f"  peak RSS per worker process: {max(r['rss_mib'] for r in results):.0f} MiB "
          f"(min {min(r['rss_mib'] for r in results):.0f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
