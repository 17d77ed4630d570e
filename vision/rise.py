"""How far a piece rises above the start's own man on its square: the cue that tells a
stacked king from a man where the piece is the colour of its square (#42).

A king is a man with another on top: seen side-on, its upper man is the man of that square
moved up the crop by one man's thickness (about 5 crop pixels, 0.16 of a square), while a
man's top already moves 2-3 pixels from square to square with the perspective. The height
cue (``vision.height``) follows the piece's own colour up its crop and loses it where the
square behind has that colour too (brown on brown, red on red). This cue compares shapes,
not colours: the horizontal edges of the crop's middle (the rim of a piece's top face, a
stack's seam), as a profile of rows, against the profile of the man the start showed on the
same square, shifted up by every amount a stack may rise. The same square's reference takes
the perspective out; a man of the other side has the same rim, so one reference serves both.

The start puts a man on every square of both home areas. A square empty at the start
borrows the man of the nearest square of its column, moved by what the perspective does to
a man's top between the two squares (``MAN_THICKNESS`` times the difference of their
cotangents); what is left of the difference is a square's own, which the game's king refit
takes out against the men it sees there (``vision.learning.side_squares``).

Bounded: the start's references are 32 profiles of ``KEPT_ROWS`` rows by ``BANDS`` bands
(float16, 8.8 kB, kept with the game); a board's rises are a few numpy operations on the
band of its crops (under a millisecond).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .rectify import CropGeometry, SquareCrops, played_cells

#: Half the width, in crop pixels, of the middle of the crop whose edges are compared.
HALF_WIDTH = 9
#: Bands of columns the middle is averaged over (a rim is level; its ends curve down).
BANDS = 3
#: Crop rows compared (top, bottom): from above a stack's top to below a man's rim.
WINDOW = (18, 48)
#: Upward shifts, in crop pixels, the piece's profile is matched at (the first, -2, lets a
#: man a little lower than the start's count as no rise).
SHIFTS = np.arange(-2, 14)
#: Rows of a crop a reference keeps: the window at every shift.
KEPT_ROWS = (WINDOW[0] + int(SHIFTS[0]), WINDOW[1] + int(SHIFTS[-1]))
#: The least rise, in squares, that a stack shows (the renderer's men are 0.10-0.20 high),
#: and the most a rise is counted (a steep view makes a pixel many squares).
LEAST_RISE, MOST_RISE = 0.09, 0.4
#: A man's thickness in squares, for a reference borrowed from another square of the column.
MAN_THICKNESS = 0.14
#: Columns ``rises`` gives a crop, and their scales: the match gained by rising, the best
#: rise (squares) and the match without rising. The king refit pulls every weight alike
#: toward its start, so a larger scale lets a game's few kings weigh the cue more: 10 times
#: these read more rendered kings on the scenes tuned on, but taught on a set-up's kings
#: alone it lost two kingplay games (70004, 70024: ``bench/RESULTS.md``); these keep them.
RISES = 3
SCALES = np.array([9.6, 38.4, 9.6])


def edge_profiles(images: np.ndarray, geometry: CropGeometry) -> np.ndarray:
    """(N, rows, ``BANDS``) float32: how strongly the grey level changes from each row to the
    next in the crop's middle, averaged over each band of columns."""
    cx = geometry.centre[0]
    left = int(cx - HALF_WIDTH)
    width = (2 * HALF_WIDTH + 1) // BANDS * BANDS
    grey = images[:, :, left:left + width].astype(np.float32).mean(-1)
    edges = np.abs(np.diff(grey, axis=1, prepend=grey[:, :1]))
    out: np.ndarray = edges.reshape(len(images), grey.shape[1], BANDS, -1).mean(-1)
    return out


@dataclass(frozen=True, eq=False)
class StartMen:
    """The start's man on each square, as ``rises`` compares a piece with: ``profiles``
    (32, kept rows, ``BANDS``) and ``cot``, (32,) the cotangent each square was seen at
    then (a camera knocked since moves a man's top by the change)."""

    profiles: np.ndarray
    cot: np.ndarray


def man_profiles(crops: SquareCrops, shown: str, geometry: CropGeometry) -> StartMen | None:
    """The start's man on each square (None: the start shows no man). A square without a
    man borrows the nearest man of its column (of the board, then of any square), moved up
    or down the crop as the perspective moves a man's top between the two squares."""
    men = np.array([label in ("l", "d") for label in shown])
    if not men.any():
        return None
    profiles = edge_profiles(crops.images, geometry)
    rows = np.arange(*KEPT_ROWS)
    cells = played_cells("dark")
    cot = crops.sight[:, 0].astype(np.float64)
    out = np.zeros((32, len(rows), BANDS), np.float32)
    for square in range(32):
        row, col = cells[square]
        far = np.abs(cells[:, 0] - row) + 8 * (cells[:, 1] != col) + 100 * ~men
        source = int(np.argmin(far))
        out[square] = profiles[source, _moved(rows, cot[square] - cot[source], geometry, profiles.shape[1])]
    return StartMen(out, cot)


def _moved(rows: np.ndarray, cot_change: float | np.ndarray, geometry: CropGeometry, height: int) -> np.ndarray:
    """The rows of a man's profile seen at a cotangent larger by ``cot_change``: his top
    stands ``MAN_THICKNESS`` times that higher in the crop."""
    moved = np.round(MAN_THICKNESS * geometry.pps * np.asarray(cot_change)).astype(int)
    out: np.ndarray = np.clip(rows + moved, 0, height - 1)
    return out


def rises(crops: SquareCrops, squares: np.ndarray, men: StartMen, geometry: CropGeometry) -> np.ndarray:
    """(N, ``RISES``) how each crop's piece (on ``squares``, 0-31) matches the start's man
    there (``man_profiles``) moved up: the best match at a rise of ``LEAST_RISE`` or more
    over the match without, the rise matched best (squares: over the crop's pixels per square
    and the cotangent it is seen at, at most ``MOST_RISE``), and the match without rising;
    each times ``SCALES``. The start's man is first moved as the perspective moved since
    the start (a camera knocked to another angle).
    Empty squares are measured too, where the king head never looks."""
    n = len(crops.images)
    if n == 0:
        return np.zeros((0, RISES))
    piece = edge_profiles(crops.images, geometry)[:, WINDOW[0]:WINDOW[1]]
    piece = piece - piece.mean((1, 2), keepdims=True)
    kept = np.arange(KEPT_ROWS[1] - KEPT_ROWS[0])
    now = crops.sight[:, 0].astype(np.float64) - men.cot[squares]
    reference = np.take_along_axis(men.profiles[squares],
                                   _moved(kept[None], now[:, None], geometry, len(kept))[..., None], 1)
    top = WINDOW[0] - KEPT_ROWS[0]
    matches = []
    for shift in SHIFTS:
        man = reference[:, top + shift:top + shift + WINDOW[1] - WINDOW[0]]
        man = man - man.mean((1, 2), keepdims=True)
        scale = np.sqrt((piece ** 2).sum((1, 2)) * (man ** 2).sum((1, 2))) + 1e-6
        matches.append((piece * man).sum((1, 2)) / scale)
    match = np.stack(matches, 1)
    rise = SHIFTS[None] / (geometry.pps * np.maximum(crops.sight[:, :1].astype(np.float64), 0.2))
    still = match[:, int(np.flatnonzero(SHIFTS == 0)[0])]
    risen = np.where(rise >= LEAST_RISE, match, -1.0).max(1)
    best = np.minimum(np.take_along_axis(rise, match.argmax(1)[:, None], 1)[:, 0], MOST_RISE)
    out: np.ndarray = np.stack([risen - still, best, still], 1) * SCALES
    return out
