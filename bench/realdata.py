"""Square reading on the real photographs of ../shared/realdata, set by set and in total.

Every labelled set is read (``lab.realdata``): the julie-robot-webcam frames (labels from
that project's own detector, a draft) and the five hand-checked sets. Each photo is read
three ways, so that the stages' errors are told apart:

- ``given``: the true corners (through the lens fitted to the measured inner grid points,
  where the photo has them) and the true colour of the squares in play: the reader alone;
- ``colour``: the true corners and lens, the colour in play decided by the reader;
- ``found``: the board finder and the orientation, as ``makhos read`` does it (no lens).

and, where the photo's set-up has a start position, ``calibrated``: the one-shot adaptation
fitted on that start position (``calibration.adaptation``), the others of the set-up read
with the true corners (the start photo itself is left out of that figure).

Scores, over the 32 squares in play of each photo (squares marked '?' are not scored):
per-square error in occupancy and side (empty, light, dark: a man read as a king of its side
is right here) and the boards right in it; the boards whose pieces were all found but whose
sides were named the wrong way round (two sets of one lightness: only a profile or the start
position names them); man/king error over the pieces read with the right side (kings printed
as symbols on stickers are not scored for it); and with man/king counted too, squares wrong
and whole boards right.

    python -m bench.realdata [--model M] [--modes given,found] [--sheets DIR] [--errors]

``--sheets DIR`` writes a contact sheet per set of the misread squares' crops (truth and
reading under each) and a rectified view of each misread board with its errors marked.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np


from makhos.calibration.adaptation import AdaptedClassifier, fit_adaptation, model_fingerprint
from lab.tally import Tally
from lab.realdata import (ROOT, RealPhoto, TrueGeometry, board_parity, cells_of,
                             collections, image_points, numbering_corners, to_labelled)
from makhos.vision.classifier import SquareClassifier, model_path
from makhos.vision.reading import LABELS
from makhos.vision.geometry import location_from_corners
from makhos.vision.locate import locate_board
from makhos.vision.orientation import colour_in_play, orient
from makhos.vision.rectify import CROP, CropGeometry, SquareCrops, crop_squares

MODES = ("given", "colour", "found", "calibrated")


# ----------------------------------------------------------------------------- scoring

def score(tally: Tally, photo: RealPhoto, parity: int, read: np.ndarray) -> np.ndarray:
    """Count one reading ((8, 8) labels, labelled frame) on the squares of ``parity``; man
    against king only where the set's kings are stacked men. The (8, 8) squares read wrong."""
    rows, cols = np.mgrid[0:8, 0:8]
    return tally.add(photo.cells, read, scored=(rows + cols) % 2 == parity,
                     kinds=photo.stacked_kings, name=photo.path.name)


# ----------------------------------------------------------------------------- reading

Classify = Callable[[SquareCrops], np.ndarray]


@dataclass(frozen=True)
class Read:
    """One reading of a photo: labels in the labelled frame, and its crops where cut with
    the true corners (for the contact sheets), labelled-frame cell of each crop."""

    grid: np.ndarray
    crops: SquareCrops | None = None
    cells: np.ndarray | None = None


def read_given(classify: Classify, image: np.ndarray, truth: TrueGeometry, parity: int) -> Read:
    corners = numbering_corners(truth.corners, parity)
    crops = crop_squares(image, corners, "dark", lens=truth.lens)
    labels = "".join(LABELS[k] for k in classify(crops).argmax(1))
    cells = cells_of(corners, "dark", truth)
    return Read(to_labelled(labels, corners, "dark", truth.lens, truth), crops, cells)


@dataclass(frozen=True)
class Classifying:
    """A classify function as the reader ``colour_in_play`` asks for (crops cut as ``CROP``)."""

    classify: Classify
    geometry: CropGeometry = CROP


def read_colour(classify: Classify, image: np.ndarray, truth: TrueGeometry) -> Read:
    corners = truth.corners
    location = location_from_corners(corners)
    numbered = colour_in_play(Classifying(classify), image, orient(image, location), truth.lens)
    crops = crop_squares(image, numbered.location.corners, numbered.played, lens=truth.lens)
    labels = "".join(LABELS[k] for k in classify(crops).argmax(1))
    return Read(to_labelled(labels, numbered.location.corners, numbered.played, truth.lens, truth))


def read_found(classify: Classify, image: np.ndarray, truth: TrueGeometry) -> Read:
    location = locate_board(image)
    if location is None:
        return Read(np.full((8, 8), "x"))  # no board: every square with a piece is wrong
    numbered = colour_in_play(Classifying(classify), image, orient(image, location))
    crops = crop_squares(image, numbered.location.corners, numbered.played)
    labels = "".join(LABELS[k] for k in classify(crops).argmax(1))
    return Read(to_labelled(labels, numbered.location.corners, numbered.played, None, truth))


# ----------------------------------------------------------------------------- sheets

def crop_tile(crop: np.ndarray, text: str, scale: int = 3) -> np.ndarray:
    tile = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_NEAREST)
    strip = np.full((18, tile.shape[1], 3), 255, np.uint8)
    cv2.putText(strip, text, (2, 13), cv2.FONT_HERSHEY_SIMPLEX, 0.42, (0, 0, 0), 1, cv2.LINE_AA)
    return np.concatenate([tile, strip])


def sheet(tiles: list[np.ndarray], columns: int = 12) -> np.ndarray:
    h, w = tiles[0].shape[:2]
    rows = (len(tiles) + columns - 1) // columns
    out = np.full((rows * (h + 4), columns * (w + 4), 3), 128, np.uint8)
    for k, tile in enumerate(tiles):
        r, c = divmod(k, columns)
        out[r * (h + 4):r * (h + 4) + h, c * (w + 4):c * (w + 4) + w] = tile
    return out


def rectified_view(image: np.ndarray, truth: TrueGeometry, bad: np.ndarray, read: np.ndarray,
                   photo: RealPhoto, px: int = 48) -> np.ndarray:
    """The labelled board top-down (``px`` per square), errors outlined, truth>read."""
    ys, xs = np.mgrid[0:8 * px, 0:8 * px]
    board = np.stack([(xs.ravel() + 0.5) / px, (ys.ravel() + 0.5) / px], axis=1)
    pts = image_points(truth.corners, truth.lens, board).astype(np.float32)
    view = cv2.remap(image, pts[:, 0].reshape(8 * px, 8 * px), pts[:, 1].reshape(8 * px, 8 * px),
                     cv2.INTER_LINEAR)
    for r, c in zip(*np.nonzero(bad)):
        cv2.rectangle(view, (c * px + 1, r * px + 1), ((c + 1) * px - 2, (r + 1) * px - 2),
                      (0, 0, 255), 2)
        cv2.putText(view, f"{photo.cells[r, c]}>{read[r, c]}", (c * px + 3, r * px + 14),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 255, 255), 1, cv2.LINE_AA)
    return view


# ----------------------------------------------------------------------------- main

def adaptations(network: SquareClassifier, photos: list[RealPhoto], fingerprint: str
                ) -> dict[str, tuple[RealPhoto, AdaptedClassifier]]:
    """Per set-up with a start position: its first start photo and the classifier adapted
    on it (true corners and lens, the photo's own labels)."""
    fitted = {}
    for photo in photos:
        if photo.setup in fitted or not photo.start_side():
            continue
        image = photo.image()
        truth = TrueGeometry.of(photo, (image.shape[1], image.shape[0]))
        parity = photo.played_parity()
        assert parity is not None
        corners = numbering_corners(truth.corners, parity)
        cells = cells_of(corners, "dark", truth)
        start = "".join(photo.cells[r, c] for r, c in cells)
        adaptation = fit_adaptation(network, image, corners, "dark", start, fingerprint,
                                    lens=truth.lens)
        fitted[photo.setup] = (photo, AdaptedClassifier(network, adaptation))
    return fitted


def evaluate(models: dict[str, Path], sets: dict[str, list[RealPhoto]], modes: tuple[str, ...],
             sheets: Path | None = None) -> dict[str, dict[str, Tally]]:
    """Scores per set and mode, each set read with its own network (``models``)."""
    scores: dict[str, dict[str, Tally]] = {}
    for name, photos in sets.items():
        network, fingerprint = SquareClassifier(models[name]), model_fingerprint(models[name])
        scores[name] = {mode: Tally() for mode in modes}
        calibrated = adaptations(network, photos, fingerprint) if "calibrated" in modes else {}
        tiles: list[np.ndarray] = []
        for photo in photos:
            image = photo.image()
            truth = TrueGeometry.of(photo, (image.shape[1], image.shape[0]))
            parity = photo.played_parity()
            if parity is None:
                parity = board_parity(image, truth)
            for mode in modes:
                if mode == "given":
                    read = read_given(network.classify, image, truth, parity)
                elif mode == "colour":
                    read = read_colour(network.classify, image, truth)
                elif mode == "found":
                    read = read_found(network.classify, image, truth)
                else:
                    start, adapted = calibrated.get(photo.setup, (None, None))
                    if adapted is None or start is photo:
                        continue
                    read = read_given(adapted.classify, image, truth, parity)
                bad = score(scores[name][mode], photo, parity, read.grid)
                if sheets is not None and mode == "given" and bad.any():
                    assert read.crops is not None and read.cells is not None
                    for k, (r, c) in enumerate(read.cells):
                        if bad[r, c]:
                            tiles.append(crop_tile(read.crops.images[k],
                                                   f"{photo.cells[r, c]}>{read.grid[r, c]} "
                                                   f"{photo.path.stem[-8:]}"))
                    view = rectified_view(image, truth, bad, read.grid, photo)
                    out = sheets / name / f"{photo.path.stem}.png"
                    out.parent.mkdir(parents=True, exist_ok=True)
                    cv2.imwrite(str(out), view)
        if sheets is not None and tiles:
            for k in range(0, len(tiles), 96):
                cv2.imwrite(str(sheets / f"{name}-squares-{k // 96}.png"), sheet(tiles[k:k + 96]))
    return scores


def leave_one_out(base: Path, fit_data: Path, sets: dict[str, list[RealPhoto]], folder: Path
                  ) -> dict[str, Path]:
    """One network per set: ``base`` with its head refitted on the synthetic split and on
    every other real set (``lab.training.head``), so no set is read by a network that saw it."""
    import torch

    from lab.training import head

    torch.set_num_threads(1)
    convolutions = head.Convolutions(base)
    synthetic = head.split_data(convolutions, dict(np.load(fit_data)))
    first = int(synthetic.board.max()) + 1
    real = {}
    for name, photos in sets.items():
        real[name] = head.real_data(convolutions, {name: photos}, first)
        first = int(real[name].board.max()) + 1
    models = {}
    for name in sets:
        others = head.HeadData.join(d for other, d in real.items() if other != name)
        models[name] = folder / f"{name}.onnx"
        head.write(base, head.fit(head.base_head(base), synthetic, others, progress=False),
                   models[name])
        print(f"  head refitted without {name}: {len(np.unique(others.board)) // 2} real boards",
              flush=True)
    return models


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", type=Path, default=None, help="default: the committed network")
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--sets", default="", help="comma-separated folder names (default all)")
    parser.add_argument("--sheets", type=Path, default=None)
    parser.add_argument("--errors", action="store_true", help="print every misread board")
    parser.add_argument("--leave-one-out", action="store_true",
                        help="read each set with a head refitted without it (lab.training.head; "
                             "--model is then the base network)")
    parser.add_argument("--fit-data", type=Path, default=Path("data/fit.npz"),
                        help="the synthetic split of the refit (lab.training.dataset)")
    args = parser.parse_args()
    sets = collections()
    if not sets:
        print(f"skipped: {ROOT} is absent")
        return 0
    if args.sets:
        sets = {k: v for k, v in sets.items() if k in args.sets.split(",")}
    modes = tuple(m for m in args.modes.split(",") if m)
    if args.leave_one_out:
        tmp = tempfile.TemporaryDirectory()
        models = leave_one_out(model_path(args.model), args.fit_data, sets, Path(tmp.name))
    else:
        models = {name: model_path(args.model) for name in sets}
    scores = evaluate(models, sets, modes, args.sheets)
    for mode in modes:
        print(f"== {mode}")
        total = Tally()
        for name, by_mode in scores.items():
            print(f"  {name:42s} {by_mode[mode].line()}")
            total.merge(by_mode[mode])
            if args.errors:
                for failure in by_mode[mode].failures:
                    print("      " + failure)
        print(f"  {'all':42s} {total.line()}")
        hand = Tally()
        for name, by_mode in scores.items():
            if name != "julie-robot-webcam":
                hand.merge(by_mode[mode])
        print(f"  {'the five hand-checked sets':42s} {hand.line()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
