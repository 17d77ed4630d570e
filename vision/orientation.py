"""Which colour of squares is in play, and which side is row 0, from the pieces on the board.

Localisation finds the grid but cannot know the numbering: any of the four corners could be
square 1's corner. The pieces settle it, once, when the board is first seen (best in the
start position), and the result goes into the board profile:

- pieces stand on one colour of squares only, so the parity of squares (in the located
  frame) that shows pieces is the played parity; comparing the two parities' own colour
  (read at the squares' corners, which pieces never cover) says whether that is the dark
  or the light colour;
- the numbering frame must have the played squares where :func:`vision.rectify.played_cells`
  puts them (row + col odd for dark, even for light), which leaves two of the four
  rotations, half a turn apart;
- of those two, the one with the darker men at the bottom (rows 5-7, squares 21-32, where
  the dark side starts) is kept: no need to classify each man, only to compare the
  brightness of the played squares row by row.

Occupancy here is a cheap cue (the centre of a square unlike its corners), enough to
orient the board; reading the position is the classifier's job.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .geometry import BoardLocation
from .lens import Lens
from .rectify import camera_foot, crop_squares, played_cells
from .squares import SquareReader

PX = 32  # rectified pixels per square


@dataclass(frozen=True)
class CellEvidence:
    """Per-cell cues in the located frame, indexed [row, col] (row along corners[0] -> corners[3])."""

    occupied: np.ndarray  # (8, 8) bool
    score: np.ndarray  # (8, 8) float: centre unlike the square's corners, plus a round edge
    piece_tone: np.ndarray  # (8, 8) float: grey level of the centre
    square_tone: np.ndarray  # (8, 8) float: grey level of the square's corners


@dataclass(frozen=True)
class Orientation:
    """The numbering frame: ``location.corners[0]`` is the corner of row 0, col 0."""

    location: BoardLocation
    played: str  # 'dark' or 'light': the colour of the squares in play
    confidence: float  # in [0, 1]; 0 when the men's colours could not be told apart
    quarter_turns: int  # applied to the input location


def _rectified(frame: np.ndarray, location: BoardLocation) -> np.ndarray:
    to_board = np.array([[1 / PX, 0, 0], [0, 1 / PX, 0], [0, 0, 1]], np.float64)
    return cv2.warpPerspective(
        frame,
        location.homography @ to_board,
        (8 * PX, 8 * PX),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
    )


def _disc(r0: float, r1: float) -> np.ndarray:
    """(N, 2) integer offsets (dx, dy) of an annulus r0 <= r < r1, radii in squares."""
    yy, xx = np.mgrid[-PX // 2 : PX // 2 + 1, -PX // 2 : PX // 2 + 1]
    r = np.hypot(xx, yy) / PX
    keep = (r >= r0) & (r < r1)
    return np.stack([xx[keep], yy[keep]], axis=1)


def cell_evidence(frame: np.ndarray, location: BoardLocation) -> CellEvidence:
    """Occupancy and tones of the 64 cells, from a top-down view of the board.

    Seen from low down, a man's top leans away from the camera into the next square; the
    cues are therefore read a little off centre, on the side away from the camera, which
    the man's own top covers and its neighbour's never reaches.
    """
    view = _rectified(frame, location).astype(np.float32)
    if view.ndim == 2:
        view = view[..., None]
    h, w = frame.shape[:2]
    foot = camera_foot(location.corners, (w, h))
    rc = np.moveaxis(np.mgrid[0:8, 0:8], 0, -1).reshape(-1, 2)
    centres = rc[:, ::-1] + 0.5  # (x, y) board units
    away = centres - foot
    away /= np.maximum(np.linalg.norm(away, axis=1, keepdims=True), 1e-6)
    probe = (centres + 0.12 * away) * PX

    def sample(image: np.ndarray, offsets: np.ndarray) -> np.ndarray:
        pts = np.rint(probe[:, None, :] + offsets[None]).astype(int)
        xs, ys = np.clip(pts[..., 0], 0, 8 * PX - 1), np.clip(pts[..., 1], 0, 8 * PX - 1)
        pixels: np.ndarray = image[ys, xs]
        return pixels

    centre_colour = sample(view, _disc(0, 0.22)).mean(axis=1).reshape(8, 8, -1)
    # A man the colour of its square (light wood on light wood) still shows its round edge.
    grey = view.mean(axis=2)
    edges = cv2.magnitude(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1))
    rim_energy = sample(edges, _disc(0.22, 0.4)).mean(axis=1).reshape(8, 8)
    cells = view.reshape(8, PX, 8, PX, -1).transpose(0, 2, 1, 3, 4)
    inset = PX // 8
    corners = [cells[:, :, y, x] for y in (inset, PX - 1 - inset) for x in (inset, PX - 1 - inset)]
    corner_colour = np.median(np.stack(corners), axis=0)
    score = np.linalg.norm(centre_colour - corner_colour, axis=-1) + rim_energy
    # Tone is the mean of the colour planes, not luma: on a red and green board both colours
    # have the same luma, and red is the one called light.
    piece_tone, square_tone = centre_colour.mean(axis=-1), corner_colour.mean(axis=-1)
    parity = np.add.outer(np.arange(8), np.arange(8)) % 2
    top = [np.sort(score[parity == p])[-6:].mean() for p in (0, 1)]
    played_parity = int(np.argmax(top))
    floor = np.percentile(score[parity != played_parity], 90)
    occupied = (parity == played_parity) & (score > max(2.0 * floor, 20.0))
    return CellEvidence(occupied, score, piece_tone, square_tone)


def on_its_square(evidence: CellEvidence) -> np.ndarray:
    """(8, 8) each cell's centre (a piece's top, where one stands) against the cell's own
    corners, as a log ratio: how much lighter a piece is than the square it stands on.

    Both camps stand on squares of one colour, so the lighter camp is the one lighter
    against its squares. Weighed so, a light that falls on part of the board only (a lamp's
    glare over one camp, a shadow, a lens's fall-off) lights a piece and its square alike,
    where the pieces' own tones, compared across the board, take the camp under the glare
    for the lighter (kingplay 70079: black men under a glare read as light, red ones out of
    it as dark, in a dim blue light)."""
    relative: np.ndarray = np.log((evidence.piece_tone + 8.0) / (evidence.square_tone + 8.0))
    return relative


#: How many standard errors the camps must stand apart on their squares
#: (:func:`camps_apart`) for the board to name the light camp against the reader's sides:
#: clear evidence only. Under the right numbering the rendered starts stand far above it and
#: a few close calls (a dim room, a real set seen side-on) below it, and a close call is left
#: to the reader (``bench/RESULTS.md``, "The start's camps named by the board").
CAMPS_CLEAR = 4.0


def camps_apart(frame: np.ndarray, location: BoardLocation, played: str,
                classes: np.ndarray) -> float:
    """How much lighter the camp ``classes`` (32,) (0 empty, 1 light, 2 dark, squares 1-32)
    calls light stands on its squares than the dark camp (:func:`on_its_square`), in
    standard errors of the difference of their means (negative: the dark camp is the
    lighter); 0 where a camp has fewer than two pieces. ``location`` is the numbering
    frame, ``played`` the colour of the squares in play (``vision.rectify.played_cells``)."""
    rows, cols = played_cells(played).T
    relative = on_its_square(cell_evidence(frame, location))[rows, cols]
    light, dark = relative[classes == 1], relative[classes == 2]
    if min(len(light), len(dark)) < 2:
        return 0.0
    error = np.sqrt(light.var() / len(light) + dark.var() / len(dark))
    return float((light.mean() - dark.mean()) / max(float(error), 1e-3))


def _cell_map(location: BoardLocation, turned: BoardLocation) -> np.ndarray:
    """(8, 8, 2): for each cell (row, col) of ``turned``, its (row, col) in ``location``."""
    rc = np.moveaxis(np.mgrid[0:8, 0:8], 0, -1).reshape(-1, 2).astype(np.float32)
    centres = rc[:, ::-1] + 0.5  # board (x, y) = (col, row)
    image = turned.to_image(centres)
    back = cv2.perspectiveTransform(
        image.reshape(-1, 1, 2), np.linalg.inv(location.homography)
    ).reshape(-1, 2)
    return np.clip(np.floor(back[:, ::-1]), 0, 7).astype(int).reshape(8, 8, 2)


def orient(
    frame: np.ndarray, location: BoardLocation, evidence: CellEvidence | None = None,
    played_parity: int | None = None,
) -> Orientation:
    """The numbering frame of a located board, from the pieces it shows.

    Confidence grows with the brightness difference between the two ends of the board:
    high in the start position, low in a mixed middle game, 0 on an empty board.
    ``played_parity`` ((row + col) % 2 of the squares in play, in ``location``'s frame)
    overrides the cheap cue's choice (:func:`colour_in_play` settles it with the network).
    """
    ev = evidence if evidence is not None else cell_evidence(frame, location)
    parity = np.add.outer(np.arange(8), np.arange(8)) % 2
    if played_parity is None:
        played_parity = int(np.argmax([ev.occupied[parity == p].sum()
                                       + 1e-3 * ev.score[parity == p].sum() for p in (0, 1)]))
    square_tone = [np.median(ev.square_tone[parity == p]) for p in (0, 1)]
    played = "dark" if square_tone[played_parity] < square_tone[1 - played_parity] else "light"
    want_parity = 1 if played == "dark" else 0  # rectify.played_cells: row + col odd for dark

    candidates = []
    for k in range(4):
        turned = location.rotated(k)
        cell = _cell_map(location, turned)
        # The played squares must fall where rectify expects them in the numbering frame.
        if np.array_equal(
            parity[cell[..., 0], cell[..., 1]] == played_parity, parity == want_parity
        ):
            candidates.append((k, turned, cell))

    # Light men start on rows 0-2 and dark men on rows 5-7: weigh each played square's
    # brightness by its distance from the middle; the right half turn makes the sum positive.
    weight = (3.5 - np.arange(8))[:, None] * np.ones((1, 8))
    relative = on_its_square(ev)
    played_here = parity == want_parity
    sums = []
    for _, _, cell in candidates:
        tone = relative[cell[..., 0], cell[..., 1]]
        sums.append(float((weight * (tone - np.median(tone[played_here])))[played_here].sum()))
    if not sums:  # a degenerate location (cells not mapping one to one): keep it as found
        return Orientation(location, played, 0.0, 0)
    best = int(np.argmax(sums))
    k, turned, _ = candidates[best]
    confidence = float(np.clip(abs(sums[best]) / (8 * 3 * 0.2), 0.0, 1.0))
    return Orientation(turned, played, confidence, k)


#: How much more piece evidence (the mean piece probability of a colour's 32 squares, see
#: :func:`colour_in_play`) the other colour's squares must show before the cheap cue's
#: choice of the colour in play is overturned: three more men's worth.
PLAYED_MARGIN = 0.1


def colour_in_play(reader: SquareReader, frame: np.ndarray,
                   orientation: Orientation, lens: Lens | None = None) -> Orientation:
    """``orientation`` checked by the square network on the squares of both colours.

    The cheap cue of :func:`cell_evidence` looks for pieces at the squares' centres; tall
    men seen from low lean over the square behind them, which is of the other colour, and
    dark men on dark squares barely show, so it can take the wrong colour for the one in
    play. The network reads a crop the way pieces stand: the base on its square, the stack
    spilling away from the camera. So both colours' squares are cut and read, and the colour
    whose squares hold clearly more pieces (by the mean piece probability) is the one in play. Only squares inside the 8x8 area are read: markers and men
    beside the board never count.
    """
    corners = orientation.location.corners
    other = "light" if orientation.played == "dark" else "dark"
    evidence = []
    for played in (orientation.played, other):
        piece = 1.0 - reader.classify(crop_squares(frame, corners, played, reader.geometry, lens))[:, 0]
        evidence.append(float(piece.mean()))
    if evidence[1] <= evidence[0] + PLAYED_MARGIN:
        return orientation
    # In the numbering frame the squares in play are row + col odd for 'dark' (rectify).
    parity = 0 if orientation.played == "dark" else 1
    turned = orient(frame, orientation.location, played_parity=parity)
    return Orientation(turned.location, turned.played, turned.confidence,
                       (orientation.quarter_turns + turned.quarter_turns) % 4)
