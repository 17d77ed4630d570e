"""A worker SIGKILLed the moment its SQLite log shows a move, then started again (#42 note).

    python -m bench.restarts                       # 20 kills after the 2nd move, polled every 2 ms
    python -m bench.restarts --runs 10 --moves 6 --poll 0.05

The video is the hall test's (``tests/hall/test_restarts.py``: seed 7301, 640x360, the board
a quarter turned). Each run is a real ``makhos worker`` into a SQLite log with its outbox
file, SIGKILLed once the log holds ``--moves`` moves (the test polls every 50 ms; a shorter
poll kills nearer the append), then the same command again. A kill that lands after the log
took an event and before the outbox's spool let it go leaves the event in both, and the
next run sends the spool first: it is counted as "in the window". Per run it prints whether
the log then holds the true game, each move once, with no takeback and the served game equal
to the true one. Goal: every run true, the kills in the window included. Load beside it is
the caller's: pin it with ``taskset -c 1`` beside a busy loop on that core to widen the window.
"""

from __future__ import annotations

import argparse
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from bench.faults import moves_logged, served_pdn
from bench.machine import describe
from makhos.engine.pdn import read_game, write_game
from makhos.events import EventKind, open_log

SEED = 7301  # the hall test's video


def render(folder: Path) -> Path:
    from lab.render import sample_scene
    from lab.videos import script_game
    from lab.videos.render import write_video

    script = script_game(SEED, plies=12, irregularities=0)
    scene = sample_scene(np.random.default_rng(SEED), held_out=True, elevation=(40.0, 80.0),
                         size=(640, 360), played="light")
    return write_video(script, scene, folder / "game.mp4", seed=SEED)


def worker(video: Path, db: Path, spool: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "makhos.cli.main", "worker", "--source", str(video),
                             "--board", "1", "--events", str(db), "--outbox", str(spool)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def one_run(video: Path, folder: Path, moves: int, poll: float) -> tuple[bool, bool, list[str]]:
    """Whether the kill landed in the window, whether the log then holds the true game, and
    the moves it holds."""
    db, spool = folder / "events.db", folder / "outbox.jsonl"
    first = worker(video, db, spool)
    log = open_log(str(db))
    while len(moves_logged(log, "1")) < moves and first.poll() is None:
        time.sleep(poll)
    first.send_signal(signal.SIGKILL)
    first.wait()
    held = [line for line in spool.read_text().splitlines() if line.strip()] if spool.exists() else []
    stored = {e.with_seq(0).to_json() for e in log.read_board("1")}
    window = bool(held) and held[0] in stored
    again = worker(video, db, spool)
    again.communicate(timeout=600)
    truth = read_game(video.with_suffix(".pdn").read_text()).game
    log = open_log(str(db))
    logged = moves_logged(log, "1")
    true = (again.returncode == 0 and logged == [str(p.move) for p in truth.plies]
            and not any(e.kind is EventKind.TAKEBACK for e in log.read_board("1"))
            and served_pdn(log, "1") == write_game(truth))
    return window, true, logged


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--moves", type=int, default=2, help="kill once the log holds this many moves")
    parser.add_argument("--poll", type=float, default=0.002, help="seconds between looks at the log")
    args = parser.parse_args()
    print(describe())
    windows = trues = 0
    with tempfile.TemporaryDirectory(prefix="bench-restarts-") as tmp:
        video = render(Path(tmp))
        for run in range(args.runs):
            folder = Path(tmp) / f"run-{run}"
            folder.mkdir()
            window, true, logged = one_run(video, folder, args.moves, args.poll)
            windows, trues = windows + window, trues + true
            print(f"  run {run}: {'in the window, ' if window else ''}"
                  f"{'the true game' if true else 'NOT the true game: ' + ' '.join(logged)}", flush=True)
    print(f"runs {args.runs}, killed after move {args.moves}, polled every {args.poll * 1000:g} ms: "
          f"kills between the log's append and the spool's rewrite {windows}; true games {trues}/{args.runs}")
    return 0 if trues == args.runs else 1


if __name__ == "__main__":
    sys.exit(main())
