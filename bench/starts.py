"""The start position found on real photographs, in all four quarter turns of the picture.

    python -m bench.starts

Every labelled photo of ../shared/realdata whose board is a 12-man start (12 men a side on
the three rows at each end, no king) is turned 0, 1, 2 and 3 quarter turns, as a camera behind
either player or at either side of the table would see it, and played to the pipeline as a
still video (``vision.pipeline.BoardReader`` with the piece reader, refit on the start once
it is found, or ``--model``'s square classifier; the board found by the pipeline itself, no
corners given). Prints per photo and turn whether the numbering was
fixed from the start (``found``) and whether the settled reading is the start (occupancy and
side; man/king not scored), then the totals. Skips when ../shared is absent.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from bench.machine import describe
from lab.realdata import ROOT, RealPhoto, collections
from makhos.engine import Position, Rules
from makhos.engine.starts import start_boards
from makhos.calibration.reader import square_reader
from makhos.vision.pipeline import BoardReader
from makhos.vision.reading import LABELS
from makhos.vision.squares import SquareReader
from makhos.vision.start_check import board_labels

FPS = 15
RULES = Rules(men_per_side=12)


def is_start(photo: RealPhoto) -> bool:
    """12 men a side on the three rows at each end, and no king (a photo of kings on the
    back rows is a set-up of its own, not the start)."""
    cells = photo.cells
    light, dark = cells == "l", cells == "d"
    if light.sum() != 12 or dark.sum() != 12 or np.isin(cells, list("LD")).any():
        return False
    rows = np.arange(8)[:, None] * np.ones((1, 8), int)
    ends = {(int(rows[light].max()) <= 2, int(rows[dark].min()) >= 5),
            (int(rows[dark].max()) <= 2, int(rows[light].min()) >= 5)}
    return (True, True) in ends


def read_turned(reader: SquareReader, image: np.ndarray) -> tuple[bool, str | None]:
    """Whether the numbering came from the start, and the settled reading's labels."""
    pipeline = BoardReader(reader, starts=start_boards(RULES))
    labels = None
    for frame in range(3 * FPS):
        result = pipeline.process(image, frame / FPS)
        if result.reading is not None:
            labels = "".join(LABELS[k] for k in result.reading.labels())
    return not pipeline.seeking_start, labels


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", type=Path, help="read with this square classifier file instead")
    args = parser.parse_args()
    if not ROOT.is_dir():
        print(f"skipped: {ROOT} is absent")
        return 0
    print(describe())
    start = Position.start(RULES)
    want = board_labels(start)
    def reader() -> SquareReader:
        return square_reader(model=args.model)

    found = read = turns = 0
    for name, photos in collections().items():
        for photo in filter(is_start, photos):
            image = photo.image()
            marks = []
            for k in range(4):
                numbered, labels = read_turned(reader(), np.ascontiguousarray(np.rot90(image, k)))
                right = labels is not None and labels.lower() == want
                found, read, turns = found + numbered, read + right, turns + 1
                marks.append(("found" if numbered else "     ") + ("+read" if right else "     "))
            print(f"  {name[:24]:24s} {photo.path.name[:28]:28s} " + "  ".join(marks), flush=True)
    print(f"numbering fixed from the start: {found}/{turns} turned photos; "
          f"read as the start: {read}/{turns}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
