"""Memory per board as one game goes on (#42: a board stays within 300 MiB): what a board
holds must not grow without bound with the plies.

    python -m bench.growth --video /tmp/bg/long/speed-60001-60-15fps.mp4

One long rendered game (``bench.speed.make_video`` with ``plies`` 60) is recorded through the
product's camera loop (:class:`worker.loop.Worker`, as fast as it decodes, as
:func:`bench.record.record` does). At every tenth
ply recorded, and at the end, it prints the process's RSS and anonymous memory
(:func:`bench.boards.memory`) beside what the board keeps that grows with the game: the
reader's lessons and refits kept with the game (``READER_ADAPTED`` events: each accepted
board's 32 embeddings, which a restarted worker reads back, and which the session also holds),
and the events logged. A board's own state (the reader's memory of labelled squares, the
tracker's caches, the gate's views) is bounded by construction; the slope of RSS per ply
after the first plies says whether anything else grows.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one thread: the session's budget is one core

import argparse
import threading
import time
from pathlib import Path

import numpy as np

from bench.boards import memory
from bench.machine import describe
from bench.record import compare
from makhos.events import SQLiteLog
from makhos.events.details import ReaderAdapted
from makhos.session import BoardSession
from makhos.worker.inputs import CameraInput
from makhos.worker.loop import Worker, WorkerConfig

#: Plies between two samples.
EVERY = 10


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--video", type=Path, required=True, help="a rendered game video (truth beside it)")
    args = parser.parse_args()
    print(f"# {describe()}, load {os.getloadavg()[0]:.1f}")
    print("ply  video_s  rss_mib  anonymous_mib  events  kept_by_reader  kept_mib")
    samples: list[tuple[int, float]] = []
    sampled = [-1]
    log = SQLiteLog()  # the worker writes to it through its outbox

    def sample(session: BoardSession) -> None:
        game, last = session.tracker.game, session.last
        plies = 0 if game is None else len(game.plies)
        if plies == sampled[0] or plies % EVERY or last is None:
            return
        sampled[0] = plies
        show(session, plies, last.time)

    def show(session: BoardSession, plies: int, time: float) -> None:
        events = log.read_board(session.tracker.board_id)
        kept = [e.detail.adaptation for e in events if isinstance(e.detail, ReaderAdapted)]
        rss, anonymous, _ = memory()
        samples.append((plies, rss))
        print(f"{plies:3d}  {time:7.1f}  {rss:7.0f}  {anonymous:13.0f}  {len(events):6d}  {len(kept):14d}"
              f"  {sum(map(len, kept)) / 2**20:8.2f}", flush=True)

    worker = Worker(WorkerConfig(board="bench"), log, CameraInput(str(args.video)), sample)
    cpu = time.process_time()
    worker.run(threading.Event())
    cpu = time.process_time() - cpu
    session = worker.session
    assert session is not None  # run() started it
    game = session.tracker.game
    show(session, 0 if game is None else len(game.plies), session.last.time if session.last else 0.0)
    result = compare(args.video, session, log.read_board("bench"))
    later = np.array([(p, r) for p, r in samples if p >= EVERY], float).reshape(-1, 2)
    slope = float(np.polyfit(later[:, 0], later[:, 1], 1)[0]) if len(later) >= 2 else float("nan")
    print(f"move-perfect {result['perfect']}; {cpu:.0f} s CPU; RSS per ply from ply "
          f"{EVERY} on: {1024 * slope:.0f} KiB; peak RSS {max(r for _, r in samples):.0f} MiB")


if __name__ == "__main__":
    main()
