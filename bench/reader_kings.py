"""Kings and the adaptation on rendered scenes the piece reader (``vision.reader``) never
trained on. (``bench.kings`` measures the square classifier's kings.)

Scenes of the renderer's held-out palettes (``models.dataset.TEST``: palettes, boards and
piece sets kept out of training, 35-90 degrees elevation). Per scene the 8-man start is
rendered and adapted on, then random positions with kings (up to 60 % of the pieces) are
read zero-shot and adapted. Printed: squares wrong, men read as kings, kings read as men
(of the pieces whose occupancy and side were right), and the mean probability of king that
the reader gives to true kings and to true men (a doubt is a probability, not an error).

    python -m bench.reader_kings [--scenes 40] [--model M --heads H]
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
from pathlib import Path

import numpy as np

from lab.training.dataset import TEST, TEST_SEEDS, scene_shots
from lab.render import Renderer
from lab.tally import Tally
from makhos.vision.reader import DEFAULT_HEADS, DEFAULT_MODEL, PieceReader
from makhos.vision.reading import labels_of

#: Squares 1-8 light men, 25-32 dark men: the 8-man start in square order.
START = "l" * 8 + "." * 16 + "d" * 8


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenes", type=int, default=40)
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL)
    parser.add_argument("--heads", type=Path, default=DEFAULT_HEADS)
    args = parser.parse_args()
    reader = PieceReader(args.model, args.heads)
    squares = {mode: Tally() for mode in ("zero-shot", "adapted")}
    # per mode: men, men read as kings, kings, kings read as men, summed P(king) of men,
    # summed P(king) of kings (of the pieces whose occupancy and side were read right)
    stats = {mode: np.zeros(6) for mode in ("zero-shot", "adapted")}
    for seed in list(TEST_SEEDS)[: args.scenes]:
        scene, shots = scene_shots(seed, TEST)
        renderer = Renderer(scene)
        start = renderer.render({k + 1: c for k, c in enumerate(START) if c != "."}, seed=seed)
        state = reader.adapt(start.image, start.corners, start.played, "".join(start.squares))
        rng = np.random.default_rng(seed)
        for k in range(3):
            position = {s: rng.choice(["l", "d", "L", "D"], p=[0.3, 0.3, 0.2, 0.2])
                        for s in range(1, 33) if rng.random() < 0.45}
            frame = renderer.render(position, seed=seed * 7 + k)
            truth = "".join(frame.squares)
            for mode, st in (("zero-shot", None), ("adapted", state)):
                p = reader.read(frame.image, frame.corners, frame.played, st)
                read = labels_of(p)
                squares[mode].add_text(truth, read)
                s = stats[mode]
                for i, (t, r) in enumerate(zip(truth, read)):
                    if t == "." or r.lower() != t.lower():
                        continue
                    king_p = p[i, 3] + p[i, 4]
                    if t in "ld":
                        s[0] += 1
                        s[1] += r in "LD"
                        s[4] += king_p
                    else:
                        s[2] += 1
                        s[3] += r in "ld"
                        s[5] += king_p
    print(f"{args.scenes} held-out rendered scenes, 3 boards each (kings on ~40 % of pieces)")
    for mode in ("zero-shot", "adapted"):
        s = stats[mode]
        print(f"{mode:10s} squares wrong {100 * squares[mode].square_error:5.2f} %  men read as kings "
              f"{100 * s[1] / max(s[0], 1):5.2f} % of {int(s[0])}  kings read as men "
              f"{100 * s[3] / max(s[2], 1):5.2f} % of {int(s[2])}  mean P(king): men "
              f"{s[4] / max(s[0], 1):.3f}, kings {s[5] / max(s[2], 1):.3f}")


if __name__ == "__main__":
    main()
