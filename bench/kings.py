"""How plainly a frame shows a king, and which kings the classifier loses (a diagnostic).

    python -m bench.kings [--scenes 600] [--model PATH]

Every king of the held-out test split (the frames of ``data/test.npz``, re-rendered) is set
beside the very same frame in which that king is one man: same scene, light, noise, JPEG
and piece positions, the lower man where it was and the top man taken away (its boss, if
the set has one, back on the lower man). The difference of the two crops (root mean square
over the 64x40x3 crop, in grey levels) says how much the frame shows of the stack at all.
Where the classifier reads a king as a man beside that difference tells a limit of the
renderer's pictures (kings the frame hardly shows) from a limit of the network (kings it
shows plainly). The one-man frames also give the share of those men read as kings: men
that differ from a king of the same frame only by the missing top man.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one thread per worker, before numpy loads

import argparse
import platform
from functools import cache
from itertools import pairwise
from multiprocessing import Pool
from pathlib import Path

import numpy as np


from lab.training.dataset import TEST, TEST_SEEDS, Shot, scene_shots
from lab.render import Renderer
from lab.render.renderer import Disc
from makhos.vision.classifier import SquareClassifier, model_path
from makhos.vision.rectify import crop_squares

#: Bounds of the difference classes printed (grey levels, root mean square over the crop).
BUCKETS = (0, 3, 5, 8, 12, 20, 40, 1000)


class OneManRenderer(Renderer):
    """Renders each king as its lower man alone, its boss (if any) back on that man. The
    random draws are the renderer's own (the top man's offset and height are drawn and
    dropped), so nothing else in the frame moves."""

    def _stack(self, square: int, label: str, rng: np.random.Generator) -> list[Disc]:
        parts = super()._stack(square, label, rng)
        if label not in "DL":
            return parts
        man, boss = parts[0], parts[2:]
        height = self.scene.pieces.height
        return [man] + [(man[0], man[1], height, height + z_top - z_bottom, light, radius)
                        for _, _, z_bottom, z_top, light, radius in boss]


def read_as_king(probabilities: np.ndarray) -> np.ndarray:
    """Where 5-class probabilities (..., 5) put a king above a man, whatever the colour."""
    p = np.asarray(probabilities)
    return np.asarray(p[..., 3] + p[..., 4] > p[..., 1] + p[..., 2])


def probe_scene(args: tuple[int, str]) -> list[tuple[float, bool, bool]]:
    """(difference, king read as man, its one-man frame's man read as king) per king."""
    seed, model = args
    classifier = _classifier(model)
    _, shots = scene_shots(seed, TEST)
    rows = []
    for shot in shots:
        king_frame = shot.render()
        one_man = Shot(OneManRenderer(shot.renderer.scene), shot.position, shot.hand, shot.seed)
        man_frame = one_man.render()
        kings = [i for i, label in enumerate(king_frame.squares) if label in "LD"]
        if not kings:
            continue
        crops = [crop_squares(f.image, f.corners, f.played) for f in (king_frame, man_frame)]
        reads = [classifier.classify(c) for c in crops]
        for i in kings:
            diff = crops[0].images[i].astype(np.float32) - crops[1].images[i].astype(np.float32)
            rows.append((float(np.sqrt(np.mean(diff ** 2))), not read_as_king(reads[0][i]),
                         bool(read_as_king(reads[1][i]))))
    return rows


@cache
def _classifier(model: str) -> SquareClassifier:
    """One session per worker process, made on its first scene."""
    return SquareClassifier(model)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenes", type=int, default=len(TEST_SEEDS))
    parser.add_argument("--model", type=Path, default=None)
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    args = parser.parse_args()
    model = str(model_path(args.model))
    jobs = [(seed, model) for seed in TEST_SEEDS[:args.scenes]]
    with Pool(args.workers) as pool:
        rows = np.array([row for part in pool.imap(probe_scene, jobs, chunksize=4) for row in part])
    diff, king_missed, man_crowned = rows[:, 0], rows[:, 1].astype(bool), rows[:, 2].astype(bool)
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores; "
          f"model {Path(model).name}; {args.scenes} held-out scenes, {len(diff)} kings")
    print("difference (rms grey levels)   kings   read as men   its one-man frame read as king")
    for lo, hi in pairwise(BUCKETS):
        inside = (diff >= lo) & (diff < hi)
        if inside.any():
            print(f"  {lo:4d} - {hi:<4d}               {inside.sum():6d}   "
                  f"{100 * king_missed[inside].mean():8.1f} %   {100 * man_crowned[inside].mean():8.1f} %")
    print(f"  all                        {len(diff):6d}   {100 * king_missed.mean():8.1f} %   "
          f"{100 * man_crowned.mean():8.1f} %")
    quiet = diff < 8
    print(f"kings read as men: {king_missed.sum()}, of which {king_missed[quiet].sum()} differ from "
          f"their one-man frame by under 8 grey levels ({100 * quiet.mean():.1f} % of all kings)")


if __name__ == "__main__":
    main()
