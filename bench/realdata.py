"""Agreement of the square classifier with the labelled real webcam frames.

Frames: ``../shared/realdata/julie-robot-webcam/<set-up>/W+B.jpg`` (outside the repository),
corners per set-up in ``realdata_corners.json`` beside this script. The labels come from
that project's own detector (a draft, not checked by hand), so agreement is a floor on
accuracy rather than accuracy itself. Skips cleanly when ``../shared`` is absent.

    python bench/realdata.py [--show-errors]
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.squares import square_at  # noqa: E402
from vision.classifier import SquareClassifier, labels_of, model_path  # noqa: E402

ROOT = Path(__file__).resolve().parents[2] / "shared" / "realdata" / "julie-robot-webcam"
CORNERS = Path(__file__).with_name("realdata_corners.json")


def labels_from_name(name: str) -> str:
    """32 labels in square order from that project's 'W+B' masks.

    Bit 4j + i is row j from the bottom of their rectified board and column x = 2i + j % 2;
    our corners put their row j at our row 7 - j and their x at our column.

    >>> labels_from_name("4293918720+4095")  # the 12-man start
    'llllllllllll........dddddddddddd'
    """
    light, dark = (int(v) for v in name.split("+"))
    out = ["."] * 32
    for mask, label in ((light, "l"), (dark, "d")):
        for bit in range(32):
            if mask >> bit & 1:
                j, i = divmod(bit, 4)
                out[square_at(7 - j, 2 * i + j % 2) - 1] = label
    return "".join(out)


@dataclass(frozen=True)
class Agreement:
    """Per set-up: frames, share of squares read as labelled, the same when a man read as
    a king of its colour counts as right (occupancy and side only), share of whole frames."""

    setup: str
    frames: int
    squares: float
    sides: float
    boards: float
    errors: tuple[str, ...]


def evaluate(classifier: SquareClassifier, root: Path = ROOT, corners_file: Path = CORNERS
             ) -> list[Agreement]:
    """Read every labelled frame of every set-up in the corners file."""
    setups = {k: v for k, v in json.loads(corners_file.read_text()).items() if not k.startswith("_")}
    results = []
    for setup, info in setups.items():
        corners = np.asarray(info["corners"], float)
        right = sides = boards = frames = 0
        errors = []
        for path in sorted((root / setup).glob("*+*.jpg")):
            truth = labels_from_name(path.stem)
            seen = labels_of(classifier.read(cv2.imread(str(path)), corners, info["played"]))
            agree = sum(a == b for a, b in zip(truth, seen))
            right += agree
            sides += sum(a == b.lower() for a, b in zip(truth, seen))
            boards += agree == 32
            frames += 1
            if agree < 32:
                errors.append(f"{path.name}: " + ", ".join(
                    f"{sq}:{t}->{s}" for sq, (t, s) in enumerate(zip(truth, seen), 1) if t != s))
        results.append(Agreement(setup, frames, right / (32 * frames), sides / (32 * frames),
                                 boards / frames, tuple(errors)))
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--show-errors", action="store_true")
    parser.add_argument("--model", type=Path, default=None, help="default: the committed network")
    args = parser.parse_args()
    if not ROOT.exists():
        print(f"skipped: {ROOT} is absent")
        return 0
    results = evaluate(SquareClassifier(model_path(args.model)))
    for r in results:
        print(f"{r.setup:45s} {r.frames:3d} frames  squares {100 * r.squares:6.2f} %  "
              f"occupancy+side {100 * r.sides:6.2f} %  boards {100 * r.boards:6.2f} %")
        if args.show_errors:
            for line in r.errors:
                print("    " + line)
    frames = sum(r.frames for r in results)
    squares = sum(r.squares * r.frames for r in results) / frames
    sides = sum(r.sides * r.frames for r in results) / frames
    boards = sum(r.boards * r.frames for r in results) / frames
    print(f"{'all':45s} {frames:3d} frames  squares {100 * squares:6.2f} %  "
          f"occupancy+side {100 * sides:6.2f} %  boards {100 * boards:6.2f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main())
