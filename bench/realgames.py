"""`makhos record` on real whole games, move by move.

    python -m bench.realgames [--folder /tmp/realgames]

The hand-labelled games of ``bench/realgames.json`` (the robot's webcam photos of
``../shared/realdata/julie-robot-webcam``, see ``lab.realgames``): each made into a video (a
photo held 2 s, a hand over the board or a cross-fade between photos), the first position set
up by the referee's FEN, recorded with ``makhos record --resume`` and scored ply by ply:
plies right before the first difference / recorded / true, invented, missing, shifted, the
irregular plies standing with their alert, and the alerts raised in all. Then alexkassil's
clip (three real moves from the start, its own labels): the plies followed. Skips what
../shared does not hold.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from bench.machine import describe
from bench.realclip import record as record_clip
from lab.realclip import VIDEO, labelled_positions, plies_followed
from lab.realgames import games, record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=Path("data/realgames"))
    args = parser.parse_args(argv)
    args.folder.mkdir(parents=True, exist_ok=True)
    print(describe())
    for game in games():
        if not game.present:
            print(f"{game.name}: skipped, its photos are absent")
            continue
        before = time.process_time()
        _, result = record(game, args.folder)
        print(f"{game.name}: {result.line()} ({time.process_time() - before:.1f} s CPU)", flush=True)
    if VIDEO.is_file():
        truth = labelled_positions()
        positions, cpu = record_clip(VIDEO)
        followed = None if positions is None else plies_followed(positions, truth)
        said = "no game found" if positions is None else (
            "a wrong position recorded" if followed is None else f"{followed} right")
        print(f"alexkassil clip: {said} / {len(truth) - 1} true ({cpu:.1f} s CPU)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
