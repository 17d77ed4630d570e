"""Real whole games recorded through a SIGKILL at a random moment, then ``--resume``, and
through a recording cut in two files (#42).

    python -m bench.realrestarts [--kills 3] [--cuts 2] [--seed 0] [--game log7] [--folder data/realgames]

The games of ``bench.realgames`` (the same videos and referee's starts). Each game is first
recorded whole as its own ``makhos record`` process, which gives its score and how long its
run takes. Then, ``--kills`` times, the same process is killed (SIGKILL: no flush, no
goodbye) at a random moment between a quarter and nine tenths of such a run (its first
second or so is Python starting up): a hand over the board, a cross-fade, a settled board,
wherever it lands. Then ``makhos record --resume`` takes the game up from the log's
end. Each line says where the kill fell (plies logged by then) and how the resumed game
scores. Then, ``--cuts`` times, the video is cut in two files at a random frame (the
camera's next file: re-encoded, its clock starting at 0 again; every second cut turns it
a quarter, as a camera set up again on another side of the table) and the second file is
recorded with ``--resume`` after the first. Goal: every resumed game scores as the whole run
does (its plies, and its irregular plies alerted), with no alert more.
"""

from __future__ import annotations

import argparse
import dataclasses
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from bench.machine import describe
from lab.realgames import (BOARD, RealGame, Score, cut_video, game_video, games, record, record_arguments,
                           referee_start, scored)
from makhos.events import EventKind, JSONLinesLog


def run(arguments: list[str], kill_after: float | None = None) -> tuple[int | None, float]:
    """``makhos`` with ``arguments`` as a process, SIGKILLed after ``kill_after`` seconds if
    it runs that long: its exit status (None if killed) and its wall seconds."""
    began = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "makhos.cli.main", *arguments],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        code: int | None = process.wait(timeout=kill_after)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGKILL)
        process.wait()
        code = None
    return code, time.perf_counter() - began


def recorded(game: RealGame, video: Path, folder: Path, name: str,
             kill_after: float | None = None) -> tuple[Score | None, int, float]:
    """The game recorded from the referee's start (killed after ``kill_after`` seconds and
    resumed, where given): its score (None where a run failed), the plies the log held at the
    kill, and the first run's wall seconds."""
    log, pdn = referee_start(game, folder / f"{name}.jsonl"), folder / f"{name}.pdn"
    arguments = record_arguments(game, video, log, pdn)
    code, seconds = run(arguments, kill_after)
    at_kill = sum(e.kind is EventKind.MOVE for e in JSONLinesLog(log).read_board(BOARD))
    if code is None:
        code, _ = run(arguments)
    return (scored(game, log, pdn) if code == 0 else None), at_kill, seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=3, help="killed runs per game")
    parser.add_argument("--cuts", type=int, default=2, help="recordings cut in two per game")
    parser.add_argument("--seed", type=int, default=0, help="of the moments of the kills")
    parser.add_argument("--game", default="", help="only the games whose name holds this")
    parser.add_argument("--folder", type=Path, default=Path("data/realgames"))
    args = parser.parse_args(argv)
    args.folder.mkdir(parents=True, exist_ok=True)
    print(describe())
    rng = np.random.default_rng(args.seed)
    outcomes: list[bool] = []

    def said(how: str, resumed: Score | None, whole: Score | None) -> None:
        outcomes.append(resumed is not None and whole is not None and resumed.alerts <= whole.alerts
                        and dataclasses.replace(resumed, alerts=0) == dataclasses.replace(whole, alerts=0))
        print(f"  {how}: {resumed.line() if resumed else 'FAILED'}"
              f"{'' if outcomes[-1] else '  <- not as the whole run'}", flush=True)

    for game in (g for g in games() if args.game in g.name):
        if not game.present:
            print(f"{game.name}: skipped, its photos are absent")
            continue
        video = game_video(game, args.folder / f"{game.name}.mp4")
        whole, _, seconds = recorded(game, video, args.folder, f"{game.name}-whole")
        print(f"{game.name}: whole run {whole.line() if whole else 'FAILED'} ({seconds:.1f} s)", flush=True)
        for _ in range(args.kills):
            moment = float(rng.uniform(0.25, 0.9)) * seconds
            resumed, at_kill, _ = recorded(game, video, args.folder, f"{game.name}-killed", moment)
            said(f"killed at {moment:.1f} s ({at_kill} plies logged), resumed", resumed, whole)
        for turns in range(args.cuts):
            fraction = float(rng.uniform(0.1, 0.9))
            code, in_two = record(game, args.folder, cut_video(video, fraction, turns % 2))
            said(f"cut at {fraction:.0%} of the video, the second file{' a quarter turned' * (turns % 2)} "
                 "resumed", in_two if code == 0 else None, whole)
    print(f"resumed games scoring as their whole run: {sum(outcomes)}/{len(outcomes)}")
    return 0 if all(outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
