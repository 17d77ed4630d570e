"""Boards found on the real photographs of ../shared/realdata, set by set, zero-shot.

    python -m bench.boards_found [--sets a,b] [--misses]

Every labelled photo (``lab.realdata``) and every photo of the hand-labelled real games
(``lab.realgames``) is given to the board finder as ``makhos read`` does
(``vision.locate.locate_board``, no hint, no lens); then ``--renders`` hostile red and black
paper boards (``lab.red_black``: red men beside red squares, low camera, dim room, glare). A board is *found* when the finder
returns one, and *right* when each of its four outer corners lies within half a square of a
true corner (any order: the numbering is settled later from the pieces). Prints per set the
photos found and right, the lowest confidence among the right ones and the highest among the
wrong, and with ``--misses`` every photo not found or found wrong. Skips when ../shared is
absent.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from bench.machine import describe
from lab.realdata import ROOT, RealPhoto, TrueGeometry, collections
from lab.realgames import game_photos
from lab.red_black import red_black_frame
from makhos.vision.locate import locate_board

RIGHT_WITHIN = 0.5  # of a square, at the true corner


def corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    """The largest distance, in squares of the true board, from a true corner to the found
    corner nearest it (each found corner used once: the order is the numbering's business)."""
    step = np.mean([np.linalg.norm(truth[k] - truth[(k + 1) % 4]) for k in range(4)]) / 8
    best = min(max(np.linalg.norm(truth[k] - found[(k + turn) % 4]) for k in range(4))
               for found in (found, found[::-1]) for turn in range(4))
    return float(best / step)


def judge(photo: RealPhoto) -> tuple[str, float, float]:
    """('right' | 'wrong' | 'missed', the finder's confidence, the corner error in squares)."""
    image = photo.image()
    truth = TrueGeometry.of(photo, (image.shape[1], image.shape[0]))
    location = locate_board(image)
    if location is None:
        return "missed", 0.0, float("inf")
    error = corner_error(np.asarray(location.corners, float), truth.corners)
    return ("right" if error <= RIGHT_WITHIN else "wrong"), location.confidence, error


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="", help="comma-separated folder names (default all)")
    parser.add_argument("--misses", action="store_true", help="name every photo not found right")
    parser.add_argument("--renders", type=int, default=100, help="hostile red and black boards")
    args = parser.parse_args(argv)
    sets = collections()
    if sets:
        sets["julie-robot-webcam games"] = [p for p in game_photos() if p.path.is_file()]
    else:
        print(f"skipped the real photos: {ROOT} is absent")
    if args.sets:
        sets = {k: v for k, v in sets.items() if k in args.sets.split(",")}
    print(describe())
    totals = np.zeros(3, int)
    for name, photos in sets.items():
        before = time.process_time()
        verdicts = [(photo, *judge(photo)) for photo in photos]
        right = [c for _, v, c, _ in verdicts if v == "right"]
        wrong = [c for _, v, c, _ in verdicts if v == "wrong"]
        totals += (len(photos), len(right) + len(wrong), len(right))
        ms = 1000 * (time.process_time() - before) / len(photos)
        print(f"  {name:42s} found {len(right) + len(wrong):3d}/{len(photos)}, right {len(right):3d}"
              f"; lowest confidence right {min(right, default=float('nan')):.2f}, highest wrong "
              f"{max(wrong, default=float('nan')):.2f}; {ms:.0f} ms CPU a photo", flush=True)
        if args.misses:
            for photo, verdict, confidence, error in verdicts:
                if verdict != "right":
                    print(f"      {verdict}: {photo.path.name} (confidence {confidence:.2f}, "
                          f"corners off by {error:.2f} squares)")
    print(f"  {'all':42s} found {totals[1]}/{totals[0]}, right {totals[2]}")
    renders(args.renders)
    return 0


def renders(count: int) -> None:
    """The hostile red and black paper boards: found right, and the corner error."""
    if count <= 0:
        return
    errors, missed = [], []
    for seed in range(count):
        frame = red_black_frame(seed)
        location = locate_board(frame.image)
        error = (float("inf") if location is None else
                 corner_error(np.asarray(location.corners, float), frame.corners.astype(float)))
        errors.append(error)
        if error > RIGHT_WITHIN:
            missed.append(seed)
    right = np.array([e for e in errors if e <= RIGHT_WITHIN])
    print(f"  {'red and black paper, hostile (rendered)':42s} right {len(right)}/{count}, corner "
          f"error median {np.median(right):.3f} p95 {np.percentile(right, 95):.3f} squares; "
          f"missed or wrong: seeds {missed}")


if __name__ == "__main__":
    sys.exit(main())
