"""Faults on rendered game videos: workers SIGKILLed and restarted, Redis killed mid-game.

    python -m bench.faults                  # 20 videos of 12 plies
    python -m bench.faults --videos 4 --plies 8 --seed 900

Each video is a game of its own (fresh seeds, held-out palettes and piece sets, never tuned
on), 640x360 at 30 fps, recorded by real ``makhos worker`` processes into one redis-server
of the bench's own (append-only, fsync always), each video as its own board:

- the first worker is SIGKILLed once the log holds a random number of its moves (1 to one
  less than the game's); the next run of the same command takes the video up where the log
  ends;
- on every other video Redis is SIGKILLed at a random moment of that next run and started
  again 1-4 s later (the worker holds its events in its outbox file meanwhile); a worker that
  ends while Redis is away exits 1 and the same command runs again to deliver them.

Per video it prints the true plies, the runs, and what the served game (the log folded as
the server shows it) has: plies lost, plies doubled, takebacks logged (nobody took one back:
each is false) and whether it is the true game, then the totals. A control tells reading
from faults: the same worker command, never stopped, on a board of its own
(``N-whole``): whether it serves the true game, and whether the faulted run serves the same. Goal: every served game
is the true game, 0 lost, 0 doubled, 0 false takebacks; the exit status is 1 when a game
read right without faults is not served right with them (faults, not reading, lost it).
"""

from __future__ import annotations

import argparse
import difflib
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bench.machine import describe
from lab.redis_server import BINARY, RedisServer
from makhos.engine.pdn import read_game, write_game
from makhos.events import EventKind, EventLog, open_log
from makhos.server.state import BoardState

RUNS = 5  # the most runs of one worker command before the bench gives the video up


@dataclass(frozen=True)
class Outcome:
    plies: int
    runs: int
    redis_killed: bool  # Redis was SIGKILLed while a worker of this video ran
    lost: int
    doubled: int
    takebacks: int
    true_game: bool
    whole_true: bool  # the same worker never stopped serves the true game (reading, not faults)
    as_whole: bool  # the faulted run serves what the never-stopped run serves


def render(folder: Path, seed: int, plies: int) -> tuple[Path, bool]:
    """The video of a fresh game, and whether its board is a quarter turned (the men on the
    light squares, as a camera at the side of the table sees them)."""
    from lab.render import sample_scene
    from lab.videos import script_game
    from lab.videos.render import write_video

    script = script_game(seed, plies=plies, irregularities=0)
    scene = sample_scene(np.random.default_rng(seed), held_out=True, elevation=(40.0, 80.0), size=(640, 360))
    return write_video(script, scene, folder / f"game-{seed}.mp4", seed=seed), scene.played == "light"


def moves_logged(log: EventLog, board: str) -> list[str]:
    return [e.move for e in log.read_board(board) if e.kind is EventKind.MOVE and e.move]


def served_pdn(log: EventLog, board: str) -> str:
    """The board's current game as the server folds it from the log."""
    state = BoardState(board)
    for event in log.read_board(board):
        state.apply(event)
    return write_game(state.current.game)


def worker(video: Path, board: str, url: str, outbox: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "makhos.cli.main", "worker", "--source", str(video),
                             "--board", board, "--redis", url, "--outbox", str(outbox)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def moves_now(url: str, board: str) -> int:
    """The moves in the log, or -1 while Redis is away."""
    try:
        return len(moves_logged(open_log(url), board))
    except Exception:  # noqa: BLE001 - any failure to reach Redis reads as "away"
        return -1


class RedisBounce(threading.Thread):
    """SIGKILL Redis 0.5-4 s from now, and start it again 1-4 s after that."""

    def __init__(self, redis: RedisServer, rng: np.random.Generator) -> None:
        super().__init__(daemon=True)
        self.redis = redis
        self.before, self.away = float(rng.uniform(0.5, 4.0)), float(rng.uniform(1.0, 4.0))
        self.killed_at = float("inf")  # time.monotonic() of the kill

    def run(self) -> None:
        time.sleep(self.before)
        self.redis.kill()
        self.killed_at = time.monotonic()
        time.sleep(self.away)
        self.redis.start()


def one_video(video: Path, board: str, redis: RedisServer, folder: Path,
              rng: np.random.Generator, bounce_redis: bool) -> Outcome:
    truth = read_game(video.with_suffix(".pdn").read_text()).game
    whole = f"{board}-whole"  # the control: the same command, never stopped
    control = worker(video, whole, redis.url, folder / f"outbox-{whole}.jsonl")
    control.communicate(timeout=900)
    outbox = folder / f"outbox-{board}.jsonl"
    kill_at = int(rng.integers(1, len(truth.plies)))
    first = worker(video, board, redis.url, outbox)
    while first.poll() is None and moves_now(redis.url, board) < kill_at:
        time.sleep(0.05)
    first.kill()
    first.wait()
    bounce = RedisBounce(redis, rng) if bounce_redis else None
    if bounce is not None:
        bounce.start()
    runs, redis_killed_mid_run = 1, False
    while runs < RUNS:
        runs += 1
        again = worker(video, board, redis.url, outbox)
        _, errors = again.communicate(timeout=900)
        redis_killed_mid_run |= bounce is not None and bounce.killed_at < time.monotonic()
        if again.returncode == 0:
            break
        print(f"    run {runs} exit {again.returncode}: {errors.decode().strip().splitlines()[-1:]}")
        if bounce is not None:
            bounce.join()
    if bounce is not None:
        bounce.join()
    log = open_log(redis.url)
    want = [str(p.move) for p in truth.plies]
    got = moves_logged(log, board)
    matched = sum(block.size for block in difflib.SequenceMatcher(a=want, b=got, autojunk=False).get_matching_blocks())
    takebacks = sum(e.kind is EventKind.TAKEBACK for e in log.read_board(board))
    served, true = served_pdn(log, board), write_game(truth)
    return Outcome(len(want), runs, redis_killed_mid_run, len(want) - matched, len(got) - matched, takebacks,
                   served == true, served_pdn(log, whole) == true, served == served_pdn(log, whole))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--videos", type=int, default=20)
    parser.add_argument("--plies", type=int, default=12)
    parser.add_argument("--seed", type=int, default=4100, help="the first video's seed (fresh: never tuned on)")
    args = parser.parse_args()
    if BINARY is None:
        print("bench.faults needs redis-server (apt-get install redis-server)")
        return 2
    print(describe())
    rng = np.random.default_rng(args.seed)
    outcomes: list[Outcome] = []
    with tempfile.TemporaryDirectory(prefix="bench-faults-") as tmp:
        folder = Path(tmp)
        redis = RedisServer(folder)
        redis.start()
        try:
            for i in range(args.videos):
                seed, board = args.seed + i, str(i + 1)
                video, turned = render(folder, seed, args.plies)
                outcome = one_video(video, board, redis, folder, rng, bounce_redis=i % 2 == 1)
                outcomes.append(outcome)
                print(f"  video {seed} (board {board}{', a quarter turned' if turned else ''}"
                      f"{', Redis killed mid-run' if outcome.redis_killed else ''}): {outcome.plies} plies, "
                      f"{outcome.runs} runs, lost {outcome.lost}, doubled {outcome.doubled}, "
                      f"takebacks {outcome.takebacks}, {'the true game' if outcome.true_game else 'NOT the true game'}"
                      f"; never stopped: {'the true game' if outcome.whole_true else 'NOT the true game'}"
                      f"{'' if outcome.as_whole else ', faults changed the game'}",
                      flush=True)
        finally:
            redis.kill()
    true = sum(o.true_game for o in outcomes)
    print(f"workers SIGKILLed: {len(outcomes)}; Redis SIGKILLed while a worker ran: "
          f"{sum(o.redis_killed for o in outcomes)}")
    print(f"served games equal to the true game: {true}/{len(outcomes)}; plies lost "
          f"{sum(o.lost for o in outcomes)}, doubled {sum(o.doubled for o in outcomes)}, false takebacks "
          f"{sum(o.takebacks for o in outcomes)}, of {sum(o.plies for o in outcomes)} plies")
    print(f"the same workers never stopped: {sum(o.whole_true for o in outcomes)}/{len(outcomes)} the true game; "
          f"faulted runs serving what the never-stopped run serves: {sum(o.as_whole for o in outcomes)}/{len(outcomes)}")
    read_right = [o for o in outcomes if o.whole_true]
    kept = sum(o.true_game for o in read_right)
    print(f"of the games read right without faults, served true with them: {kept}/{len(read_right)}")
    return 0 if kept == len(read_right) else 1


if __name__ == "__main__":
    sys.exit(main())
