"""How tall a piece stands, measured on its crop: the geometric cue beside the network's
embeddings that tells a stacked king from a man (#42).

A king is a man with another on top: seen side-on its top stands one man's thickness
higher, about 5 crop pixels (0.16 of a square), while a man's top already moves 2-3 pixels
from square to square with the perspective. The network's embeddings carry that cue only
weakly, and a game teaches a king refit only the few squares its kings stood on. The crop
is rectified on the board plane with "up" away from the camera (``vision.rectify``), so a
piece's top is the highest row of the column above the square's centre that still has the
piece's own colour; over the cotangent of the angle the square is seen at, that gives a
height in squares that means the same on every square. What a man measures there is left
to the reader's king refit (``vision.learning``): it compares each piece with a man of its
own side on its own square or row, as it does with the embeddings, so a side not crowned
yet and a square never seen with a king are judged against the men the start showed.

Cheap: plain numpy on the band of the crops already cut (32 x 52 x 11 pixels a board).
"""

from __future__ import annotations

import cv2
import numpy as np

from .rectify import CropGeometry, SquareCrops

#: Half the width, in crop pixels, of the column above the square's centre that is searched.
HALF_BAND = 5
#: How far above the square's centre (crop pixels) the piece's own colour is sampled: a
#: piece's top face, which a stack raises, not its base (8 pixels square around it).
SAMPLE_UP = 10
#: A pixel has the piece's colour within this Lab distance, or three times the spread of
#: the sample where the piece is mottled.
CLOSE = 12.0
#: How a piece's top is searched: (share of the column's pixels of its colour that makes a
#: row the piece's, rows not of its colour stepped over: a stack's seam, a ring). Two
#: searches, strict and lenient: each fails on pieces the other reads.
SEARCHES = ((0.5, 2), (0.3, 4))
#: Rows of the column above the sample, in bands of this many, whose share of the piece's
#: colour is given too (the piece's outline, as a profile the refit weighs).
BANDS, BAND_ROWS = 8, 3
#: Heights (squares) and shares are given times these. The king refit pulls every weight
#: alike toward where it starts, so a larger scale lets the game's own kings weigh the cue
#: more: a king stands about 0.15 square above a man, some 14 units here (chosen on
#: ``bench.learning``; the scales tried and what each read: ``bench/RESULTS.md``).
HEIGHT_SCALE, SHARE_SCALE = 96.0, 16.0
#: Columns ``stack_heights`` gives a crop.
HEIGHTS = len(SEARCHES) + BANDS


def stack_heights(crops: SquareCrops, geometry: CropGeometry) -> np.ndarray:
    """(N, ``HEIGHTS``) how high each crop's piece reaches above its square: for each of
    ``SEARCHES``, the rows from the square's centre to the piece's top over the crop's
    pixels per square and the cotangent of the angle the square is seen at (a height in
    squares, the same on every square), then the share of the piece's colour in each band of
    rows above it. Measured on empty squares too (the board's own pattern then), where the
    king head never looks."""
    images = crops.images
    n = len(images)
    if n == 0:
        return np.zeros((0, HEIGHTS))
    cx, cy = geometry.centre
    left, right = int(cx - HALF_BAND), int(cx + HALF_BAND + 1)
    start = int(cy - SAMPLE_UP)
    bottom = start + 4
    band = np.ascontiguousarray(images[:, :bottom, left:right])
    h, w = band.shape[1:3]
    lab = cv2.cvtColor(band.reshape(n * h, w, 3), cv2.COLOR_BGR2LAB).reshape(n, h, w, 3).astype(np.float32)
    sample = lab[:, start - 4:bottom, int(cx - 4) - left:int(cx + 5) - left].reshape(n, -1, 3)
    colour = np.median(sample, 1)
    spread = np.median(np.linalg.norm(sample - colour[:, None], axis=-1), 1)
    distance = np.linalg.norm(lab - colour[:, None, None], axis=-1)
    share = (distance < np.maximum(CLOSE, 3 * spread)[:, None, None]).mean(2)
    cot = np.maximum(crops.sight[:, 0].astype(np.float64), 0.2)
    columns = [(cy - _tops(share >= least, start, gap)) / (geometry.pps * cot) * HEIGHT_SCALE
               for least, gap in SEARCHES]
    columns += [share[:, max(0, start - BAND_ROWS * (k + 1)):start - BAND_ROWS * k].mean(1) * SHARE_SCALE
                for k in range(BANDS)]
    return np.stack(columns, 1)


def _tops(close: np.ndarray, start: int, gap: int) -> np.ndarray:
    """(N,) the highest row of each crop's piece: from row ``start`` up, rows of the piece's
    colour (``close``, (N, rows)), stepping over at most ``gap`` rows that are not."""
    top = np.full(len(close), float(start))
    searching = np.ones(len(close), bool)
    missed = np.zeros(len(close), int)
    for y in range(start - 1, -1, -1):
        here = close[:, y] & searching
        top[here] = y
        missed = np.where(here, 0, missed + 1)
        searching &= missed <= gap
        if not searching.any():
            break
    return top
