"""How a king stands apart from a man of its own side on its own square, learnt once on
rendered games (#42): the direction a game's king refit (``vision.learning.refit``) is pulled
toward while the game has shown it only a few kings.

    python -m lab.reader.king_apart [--scenes 48] [--out models/board_reader_king_apart.json]

A game's refit fits only ``e - man(side, square)``: a stack is a piece taller than a man
*there*. With a handful of kings, all dark and on a few squares, it stays close to where it
starts, and the generic king head's direction was trained to tell a king from the board's
mean piece, not from a man on the same square. This fits that direction on rendered games of
the training palettes only (never the held-out ones ``bench.learning`` reads), seen from
30-50 degrees at 480x270 with men 0.10-0.20 of a square high: each scene's start is adapted
on, a man of each side on each square is drawn from the start's men alone (as early in a
game, ``vision.learning.side_squares``), then boards of men and kings of both sides on
squares of every row are read against them. It depends on the network's embeddings, so the
file names the network it was fit for and is refit whenever ``make model`` makes a new one.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import json
from dataclasses import replace
from pathlib import Path

import numpy as np

from lab.render import Renderer
from lab.render.scene import sample_scene
from makhos import models
from makhos.vision.learning import Cues, balanced, features, side_squares
from makhos.vision.logistic import ridge_logistic
from makhos.vision.reader import KING_APART_KIND, PieceReader

#: The 8-man start in square order.
START = "l" * 8 + "." * 16 + "d" * 8
#: Boards read per scene after its start.
BOARDS = 12
#: Pull of the fit toward no direction at all (in units of the summed, class-balanced log-loss).
STRENGTH = 10.0
#: First scene seed: far from the seeds the benches render.
SEED = 5000


def board(rng: np.random.Generator) -> str:
    """Men and kings of both sides on random squares: 6 men a side, 1-3 kings a side."""
    squares = rng.permutation(32)
    out = ["."] * 32
    counts = (("l", 6), ("d", 6), ("L", int(rng.integers(1, 4))), ("D", int(rng.integers(1, 4))))
    k = 0
    for label, n in counts:
        for s in squares[k:k + n]:
            out[s] = label
        k += n
    return "".join(out)


def scene_pieces(network: PieceReader, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """One rendered game's pieces after its start: how each stands apart from a man of its
    side on its square (drawn from the start's men), and whether it is a king."""
    rng = np.random.default_rng(seed)
    scene = sample_scene(rng, held_out=False, elevation=(30.0, 50.0), size=(480, 270))
    scene = replace(scene, pieces=replace(scene.pieces, height=float(rng.uniform(0.10, 0.20))))
    renderer = Renderer(scene)
    start = renderer.render({k + 1: c for k, c in enumerate(START) if c != "."}, seed=seed)
    crops = network.crops(start.image, start.corners, start.played)
    labels = np.array(list(START))
    men = side_squares(features(network, crops, Cues(True))[labels != "."], labels[labels != "."],
                       np.flatnonzero(labels != "."))
    if men is None:
        raise ValueError("a start has men")
    apart, kings = [], []
    for k in range(BOARDS):
        truth = board(rng)
        frame = renderer.render({s + 1: c for s, c in enumerate(truth) if c != "."}, seed=seed * 100 + k)
        e = features(network, network.crops(frame.image, frame.corners, frame.played), Cues(True))
        for square, label in enumerate(truth):
            if label != ".":
                apart.append(e[square] - men[0 if label in "lL" else 1, square])
                kings.append(label in "LD")
    return np.array(apart), np.array(kings, float)


def fit(apart: np.ndarray, kings: np.ndarray, strength: float = STRENGTH) -> np.ndarray:
    """(D + 1,) weights then bias of the king's log-odds on ``apart``, kings and men weighing
    alike (a game's refit adds its own prior)."""
    return ridge_logistic(apart, kings, np.zeros(apart.shape[1] + 1), strength, weights=balanced(kings))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", type=int, default=48)
    parser.add_argument("--out", type=Path, default=models.path(models.KING_APART))
    args = parser.parse_args()
    network = PieceReader()
    parts = [scene_pieces(network, SEED + k) for k in range(args.scenes)]
    apart, kings = np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
    weights = fit(apart, kings)
    right = ((apart @ weights[:-1] + weights[-1] > 0) == (kings > 0.5)).mean()
    args.out.write_text(json.dumps({"kind": KING_APART_KIND, "model": network.model,
                                    "weights": [round(float(w), 7) for w in weights]}) + "\n")
    print(f"{len(kings)} pieces ({int(kings.sum())} kings) of {args.scenes} scenes; "
          f"{100 * right:.1f} % told apart on them; written to {args.out}")


if __name__ == "__main__":
    main()
