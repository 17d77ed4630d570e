"""The disk a hall's worker takes for the pictures it keeps: one rectified board per ply
(``makhos worker --frames``, ``session.kept.KeptPlies``), against issue 45's budget of
50 MB a board a day.

    python -m bench.kept --plies 60 --folder /tmp/kept-bench
    python -m bench.kept --video ../shared/realdata/alexkassil/clip.mp4 --men 8

First a worker watches a game (a rendered one of ``--plies`` plies, or ``--video``) with a
folder, as in a hall, and the bench prints the pictures' bytes a ply and the worker's CPU
for keeping them. Then a day of play on the busiest board (``--hours`` of a ply every
``--ply-seconds``, in games of the game's plies) is kept with the frames the camera gave
at each ply of that game, and the bench prints the day's bytes unbounded and the most the
board's folder held, with the oldest games pruned beyond the budget.
"""

from __future__ import annotations

import argparse
import shutil
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import numpy as np

from bench.machine import describe as describe_machine
from bench.report import rendered_game
from makhos.engine.game import Ply
from makhos.events import SQLiteLog
from makhos.session.kept import KEPT_BYTES, KeptPlies
from makhos.worker.inputs import CameraInput
from makhos.worker.loop import Worker, WorkerConfig


class _Watched(KeptPlies):
    """The worker's observer, with its CPU and the frame it kept each ply from."""

    def __init__(self, folder: Path) -> None:
        super().__init__(folder, "1")
        self.spent = 0.0
        self.shots: dict[int, tuple[np.ndarray, Any]] = {}  # plies -> (image, FrameResult)
        self.plies: list[Ply] = []

    def observe(self, session: Any) -> None:
        start = time.thread_time()
        kept = len(self.pictures)
        super().observe(session)
        self.spent += time.thread_time() - start
        if len(self.pictures) > kept and session.image is not None:
            self.shots[len(self.pictures)] = (session.image.copy(), session.last)
            self.plies = list(self._plies)


def folder_bytes(folder: Path) -> int:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())


def watch(video: Path, folder: Path, men: int | None) -> _Watched:
    """A worker over ``video`` into a log and a pictures folder, as ``makhos worker --frames``."""
    from makhos.engine import Rules

    kept = _Watched(folder / "frames")
    rules = Rules(men_per_side=men) if men else Rules()
    worker = Worker(WorkerConfig(board="1", rules=rules, offline=True), SQLiteLog(folder / "events.db"),
                    CameraInput(str(video)), kept.observe)
    worker.run(threading.Event())
    return kept


def day(kept: _Watched, folder: Path, plies_a_day: int) -> tuple[int, int, int]:
    """A day of games as this one, kept in a fresh folder: the bytes written, the most the
    folder held at a game's end, and the games it holds at the day's end."""
    board = KeptPlies(folder, "1")
    game_plies = len(kept.plies)
    games = -(-plies_a_day // game_plies)
    written = most = 0
    for number in range(1, games + 1):
        logged = SimpleNamespace(current=SimpleNamespace(number=number),
                                 games=[SimpleNamespace(number=n) for n in range(1, number + 1)])
        for ply in range(0, game_plies + 1):
            image, result = kept.shots.get(ply, next(iter(kept.shots.values())))
            board.observe(cast(Any, SimpleNamespace(last=result, image=image, tracker=SimpleNamespace(
                game=SimpleNamespace(plies=kept.plies[:ply]), logged_game=logged))))
        written += folder_bytes(board.root / f"game-{number}")
        most = max(most, folder_bytes(folder))
    return written, most, len(list(board.root.iterdir()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--video", type=Path, help="a video to watch (default: a rendered game)")
    parser.add_argument("--men", type=int, help="men a side, for a video of a 12-man game")
    parser.add_argument("--plies", type=int, default=60, help="of the rendered game")
    parser.add_argument("--seed", type=int, default=24, help="of the rendered game and scene")
    parser.add_argument("--hours", type=float, default=10.0, help="of play on the board in a day")
    parser.add_argument("--ply-seconds", type=float, default=10.0,
                        help="seconds a ply on the busiest board (blitz-like; the move clock allows 120)")
    parser.add_argument("--folder", type=Path, default=Path("/tmp/kept-bench"))
    args = parser.parse_args(argv)
    shutil.rmtree(args.folder, ignore_errors=True)
    args.folder.mkdir(parents=True)
    video = args.video or rendered_game(args.seed, args.plies, args.folder)
    before = time.process_time()
    kept = watch(video, args.folder, args.men)
    cpu = time.process_time() - before
    pictures = sorted((kept.root / "game-1").glob("ply-*.jpg"))
    sizes = [p.stat().st_size for p in pictures]
    if not sizes:
        raise SystemExit(f"the worker kept no picture of {video}: no game found")
    game_bytes = folder_bytes(kept.root / "game-1")
    plies_a_day = round(args.hours * 3600 / args.ply_seconds)
    written, most, games = day(kept, args.folder / "day", plies_a_day)
    print(describe_machine())
    print(f"{video}: {len(kept.plies)} plies, {len(pictures)} pictures kept")
    print(f"a ply: JPEG mean {np.mean(sizes) / 1e3:.1f} KB, max {max(sizes) / 1e3:.1f} KB; with its "
          f".json {game_bytes / len(kept.plies) / 1e3:.1f} KB")
    print(f"keeping them: {kept.spent:.2f} s CPU of the worker's {cpu:.1f} s "
          f"({100 * kept.spent / cpu:.1f} %)")
    print(f"a day of {args.hours:g} h at a ply every {args.ply_seconds:g} s: {plies_a_day} plies, "
          f"{written / 1e6:.1f} MB written; the board's folder held at most {most / 1e6:.1f} MB "
          f"(budget {KEPT_BYTES / 1e6:.1f} MB), {games} games kept at the day's end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
