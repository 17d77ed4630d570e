"""Which numbering makes the board a start position: the reader's own start check.

The board is read under each of its eight numberings (four quarter turns, either colour of
squares in play) and each start layout is scored against the reading: the sum over the 32
squares of the log probability of what the layout puts there (empty, a light piece, a dark
piece: a man read as a king is still a man's place and side), and the squares it misreads.

Zero-shot (:func:`clear_start`), a start is the board where one layout under one numbering
is misread on at most a few squares and no other numbering comes near. Pieces the colour of
their squares defeat that: zero-shot they read as the squares they hide. Their start is then
checked on held-out squares (:func:`held_out_start`): the reader adapted to each layout on
half the board reads the other half, which tells the layouts whose pieces stand where the
board's do (the quarter turn and the colour in play), and the zero-shot reading chooses
among those (which camp is lighter: a half turn swaps the camps, and the heads learn
either labelling as well).
"""

from __future__ import annotations

import numpy as np

#: A start position fixes the numbering when the board, read under it, differs from the
#: start on at most this many squares in occupancy or side (a man read as a king is still
#: a man's place and side), and on none more than one in eight of the start's pieces (a
#: set-up of two kings is told from an empty board only by both) ...
START_MISREADS = 2
#: ... and no other numbering explains the board within this many nats (the next best is a
#: quarter turn, which puts the men on the other colour's squares, or a half turn, which
#: swaps the two camps: both far apart when the start is really there).
START_MARGIN = 6.0
#: The numberings in the order they are scored: the colour in play, then the quarter turns
#: of the follower's location.
NUMBERINGS = tuple((played, turns) for played in ("dark", "light") for turns in range(4))


def allowed_misreads(classes: np.ndarray) -> np.ndarray:
    """(S,) the misreads each start layout (S, 32) of side classes may be read with."""
    pieces = (classes > 0).sum(axis=1)
    allowed: np.ndarray = np.minimum(START_MISREADS, pieces // 8)
    return allowed


def start_fits(sides: np.ndarray, classes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The fit (S,) and the squares misread (S,) of each start layout (S, 32) of side
    classes, under one numbering's (32, 3) probabilities of empty, light, dark."""
    fit = np.log(np.clip(sides, 1e-6, None))[np.arange(32), classes].sum(axis=1)
    misread = (sides.argmax(axis=1) != classes).sum(axis=1)
    return fit, misread


def clear_start(fit: np.ndarray, misread: np.ndarray, allowed: np.ndarray) -> tuple[int, int] | None:
    """The numbering and start (indices) that clearly are the board, zero-shot: the best
    fit (8, S) of all, read within its misreads, ahead of every other numbering's best by
    :data:`START_MARGIN`; None where none is."""
    best = fit.argmax(axis=1)
    scores = fit[np.arange(len(fit)), best]
    first, runner_up = np.argsort(-scores, kind="stable")[:2]
    start = int(best[first])
    if misread[first, start] <= allowed[start] and scores[first] - scores[runner_up] >= START_MARGIN:
        return int(first), start
    return None


def held_out_start(misread: np.ndarray, zero_shot: np.ndarray, allowed: np.ndarray,
                   layout: np.ndarray) -> tuple[int, int] | None:
    """The numbering and start (indices) that clearly are the board, checked on held-out
    squares: ``misread`` (8, S), the squares each start's layout misreads when read by
    heads adapted to it on the other half of the board; ``zero_shot`` (8, S), the zero-shot
    fit; ``layout`` (S,), which starts share a layout of pieces and sides (set-ups that
    differ only in their kings). None unless, of the starts read within their misreads,
    one leads every other (under another numbering, or of another layout) by
    :data:`START_MARGIN` zero-shot.

    The held-out reading says which layouts the board may be, and under which numberings:
    no square is read with its own label, so where the board and a layout differ (a game
    some plies on, the men on the other colour's squares) the squares are read as they are
    and misread against it. It cannot choose among those it admits: adapted to a half
    turn's labels, the heads learn either camp as light as well, and a layout a whole row
    larger is learnt as that row's look. The zero-shot reading, which the labels never
    touched, chooses: which camp is lighter, which rows hold men."""
    within = misread <= allowed[None, :]
    if not within.any():
        return None
    best = np.unravel_index(np.argmax(np.where(within, zero_shot, -np.inf)), zero_shot.shape)
    numbering, start = int(best[0]), int(best[1])
    same = (np.arange(len(zero_shot)) == numbering)[:, None] & (layout == layout[start])[None, :]
    rival = zero_shot[within & ~same]
    if zero_shot[numbering, start] - rival.max(initial=-np.inf) < START_MARGIN:
        return None
    return numbering, start
