"""Figures of the square classifier on the held-out synthetic test split.

The test split (``lab.training.dataset.TEST``) uses held-out board palettes and piece sets, seeds
never used in training, elevations 35-90 degrees and the renderer's true corners (board
localisation is measured elsewhere). ``python -m lab.training.evaluate`` prints the figures and
writes them to ``models/evaluation.json``.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from lab.training.dataset import EMPTY, KING, TEST, TEST_SEEDS, build
from makhos.vision.classifier import SquareClassifier
from makhos.vision.rectify import SquareCrops

RESULT_PATH = Path(__file__).with_name("evaluation.json")


@dataclass(frozen=True)
class Figures:
    """Error rates as fractions; ``board_accuracy`` is the share of frames read entirely right."""

    frames: int
    squares: int
    square_error: float
    man_king_error: float  # among squares holding a piece: man read as king or king as man
    light_dark_error: float  # among squares holding a piece: wrong side
    board_accuracy: float


def true_classes(data: dict[str, np.ndarray]) -> np.ndarray:
    """Index into ``vision.classifier.CLASSES`` of every crop's true label."""
    kind, light = data["cls"], data["light"].astype(bool)
    return np.where(kind == EMPTY, 0, 1 + 2 * (kind == KING) + (~light))


def read_as_king(probabilities: np.ndarray) -> np.ndarray:
    """Where 5-class probabilities (..., 5) put a king above a man, whatever the colour."""
    p = np.asarray(probabilities)
    return p[..., 3] + p[..., 4] > p[..., 1] + p[..., 2]


def evaluate(classifier: SquareClassifier, data: dict[str, np.ndarray]) -> Figures:
    """Classify every board of the split (32 crops each, in square order) and count errors."""
    boards = data["board"]
    starts = np.flatnonzero(np.r_[True, boards[1:] != boards[:-1]])
    if not np.all(np.diff(np.r_[starts, len(boards)]) == 32):
        raise ValueError("every test board must have all 32 squares (no hands in the test split)")
    truth = true_classes(data)
    crops, sight = data["crops"], data["sight"]
    predicted = np.concatenate([classifier.classify(SquareCrops(crops[s:s + 32], sight[s:s + 32]))
                                for s in starts])
    guess = predicted.argmax(1)
    piece = truth != 0
    king_truth = truth >= 3
    king_guess = read_as_king(predicted)
    light_truth = np.isin(truth, (1, 3))
    light_guess = predicted[:, 1] + predicted[:, 3] > predicted[:, 2] + predicted[:, 4]
    wrong = guess != truth
    return Figures(
        frames=len(starts), squares=len(truth), square_error=float(wrong.mean()),
        man_king_error=float((king_truth != king_guess)[piece].mean()),
        light_dark_error=float((light_truth != light_guess)[piece].mean()),
        board_accuracy=float(1 - wrong.reshape(-1, 32).any(1).mean()),
    )


def report(figures: Figures) -> str:
    return (f"{figures.frames} frames, {figures.squares} squares: "
            f"per-square error {100 * figures.square_error:.3f} %, "
            f"man-vs-king error {100 * figures.man_king_error:.3f} %, "
            f"light-vs-dark error {100 * figures.light_dark_error:.3f} %, "
            f"whole-board accuracy {100 * figures.board_accuracy:.2f} %")


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
    figures = evaluate(classifier, load_or_render(args.data, args.scenes))
    print(report(figures))
    args.out.write_text(json.dumps(asdict(figures), indent=1) + "\n")


if __name__ == "__main__":
    main()
