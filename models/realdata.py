"""The labelled real photographs of ``../shared/realdata`` (outside the repository), as data.

Six sets from other people's projects: the robot webcam frames of ``julie-robot-webcam``
(labels in the file names, corners per camera set-up in ``bench/realdata_corners.json``) and
five hand-checked sets with a ``labels.json`` each (corners, an 8x8 grid in the labelled
frame, and for fisheye photos the 7x7 measured inner grid points). Everything here is in
the *labelled frame*: row 0 of ``grid`` runs from ``corners[0]`` to ``corners[1]``.

The benchmark (``bench/realdata.py``) reads them; the leave-one-set-out fit of the reading
stage on top of the network (``models.board_head``) learns from all sets but the one it is
scored on (``bench/realdata.py --fit``). Nothing is copied into the repository.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import cv2
import numpy as np

from engine.squares import square_at
from vision.rectify import played_cells

ROOT = Path(__file__).resolve().parents[2] / "shared" / "realdata"
JULIE = "julie-robot-webcam"
JULIE_CORNERS = Path(__file__).resolve().parents[1] / "bench" / "realdata_corners.json"
#: Sets whose kings are printed symbols on flat stickers, not two men stacked: their kings
#: are scored for occupancy and side only.
SYMBOL_KINGS = frozenset({"soon-jynn-chu-checkers-piece-detection"})


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
        """Whether this is a start position (8 or 12 men a side, each side on its own end)."""
        parity = self.played_parity()
        if parity is None:
            return False
        for turned in (self.cells, self.cells[::-1]):
            for men in (2, 3):
                want = np.full((8, 8), ".")
                rr, cc = np.mgrid[0:8, 0:8]
                play = (rr + cc) % 2 == parity
                want[play & (rr < men)] = "l"
                want[play & (rr >= 8 - men)] = "d"
                for a, b in (("l", "d"), ("d", "l")):
                    w = np.where(want == "l", a, np.where(want == "d", b, "."))
                    if np.array_equal(w, turned):
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
                out[square_at(7 - j, 2 * i + j % 2) - 1] = label
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
