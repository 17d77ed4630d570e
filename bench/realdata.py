"""Square reading on the real photographs of ../shared/realdata, set by set and in total.

Every labelled set is read (``models.realdata``): the julie-robot-webcam frames (labels from
that project's own detector, a draft) and the five hand-checked sets. Each photo is read
three ways, so that the stages' errors are told apart:

- ``given``: the true corners (through the lens fitted to the measured inner grid points,
  where the photo has them) and the true colour of the squares in play: the reader alone;
- ``colour``: the true corners and lens, the colour in play decided by the reader;
- ``found``: the board finder and the orientation, as ``makhos read`` does it (no lens).

and, where the photo's set-up has a start position, ``calibrated``: the one-shot adaptation
fitted on that start position (``calibration.adaptation``), the others of the set-up read
with the true corners (the start photo itself is left out of that figure).

Scores, over the 32 squares in play of each photo (squares marked '?' are not scored): squares
wrong in any way; of those, wrong in occupancy or side (empty, light, dark: a man read as a
king of its side is right here); man/king error over the pieces read with the right side
(kings printed as symbols on stickers are not scored for it); whole boards right (every
square right); and the boards whose pieces were all found but whose sides were named the
wrong way round (two sets of one lightness: only a profile or the start position names them).

    python bench/realdata.py [--model M] [--modes given,found] [--sheets DIR] [--errors]

``--sheets DIR`` writes a contact sheet per set of the misread squares' crops (truth and
reading under each) and a rectified view of each misread board with its errors marked.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calibration.adaptation import AdaptedClassifier, fit_adaptation, model_fingerprint  # noqa: E402
from calibration.intrinsics import calibrate_lens  # noqa: E402
from models.realdata import ROOT, RealPhoto, collections  # noqa: E402
from vision.classifier import LABELS, SquareClassifier, model_path  # noqa: E402
from vision.geometry import homography_from_corners, project  # noqa: E402
from vision.lens import Lens  # noqa: E402
from vision.locate import INNER_CORNERS, locate_board  # noqa: E402
from vision.orientation import orient  # noqa: E402
from vision.rectify import SquareCrops, crop_squares, played_cells, square_centres  # noqa: E402

MODES = ("given", "colour", "found", "calibrated")
OUTER = np.array([[0, 0], [8, 0], [8, 8], [0, 8]], float)


@dataclass(frozen=True)
class TrueGeometry:
    """A photo's labelled board: corners in camera pixels and the lens (or None)."""

    corners: np.ndarray
    lens: Lens | None

    @classmethod
    def of(cls, photo: RealPhoto, size: tuple[int, int]) -> TrueGeometry:
        """From the labels; with inner points, a one-view lens and corners refitted on all
        53 measured points in the ideal image (a homography there is exact)."""
        if photo.inner_points is None:
            return cls(photo.corners, None)
        lens = calibrate_lens([photo.inner_points], size).lens
        board = np.concatenate([OUTER, INNER_CORNERS])
        ideal = lens.undistort_points(np.concatenate([photo.corners, photo.inner_points]))
        H, _ = cv2.findHomography(board, ideal)
        return cls(lens.distort_points(project(H, OUTER).astype(float)), lens)

    def centres(self) -> np.ndarray:
        """(8, 8, 2) camera pixels of each labelled cell's centre."""
        rc = np.stack(np.mgrid[0:8, 0:8], axis=-1).reshape(-1, 2)
        return image_points(self.corners, self.lens, rc[:, ::-1] + 0.5).reshape(8, 8, 2)


def ideal(corners: np.ndarray, lens: Lens | None) -> np.ndarray:
    return np.asarray(corners, float) if lens is None else lens.undistort_points(corners)


def image_points(corners: np.ndarray, lens: Lens | None, board_xy: np.ndarray) -> np.ndarray:
    """Board points (x, y in squares) of a board with these camera corners, in camera pixels."""
    points = project(homography_from_corners(ideal(corners, lens)), board_xy).astype(float)
    return points if lens is None else lens.distort_points(points)


def to_labelled(labels: str, corners: np.ndarray, played: str, lens: Lens | None,
                truth: TrueGeometry) -> np.ndarray:
    """(8, 8) labels in the photo's labelled frame of a reading in another frame (32 labels
    in square order for a board with ``corners`` and ``played``): each labelled cell takes
    the reading of the cell its centre falls in, '.' where that is not a square in play."""
    points = truth.centres().reshape(-1, 2)
    H = homography_from_corners(ideal(corners, lens))
    board = project(np.linalg.inv(H), ideal(points, lens))
    cells = np.floor(board[:, ::-1]).astype(int)  # (row, col)
    where = {tuple(rc): k for k, rc in enumerate(played_cells(played))}
    out = [labels[where[(r, c)]] if (r, c) in where else "." for r, c in cells]
    return np.array(out).reshape(8, 8)


def numbering_corners(corners: np.ndarray, parity: int) -> np.ndarray:
    """Corners whose frame puts the squares in play at row + col odd (``played='dark'``
    of ``vision.rectify``): a quarter turn changes the parity."""
    return np.asarray(corners) if parity == 1 else np.roll(corners, -1, axis=0)


def board_parity(image: np.ndarray, truth: TrueGeometry) -> int:
    """The parity of the darker squares (every set plays on them), by the grey level at the
    squares' corners, which pieces leave uncovered."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(float)
    tone = np.zeros(2)
    for r in range(8):
        for c in range(8):
            quarter = [[c + dx, r + dy] for dx in (0.15, 0.85) for dy in (0.15, 0.85)]
            x, y = np.rint(image_points(truth.corners, truth.lens, np.array(quarter))).T.astype(int)
            ok = (x >= 0) & (y >= 0) & (x < grey.shape[1]) & (y < grey.shape[0])
            tone[(r + c) % 2] += grey[y[ok], x[ok]].mean() if ok.any() else 0
    return int(np.argmin(tone))


# ----------------------------------------------------------------------------- scoring

@dataclass
class Score:
    """Counts over photos: the squares in play scored, those wrong in any way, in occupancy
    or side, man/king pairs scored and wrong, whole boards right, and boards whose every
    piece was found but whose two sides were named the wrong way round."""

    photos: int = 0
    boards_right: int = 0
    squares: int = 0
    wrong: int = 0
    side_wrong: int = 0
    kinds: int = 0
    kind_wrong: int = 0
    swapped: int = 0
    failures: list[str] = field(default_factory=list)

    def add(self, photo: RealPhoto, parity: int, read: np.ndarray) -> np.ndarray:
        """Score one reading ((8, 8) labels, labelled frame) on the squares of ``parity``;
        returns the (8, 8) mask of squares read wrong."""
        truth = photo.cells
        rows, cols = np.mgrid[0:8, 0:8]
        scored = (truth != "?") & ((rows + cols) % 2 == parity)
        side_bad = scored & (np.char.lower(truth) != np.char.lower(read))
        kind_scored = scored & ~side_bad & np.isin(truth, list("lLdD"))
        if not photo.stacked_kings:
            kind_scored &= np.isin(truth, list("ld"))
        kind_bad = kind_scored & (truth != read)
        bad = side_bad | kind_bad
        pieces = scored & np.isin(truth, list("lLdD"))
        swap = {"l": "d", "d": "l", ".": ".", "x": "x"}
        flipped = np.vectorize(lambda c: swap.get(c.lower(), c))(read)
        self.photos += 1
        self.squares += int(scored.sum())
        self.wrong += int(bad.sum())
        self.side_wrong += int(side_bad.sum())
        self.kinds += int(kind_scored.sum())
        self.kind_wrong += int(kind_bad.sum())
        self.boards_right += int(not bad.any())
        self.swapped += int(side_bad[pieces].all() and pieces.any()
                            and not (scored & (np.char.lower(truth) != flipped)).any())
        if bad.any():
            self.failures.append(photo.path.name + ": " + ", ".join(
                f"({r},{c}) {truth[r, c]}->{read[r, c]}" for r, c in zip(*np.nonzero(bad))))
        return bad

    def merge(self, other: Score) -> None:
        for name in ("photos", "boards_right", "squares", "wrong", "side_wrong", "kinds",
                     "kind_wrong", "swapped"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def line(self) -> str:
        if not self.photos:
            return "no photo"
        squares = max(self.squares, 1)
        return (f"{self.photos:4d} photos  squares wrong {100 * self.wrong / squares:6.2f} % "
                f"(occupancy/side {100 * self.side_wrong / squares:5.2f} %, "
                f"{self.side_wrong}/{self.squares}; sides swapped on {self.swapped} boards)  "
                f"man/king {100 * self.kind_wrong / max(self.kinds, 1):5.2f} % "
                f"({self.kind_wrong}/{self.kinds})  boards right "
                f"{100 * self.boards_right / self.photos:5.1f} % ({self.boards_right}/{self.photos})")


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


def cells_of(corners: np.ndarray, played: str, truth: TrueGeometry) -> np.ndarray:
    """(32, 2) labelled-frame (row, col) of squares 1..32 of a board with these corners."""
    points = image_points(corners, truth.lens, square_centres(played))
    H = homography_from_corners(ideal(truth.corners, truth.lens))
    board = project(np.linalg.inv(H), ideal(points, truth.lens))
    return np.clip(np.floor(board[:, ::-1]), 0, 7).astype(int)


def read_colour(classify: Classify, image: np.ndarray, truth: TrueGeometry) -> Read:
    from vision.geometry import location_from_corners

    corners = truth.corners
    location = location_from_corners(corners)
    numbered = orient(image, location)
    crops = crop_squares(image, numbered.location.corners, numbered.played, lens=truth.lens)
    labels = "".join(LABELS[k] for k in classify(crops).argmax(1))
    return Read(to_labelled(labels, numbered.location.corners, numbered.played, truth.lens, truth))


def read_found(classify: Classify, image: np.ndarray, truth: TrueGeometry) -> Read:
    location = locate_board(image)
    if location is None:
        return Read(np.full((8, 8), "x"))  # no board: every square with a piece is wrong
    numbered = orient(image, location)
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


def evaluate(network: SquareClassifier, fingerprint: str, sets: dict[str, list[RealPhoto]],
             modes: tuple[str, ...], sheets: Path | None = None
             ) -> dict[str, dict[str, Score]]:
    scores: dict[str, dict[str, Score]] = {}
    for name, photos in sets.items():
        scores[name] = {mode: Score() for mode in modes}
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
                bad = scores[name][mode].add(photo, parity, read.grid)
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", type=Path, default=None, help="default: the committed network")
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--sets", default="", help="comma-separated folder names (default all)")
    parser.add_argument("--sheets", type=Path, default=None)
    parser.add_argument("--errors", action="store_true", help="print every misread board")
    args = parser.parse_args()
    sets = collections()
    if not sets:
        print(f"skipped: {ROOT} is absent")
        return 0
    if args.sets:
        sets = {k: v for k, v in sets.items() if k in args.sets.split(",")}
    modes = tuple(m for m in args.modes.split(",") if m)
    model = model_path(args.model)
    scores = evaluate(SquareClassifier(model), model_fingerprint(model), sets, modes, args.sheets)
    for mode in modes:
        print(f"== {mode}")
        total = Score()
        for name, by_mode in scores.items():
            print(f"  {name:42s} {by_mode[mode].line()}")
            total.merge(by_mode[mode])
            if args.errors:
                for failure in by_mode[mode].failures:
                    print("      " + failure)
        print(f"  {'all':42s} {total.line()}")
        hand = Score()
        for name, by_mode in scores.items():
            if name != "julie-robot-webcam":
                hand.merge(by_mode[mode])
        print(f"  {'the five hand-checked sets':42s} {hand.line()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
