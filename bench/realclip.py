"""The real clip (three moves by real hands) filmed again by hostile cameras, recorded.

    python -m bench.realclip --videos 16 --folder /tmp/realclip

Each video is ``lab.realclip.hostile_clip(seed)``: the real overhead clip seen from a side of
the table (seed mod 4), at a slant, through a camera drawn from the lab's nuisance model.
Each is recorded with ``makhos record --men 12`` and compared with the clip's labelled
frames (``lab.realclip.plies_followed``): squares, sides and order. Prints one line per
video and how many games were recorded move-perfect, stopped short (every recorded move
right, some missing), with no game found, and with a wrong move. Skips where ../shared is
absent.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import resource
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

from bench.machine import describe as describe_machine
from lab.realclip import MEN, VIDEO, describe, hostile_clip, labelled_positions, plies_followed
from makhos.cli.main import main as makhos
from makhos.engine.pdn import read_game
from makhos.engine.position import Position


def record(video: Path) -> tuple[list[Position] | None, float]:
    """The positions `makhos record` makes of ``video`` (``None`` where it finds no game: it
    has said why on stderr), and its CPU seconds."""
    pdn = video.with_suffix(".pdn")
    before = time.process_time()
    with contextlib.redirect_stdout(io.StringIO()):
        code = makhos(["record", "--source", str(video), "--men", str(MEN), "-o", str(pdn)])
    cpu = time.process_time() - before
    if code != 0:
        return None, cpu
    return read_game(pdn.read_text(encoding="utf-8")).game.positions(), cpu


def _verdict(positions: list[Position] | None, truth: list[np.ndarray]) -> str:
    if positions is None:
        return "no game found"
    followed = plies_followed(positions, truth)
    if followed is None:
        return "WRONG: a recorded position is not the true one"
    if followed == len(truth) - 1:
        return "move-perfect"
    return f"stopped short: {followed} of {len(truth) - 1} plies, none wrong"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--videos", type=int, default=16)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--folder", type=Path, default=Path("data/realclip"))
    args = parser.parse_args(argv)
    if not VIDEO.is_file():
        print(f"skipped: {VIDEO} is absent")
        return 0
    print(describe_machine())
    truth = labelled_positions()
    plies = len(truth) - 1
    verdicts: Counter[str] = Counter()
    for seed in range(args.first_seed, args.first_seed + args.videos):
        video, drawn = hostile_clip(seed, args.folder)
        positions, cpu = record(video)
        verdict = _verdict(positions, truth)
        verdicts[verdict.split(":")[0]] += 1
        print(f"{seed:5d} {describe(drawn)}: {verdict} ({cpu:.1f} s CPU)", flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"move-perfect: {verdicts['move-perfect']}/{args.videos} (true game: {plies} plies); "
          f"stopped short with no wrong move: {verdicts['stopped short']}; no game found: "
          f"{verdicts['no game found']}; a wrong move recorded: {verdicts['WRONG']}; "
          f"peak memory {peak:.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
