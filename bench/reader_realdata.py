"""The piece reader (``vision.reader``) on the shared real sets, each held out: adapted from
one photo and zero-shot. (``bench.realdata`` reads the same photos with the square classifier.)

For every set of ``../shared/realdata`` the network trained without that set
(``RUNS/<set>.onnx`` and ``RUNS/<set>.heads.json``, from ``lab.reader.train --hold-out``)
reads every photo with its true corners (and lens, where the photo has measured inner
points):

- ``zero-shot``: the generic heads, every photo;
- ``adapted``: per camera set-up of the set, the heads refit on the set-up's FIRST start
  photo (or, where the set-up has no start, its first photo with every square labelled;
  the table says how many set-ups used which), then the set-up's other photos read with it
  (the adaptation photo is not scored);
- ``old``: the committed ``models/square_classifier.onnx`` (``vision.classifier``), which
  was trained on these very sets, for comparison.

Scores: % of squares wrong (occupancy, side or man/king; squares marked '?' are not scored;
the sticker kings of soon-jynn are scored for occupancy and side only) and % of boards with
every square right. Then speed (one board read: crops, ONNX on one thread, heads; median and
p95), adaptation time, model size and peak memory.

    python -m bench.reader_realdata --runs DIR [--sets a,b] [--no-old]
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from lab.tally import Tally
from lab.realdata import (SYMBOL_KINGS, photo_geometry, RealPhoto, TrueGeometry, board_parity, cells_of,
                             collections, to_labelled, true_crops)
from makhos.vision.squares import SquareReader
from makhos.vision.reader import PRIOR, PieceReader
from makhos.vision.reading import labels_of

#: Held-out figures of the committed network from issue #30's table (#22, board found).
OLD_HELD_OUT = {"julie-robot-webcam": 3.98, "alexkassil-playing-the-computer": 19.49,
                "b3nny01-checkersvision": 14.56, "olekzima-checkers-robot-bachelor": 4.46,
                "sabshine-python-checkers-robot": 4.86,
                "soon-jynn-chu-checkers-piece-detection": 39.14}


def cell(tally: Tally) -> str:
    """A column of the table: % squares wrong, % boards right, boards."""
    if not tally.boards:
        return f"{'-':>7} {'-':>6} {0:>4}"
    return f"{100 * tally.square_error:7.2f} {100 * tally.board_accuracy:6.1f} {tally.boards:4d}"


def adaptation_photos(photos: list[RealPhoto]) -> dict[str, tuple[int, str]]:
    """Per set-up, the index of its adaptation photo and 'start' or 'labelled'."""
    chosen: dict[str, tuple[int, str]] = {}
    for i, photo in enumerate(photos):
        if photo.setup not in chosen and photo.start_side():
            chosen[photo.setup] = (i, "start")
    for i, photo in enumerate(photos):
        if photo.setup not in chosen and "?" not in "".join(photo.grid) and photo.pieces:
            chosen[photo.setup] = (i, "labelled")
    return chosen


def bench_set(name: str, photos: list[RealPhoto], runs: Path, old: bool, prior: float
              ) -> tuple[Tally, Tally, Tally, str]:
    reader = PieceReader(runs / f"{name}.onnx", runs / f"{name}.heads.json")
    symbol = name in SYMBOL_KINGS
    zero, adapted, old_t = Tally(), Tally(), Tally()
    chosen = adaptation_photos(photos)
    states = {}
    for setup, (i, _) in chosen.items():
        image = photos[i].image()
        corners, lens, truth = photo_geometry(photos[i], image)
        states[setup] = reader.adapt(image, corners, "dark", truth, prior=prior, lens=lens)
    if old:
        from makhos.vision.classifier import SquareClassifier
        from makhos.vision.reading import labels_of as old_labels

        classifier = SquareClassifier()
    for i, photo in enumerate(photos):
        image = photo.image()
        corners, lens, truth = photo_geometry(photo, image)
        crops = reader.crops(image, corners, "dark", lens)
        e = reader.embed(crops)
        zero.add_text(truth, labels_of(reader.generic.probabilities(e)), kings=not symbol)
        if photo.setup in states and chosen[photo.setup][0] != i:
            adapted.add_text(truth, labels_of(states[photo.setup].heads.probabilities(e)),
                             kings=not symbol)
        if old:
            old_crops, old_truth = true_crops(photo, image)
            old_t.add_text(old_truth, old_labels(classifier.classify(old_crops)), kings=not symbol)
    kinds = [k for _, k in chosen.values()]
    how = f"{kinds.count('start')} start, {kinds.count('labelled')} labelled"
    return zero, adapted, old_t, how


def found_geometry(photo: RealPhoto, image: np.ndarray, old: SquareReader
                   ) -> tuple[np.ndarray, str, TrueGeometry] | None:
    """The board as ``makhos read`` finds it (no lens): corners and colour in play from the
    board finder, the orientation cue and the committed classifier's colour check."""
    from makhos.vision.locate import locate_board
    from makhos.vision.orientation import colour_in_play, orient

    location = locate_board(image)
    if location is None:
        return None
    numbered = colour_in_play(old, image, orient(image, location))
    truth = TrueGeometry.of(photo, (image.shape[1], image.shape[0]))
    return numbered.location.corners, numbered.played, truth


def scored(photo: RealPhoto, image: np.ndarray, truth: TrueGeometry, read: np.ndarray
           ) -> tuple[str, str]:
    """(truth, reading) over the photo's squares in play, from (8, 8) labelled-frame cells."""
    parity = photo.played_parity()
    if parity is None:
        parity = board_parity(image, truth)
    cells = [(r, c) for r in range(8) for c in range(8) if (r + c) % 2 == parity]
    return ("".join(photo.cells[r, c] for r, c in cells), "".join(read[r, c] for r, c in cells))


def bench_found(name: str, photos: list[RealPhoto], runs: Path) -> tuple[Tally, Tally]:
    """Zero-shot and adapted with the found board (a photo whose board is not found counts
    every square wrong)."""
    from makhos.vision.classifier import SquareClassifier

    old = SquareClassifier()
    reader = PieceReader(runs / f"{name}.onnx", runs / f"{name}.heads.json")
    symbol = name in SYMBOL_KINGS
    zero, adapted = Tally(), Tally()
    chosen = adaptation_photos(photos)
    states = {}
    for setup, (i, _) in chosen.items():
        image = photos[i].image()
        found = found_geometry(photos[i], image, old)
        if found is not None:
            corners, played, truth = found
            cells = cells_of(corners, played, truth)
            start = "".join(photos[i].cells[r, c] for r, c in cells)
            try:
                states[setup] = reader.adapt(image, corners, played, start)
            except ValueError:
                pass
    for i, photo in enumerate(photos):
        image = photo.image()
        found = found_geometry(photo, image, old)
        if found is None:
            zero.add_text("l" * 32, "x" * 32, kings=not symbol)
            continue
        corners, played, truth = found
        e = reader.embed(reader.crops(image, corners, played))
        for tally, heads in ((zero, reader.generic),
                             (adapted, states[photo.setup].heads
                              if photo.setup in states and chosen[photo.setup][0] != i
                              else None)):
            if heads is None:
                continue
            labels = labels_of(heads.probabilities(e))
            tally.add_text(*scored(photo, image, truth,
                                 to_labelled(labels, corners, played, None, truth)), kings=not symbol)
    return zero, adapted


def speed(model: Path, heads: Path, reads: int = 60) -> None:
    """Time board reads and adaptation on real photos, in this process (one thread): a
    1280x960 webcam frame (julie) and a 1600x1600 phone photo (b3nny01)."""
    photos = collections()
    for name in ("julie-robot-webcam", "b3nny01-checkersvision"):
        photo = next(p for p in photos[name] if p.start_side())
        speed_on(photo, model, heads, reads)
    print(f"model: {model.name} {model.stat().st_size / 1e6:.2f} MB + heads "
          f"{heads.stat().st_size / 1e3:.1f} kB")
    print(f"peak memory of this process (reader + two photos): "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


def speed_on(photo: RealPhoto, model: Path, heads: Path, reads: int) -> None:
    image = photo.image()
    corners, lens, truth = photo_geometry(photo, image)
    reader = PieceReader(model, heads)
    for _ in range(5):
        reader.read(image, corners, "dark")
    times, cpu, parts = [], [], []
    for _ in range(reads):
        t, c = time.perf_counter(), time.process_time()
        crops = reader.crops(image, corners, "dark")
        c1 = time.process_time()
        e = reader.embed(crops)
        c2 = time.process_time()
        reader.generic.probabilities(e)
        times.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
        parts.append((c1 - c, c2 - c1, time.process_time() - c2))
    adapt = []
    for _ in range(5):
        c = time.process_time()
        state = reader.adapt(image, corners, "dark", truth)
        adapt.append(time.process_time() - c)
    cpu_ms = 1000 * np.array(cpu)
    crop_ms, net_ms, head_ms = (1000 * np.median(np.array(parts), axis=0)).tolist()
    print(f"{photo.name} ({image.shape[1]}x{image.shape[0]}):")
    print(f"  board read, CPU time of this process (one thread; the machine's load does not "
          f"count): median {np.median(cpu_ms):.1f} ms, p95 {np.percentile(cpu_ms, 95):.1f} ms "
          f"(median parts: crops {crop_ms:.1f}, network + colour {net_ms:.1f}, "
          f"heads {head_ms:.1f})")
    print(f"  load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    ms = 1000 * np.array(times)
    print(f"  board read, wall clock (crops + ONNX + heads): median {np.median(ms):.1f} ms, "
          f"p95 {np.percentile(ms, 95):.1f} ms")
    print(f"  adaptation (3 cuts of the start frame + refit), CPU time: median "
          f"{1000 * np.median(adapt):.0f} ms; adapted state "
          f"{len(state.to_json()) / 1e3:.1f} kB JSON")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=Path, required=True,
                        help="folder with <set>.onnx / <set>.heads.json of held-out runs")
    parser.add_argument("--sets", default="", help="comma-separated subset")
    parser.add_argument("--no-old", action="store_true")
    parser.add_argument("--prior", type=float, default=PRIOR)
    parser.add_argument("--model", type=Path, default=None,
                        help="model timed for speed (default: the committed one)")
    parser.add_argument("--speed-only", action="store_true")
    parser.add_argument("--found", action="store_true",
                        help="also read with the board as found (no true corners)")
    args = parser.parse_args()
    from makhos.vision.reader import DEFAULT_HEADS, DEFAULT_MODEL

    model = args.model or DEFAULT_MODEL
    heads = model.with_name(model.stem + "_heads.json") if args.model else DEFAULT_HEADS
    if args.model and not heads.exists():
        heads = model.with_suffix(".heads.json")
    if args.speed_only:
        speed(model, heads)
        return
    sets = collections()
    if not sets:
        print("no ../shared/realdata: nothing to bench")
        return
    wanted = [s for s in args.sets.split(",") if s] or list(sets)
    print(f"{'set (held out)':40s} {'adapted: %wrong %perfect boards':>32s} | "
          f"{'zero-shot':>19s} | {'old (trained on it)':>19s} | old held out (#22) | adapted from")
    totals = [Tally(), Tally(), Tally()]
    for name in wanted:
        zero, adapted, old, how = bench_set(name, sets[name], args.runs, not args.no_old,
                                            args.prior)
        for total, part in zip(totals, (adapted, zero, old)):
            total.merge(part)
        print(f"{name:40s} {cell(adapted):>32s} | {cell(zero):>19s} | {cell(old):>19s} | "
              f"{OLD_HELD_OUT.get(name, float('nan')):18.2f} | {how}", flush=True)
    print(f"{'all':40s} {cell(totals[0]):>32s} | {cell(totals[1]):>19s} | {cell(totals[2]):>19s} |")
    if args.found:
        print(f"\nboard found (locate_board, orientation, colour in play as `makhos read`; no lens)")
        print(f"{'set (held out)':40s} {'adapted: %wrong %perfect boards':>32s} | {'zero-shot':>19s}")
        for name in wanted:
            zero, adapted = bench_found(name, sets[name], args.runs)
            print(f"{name:40s} {cell(adapted):>32s} | {cell(zero):>19s}", flush=True)
    subprocess.run([sys.executable, "-m", "bench.reader_realdata", "--runs", str(args.runs),
                    "--speed-only", *(["--model", str(args.model)] if args.model else [])],
                   check=True)


if __name__ == "__main__":
    main()
