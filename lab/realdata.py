"""The labelled real photographs of ``../shared/realdata`` (outside the repository), as data.

Six sets from other people's projects: the robot webcam frames of ``julie-robot-webcam``
(labels in the file names, corners per camera set-up in ``bench/realdata_corners.json``) and
five hand-checked sets with a ``labels.json`` each (corners, an 8x8 grid in the labelled
frame, and for fisheye photos the 7x7 measured inner grid points). Everything here is in
the *labelled frame*: row 0 of ``grid`` runs from ``corners[0]`` to ``corners[1]``.

The benchmark (``bench/realdata.py``) reads them; the leave-one-set-out fit of the reading
head of the network (``lab.training.head``) learns from all sets but the one it is
scored on (``bench/realdata.py --leave-one-out``). Nothing is copied into the repository.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import cv2
import numpy as np

from makhos.calibration.intrinsics import calibrate_lens
from makhos.engine.squares import square_at
from makhos.vision.geometry import homography_from_corners, project
from makhos.vision.lens import Lens
from makhos.vision.locate import INNER_CORNERS
from makhos.vision.rectify import SquareCrops, crop_squares, played_cells, square_centres

ROOT = Path(__file__).resolve().parents[2] / "shared" / "realdata"
JULIE = "julie-robot-webcam"
JULIE_CORNERS = Path(__file__).resolve().parents[1] / "bench" / "realdata_corners.json"
#: Sets whose kings are printed symbols on flat stickers, not two men stacked: their kings
#: are scored for occupancy and side only.
SYMBOL_KINGS = frozenset({"soon-jynn-chu-checkers-piece-detection"})
OUTER = np.array([[0, 0], [8, 0], [8, 8], [0, 8]], float)


@dataclass(frozen=True)
class RealPhoto:
    """One labelled photograph. ``grid``: '.' empty or unplayed, 'l'/'d' men, 'L'/'D'
    kings, '?' not visible; ``inner_points`` (49, 2) row-major where the lens bends lines."""

    collection: str
    setup: str  # camera and board set-up within the collection (one calibration each)
    path: Path
    grid: tuple[str, ...]
    corners: np.ndarray
    inner_points: np.ndarray | None = None

    @property
    def name(self) -> str:
        return f"{self.collection}/{self.path.name}"

    @property
    def stacked_kings(self) -> bool:
        return self.collection not in SYMBOL_KINGS

    def image(self) -> np.ndarray:
        image = cv2.imread(str(self.path), cv2.IMREAD_COLOR)
        if image is None:
            raise ValueError(f"cannot read {self.path}")
        return image

    @cached_property
    def cells(self) -> np.ndarray:
        """(8, 8) array of the grid's characters."""
        return np.array([list(row) for row in self.grid])

    @property
    def pieces(self) -> int:
        return int(np.isin(self.cells, list("lLdD")).sum())

    def played_parity(self) -> int | None:
        """(row + col) % 2 of the squares the pieces stand on, None on an empty board."""
        rows, cols = np.nonzero(np.isin(self.cells, list("lLdD")))
        if len(rows) == 0:
            return None
        return int(np.bincount((rows + cols) % 2, minlength=2).argmax())

    def start_side(self) -> bool:
        """Whether this is a start position (8 or 12 men a side, each side on its own end,
        whichever edge of the photo's frame that is)."""
        rows, cols = np.mgrid[0:8, 0:8]
        for turned in (self.cells, self.cells[::-1], self.cells.T, self.cells.T[::-1]):
            pieces = np.isin(turned, list("lLdD"))
            if not pieces.any():
                return False
            play = (rows + cols) % 2 == (rows + cols)[pieces][0] % 2
            for men in (2, 3):
                for near, far in (("l", "d"), ("d", "l")):
                    want = np.where(play & (rows < men), near,
                                    np.where(play & (rows >= 8 - men), far, "."))
                    if np.array_equal(want, turned):
                        return True
        return False


def julie_labels(name: str) -> str:
    """32 labels in square order from that project's 'W+B' masks (light, dark).

    Bit 4j + i is row j from the bottom of their rectified board and column x = 2i + j % 2;
    the corners file puts their row j at our row 7 - j and their x at our column.

    >>> julie_labels("4293918720+4095")  # the 12-man start
    'llllllllllll........dddddddddddd'
    """
    light, dark = (int(v) for v in name.split("+"))
    out = ["."] * 32
    for mask, label in ((light, "l"), (dark, "d")):
        for bit in range(32):
            if mask >> bit & 1:
                j, i = divmod(bit, 4)
                square = square_at(7 - j, 2 * i + j % 2)
                assert square is not None  # a dark square of the board
                out[square - 1] = label
    return "".join(out)


def grid_of(labels: str, played: str = "dark") -> tuple[str, ...]:
    """The 8x8 grid (rows of the board's own frame) of 32 labels in square order."""
    grid = [["."] * 8 for _ in range(8)]
    for (row, col), label in zip(played_cells(played), labels):
        grid[row][col] = label
    return tuple("".join(row) for row in grid)


def julie_photos(root: Path = ROOT) -> list[RealPhoto]:
    """The labelled frames of every julie-robot-webcam set-up named in the corners file."""
    setups = {k: v for k, v in json.loads(JULIE_CORNERS.read_text()).items()
              if not k.startswith("_")}
    photos = []
    for setup, info in setups.items():
        corners = np.asarray(info["corners"], float)
        for path in sorted((root / JULIE / setup).glob("*+*.jpg")):
            photos.append(RealPhoto(JULIE, setup, path, grid_of(julie_labels(path.stem),
                                                                info["played"]), corners))
    return photos


def _setup(collection: str, file: str) -> str:
    """The camera and board set-up of a hand-checked photo (one calibration per set-up)."""
    stem = Path(file).stem
    if collection.startswith("b3nny01"):
        return stem.split("_")[1]  # v1, v2, v3: three boards and piece sets
    if collection.startswith("alexkassil"):
        if stem.startswith("checkers_f"):
            return "video"
        return {"check7": "phone", "check8": "phone", "check16": "vinyl",
                "check17": "vinyl"}.get(stem, "paper")
    if collection.startswith("soon-jynn"):
        number = int(stem[3:])
        return "far" if number >= 100 else "pose-a" if number < 10 else "pose-b"
    if collection.startswith("sabshine"):
        return stem.split("_")[0]
    return "one"


def labelled_photos(folder: Path) -> list[RealPhoto]:
    """The photos of one hand-checked set (a folder with ``labels.json``)."""
    labels = json.loads((folder / "labels.json").read_text())
    photos = []
    for entry in labels["images"]:
        inner = entry.get("inner_points")
        photos.append(RealPhoto(
            folder.name, _setup(folder.name, entry["file"]), folder / entry["file"],
            tuple(entry["grid"]), np.asarray(entry["corners"], float),
            None if inner is None else np.asarray(inner, float).reshape(49, 2)))
    return photos


def collections(root: Path = ROOT) -> dict[str, list[RealPhoto]]:
    """Every labelled set under ``root``, by folder name; empty where ``root`` is absent."""
    if not root.is_dir():
        return {}
    found = {}
    if (root / JULIE).is_dir():
        found[JULIE] = julie_photos(root)
    for folder in sorted(p for p in root.iterdir() if (p / "labels.json").is_file()):
        found[folder.name] = labelled_photos(folder)
    return found


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
        rc = np.indices((8, 8)).reshape(2, -1).T
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


def cells_of(corners: np.ndarray, played: str, truth: TrueGeometry) -> np.ndarray:
    """(32, 2) labelled-frame (row, col) of squares 1..32 of a board with these corners."""
    points = image_points(corners, truth.lens, square_centres(played))
    H = homography_from_corners(ideal(truth.corners, truth.lens))
    board = project(np.linalg.inv(H), ideal(points, truth.lens))
    return np.asarray(np.clip(np.floor(board[:, ::-1]), 0, 7).astype(int))


def photo_geometry(photo: RealPhoto, image: np.ndarray) -> tuple[np.ndarray, Lens | None, str]:
    """A photo's true corners numbered so that its squares in play are those of
    ``played='dark'``, its lens (or None), and the 32 true labels in square order."""
    truth = TrueGeometry.of(photo, (image.shape[1], image.shape[0]))
    parity = photo.played_parity()
    if parity is None:
        parity = board_parity(image, truth)
    corners = numbering_corners(truth.corners, parity)
    cells = cells_of(corners, "dark", truth)
    return corners, truth.lens, "".join(photo.cells[r, c] for r, c in cells)


def true_crops(photo: RealPhoto, image: np.ndarray) -> tuple[SquareCrops, str]:
    """The 32 crops of a photo cut with its true corners and lens (:func:`photo_geometry`),
    and their 32 true labels."""
    corners, lens, labels = photo_geometry(photo, image)
    return crop_squares(image, corners, "dark", lens=lens), labels
