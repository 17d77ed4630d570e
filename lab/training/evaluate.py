"""Figures of the square classifier on the held-out synthetic test split.

The test split (``lab.training.dataset.TEST``) uses held-out board palettes and piece sets, seeds
never used in training, elevations 35-90 degrees and the renderer's true corners (board
localisation is measured elsewhere). ``python -m lab.training.evaluate`` prints the figures and
writes them beside it (``evaluation.json``), counted with :class:`lab.tally.Tally`.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from lab.training.dataset import EMPTY, KING, TEST, TEST_SEEDS, build
from lab.tally import Tally
from makhos.vision.classifier import SquareClassifier
from makhos.vision.reading import LABELS, labels_of
from makhos.vision.rectify import SquareCrops

RESULT_PATH = Path(__file__).with_name("evaluation.json")


def true_labels(data: dict[str, np.ndarray]) -> np.ndarray:
    """The label (``vision.classifier.LABELS``) of every crop's truth."""
    kind, light = data["cls"], data["light"].astype(bool)
    return np.array(LABELS)[np.where(kind == EMPTY, 0, 1 + 2 * (kind == KING) + (~light))]


def evaluate(classifier: SquareClassifier, data: dict[str, np.ndarray]) -> Tally:
    """Classify every board of the split (32 crops each, in square order) and count errors."""
    boards = data["board"]
    starts = np.flatnonzero(np.r_[True, boards[1:] != boards[:-1]])
    if not np.all(np.diff(np.r_[starts, len(boards)]) == 32):
        raise ValueError("every test board must have all 32 squares (no hands in the test split)")
    truth = true_labels(data)
    crops, sight = data["crops"], data["sight"]
    tally = Tally()
    for s in starts:
        read = labels_of(classifier.classify(SquareCrops(crops[s:s + 32], sight[s:s + 32])))
        tally.add(truth[s:s + 32], np.array(list(read)), name=f"board {boards[s]}")
    return tally


def figures(tally: Tally) -> dict[str, float]:
    """What ``models/evaluation.json`` keeps: the error rates as fractions."""
    return {"boards": tally.boards, "squares": tally.squares, "square_error": tally.square_error,
            "man_king_error": tally.kind_wrong / max(tally.kinds, 1),
            "occupancy_side_error": (tally.occupancy_wrong + tally.side_wrong) / max(tally.squares, 1),
            "board_accuracy": tally.board_accuracy}


def load_or_render(path: Path, scenes: int) -> dict[str, np.ndarray]:
    """The saved test split, or a fresh render of it when the file is absent."""
    if path.exists():
        return dict(np.load(path))
    return build(TEST_SEEDS[:scenes], TEST)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=Path("data/test.npz"))
    parser.add_argument("--model", type=Path, default=None)
    parser.add_argument("--scenes", type=int, default=len(TEST_SEEDS))
    parser.add_argument("--out", type=Path, default=RESULT_PATH)
    args = parser.parse_args()
    classifier = SquareClassifier(args.model) if args.model else SquareClassifier()
    tally = evaluate(classifier, load_or_render(args.data, args.scenes))
    print(tally.line())
    args.out.write_text(json.dumps(figures(tally), indent=1) + "\n")


if __name__ == "__main__":
    main()
