"""Boards found on the real photographs of ../shared/realdata, set by set, zero-shot.

    python -m bench.boards_found [--sets a,b] [--misses] [--renders 100] [--first-render 0]
                                 [--floor 0.2] [--more]

Every labelled photo (``lab.realdata``) and every photo of the hand-labelled real games
(``lab.realgames``) is given to the board finder as ``makhos read`` does
(``vision.locate.locate_board``, no hint, no lens); then ``--renders`` hostile red and black
paper boards (``lab.red_black``: red men beside red squares, low camera, dim room, glare),
seeds from ``--first-render``, and the same boards in surroundings of their own colours (a
frame of their red or black, a patterned cloth); with ``--more``, the hostile boards on a
buffalo check of their own red and black (its checks the size of their squares), and in
sunlight through a window across them (``lab.red_black``). A board is *found* when the finder returns
one, and *right* when each of its four outer corners lies within half a square of a true
corner (any order: the numbering is settled later from the pieces). Prints per set the
photos found and right, the lowest confidence among the right ones and the highest among the
wrong (``--floor 0`` shows every window the finder would give, to set its floor by), the
corner error and the finder's CPU time a photo beside the machine's load (it is shared), and
with ``--misses`` every photo not found or found wrong (always for the renders). Skips the
photos when ../shared is absent.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from bench.machine import describe, load
from lab.realdata import ROOT, RealPhoto, TrueGeometry, collections
from lab.realgames import game_photos
from lab.red_black import red_black_frame
from makhos.vision.geometry import BoardLocation
from makhos.vision.locate import LocateConfig, locate_board

RIGHT_WITHIN = 0.5  # of a square, at the true corner


def corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    """The largest distance, in squares of the true board, from a true corner to the found
    corner nearest it (each found corner used once: the order is the numbering's business)."""
    step = np.mean([np.linalg.norm(truth[k] - truth[(k + 1) % 4]) for k in range(4)]) / 8
    best = min(max(np.linalg.norm(truth[k] - found[(k + turn) % 4]) for k in range(4))
               for found in (found, found[::-1]) for turn in range(4))
    return float(best / step)


def judge(photo: RealPhoto, cfg: LocateConfig = LocateConfig()) -> tuple[str, float, float]:
    """('right' | 'wrong' | 'missed', the finder's confidence, the corner error in squares)."""
    image = photo.image()
    truth = TrueGeometry.of(photo, (image.shape[1], image.shape[0]))
    return verdict(locate_board(image, cfg=cfg), truth.corners)


def verdict(location: BoardLocation | None, truth: np.ndarray) -> tuple[str, float, float]:
    """What the finder's answer is worth against the true outer corners (see :func:`judge`)."""
    if location is None:
        return "missed", 0.0, float("inf")
    error = corner_error(np.asarray(location.corners, float), truth.astype(float))
    return ("right" if error <= RIGHT_WITHIN else "wrong"), location.confidence, error


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="", help="comma-separated folder names (default all)")
    parser.add_argument("--misses", action="store_true", help="name every photo not found right")
    parser.add_argument("--renders", type=int, default=100, help="hostile red and black boards")
    parser.add_argument("--first-render", type=int, default=0, help="the first render's seed")
    parser.add_argument("--floor", type=float, default=LocateConfig.min_confidence,
                        help="the finder's confidence floor (0: see every window it would give)")
    parser.add_argument("--more", action="store_true",
                        help="the renders on a check of their own colours and in window light too")
    args = parser.parse_args(argv)
    cfg = LocateConfig(min_confidence=args.floor)
    sets = collections()
    if sets:
        sets["julie-robot-webcam games"] = [p for p in game_photos() if p.path.is_file()]
    else:
        print(f"skipped the real photos: {ROOT} is absent")
    if args.sets:
        sets = {k: v for k, v in sets.items() if k in args.sets.split(",")}
    print(f"{describe()}; confidence floor {args.floor:.2f}")
    totals = np.zeros(3, int)
    for name, photos in sets.items():
        before = time.process_time()
        verdicts = [(photo.path.name, *judge(photo, cfg)) for photo in photos]
        totals += report(name, verdicts, time.process_time() - before, args.misses)
    print(f"  {'all':42s} found {totals[1]}/{totals[0]}, right {totals[2]}")
    seeds = range(args.first_render, args.first_render + args.renders)
    kinds = {"hostile": {}, "in its surroundings": {"surroundings": True}}
    if args.more:
        kinds["on a check of its colours"] = {"own_check": True}
        kinds["in window light"] = {"window_light": True}
    for kind, nuisances in kinds.items():
        before, verdicts = 0.0, []
        for seed in seeds:
            frame = red_black_frame(seed, **nuisances)
            started = time.process_time()
            location = locate_board(frame.image, cfg=cfg)
            before += time.process_time() - started
            verdicts.append((f"seed {seed}", *verdict(location, frame.corners)))
        if seeds:
            report(f"red and black paper, {kind} ({seeds.start}-{seeds.stop - 1})", verdicts,
                   before, True)
    return 0


def report(name: str, verdicts: list[tuple[str, str, float, float]], cpu_s: float,
           misses: bool) -> np.ndarray:
    """Print one set's line (found, right, the confidence that separates right from wrong, the
    corner error of the right ones, the finder's CPU time a photo beside the machine's load)
    and, with ``misses``, each photo not found right; returns (photos, found, right)."""
    right = [c for _, v, c, _ in verdicts if v == "right"]
    wrong = [c for _, v, c, _ in verdicts if v == "wrong"]
    errors = [e for _, v, _, e in verdicts if v == "right"] or [float("nan")]
    print(f"  {name:42s} found {len(right) + len(wrong):3d}/{len(verdicts)}, right {len(right):3d}"
          f"; lowest confidence right {min(right, default=float('nan')):.2f}, highest wrong "
          f"{max(wrong, default=float('nan')):.2f}; corner error median {np.median(errors):.3f} "
          f"p95 {np.percentile(errors, 95):.3f} squares; {1000 * cpu_s / len(verdicts):.0f} ms "
          f"CPU a photo, {load()}", flush=True)
    if misses:
        for label, judged, confidence, error in verdicts:
            if judged != "right":
                print(f"      {judged}: {label} (confidence {confidence:.2f}, corners off by "
                      f"{error:.2f} squares)")
    return np.array([len(verdicts), len(right) + len(wrong), len(right)])


if __name__ == "__main__":
    sys.exit(main())
