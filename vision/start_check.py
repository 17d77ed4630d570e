"""Which numbering makes the board a start position: the reader's own start check.

The board is read under each of its eight numberings (four quarter turns, either colour of
squares in play) and each start layout is scored against the reading: the sum over the 32
squares of the log probability of what the layout puts there (empty, a light piece, a dark
piece: a man read as a king is still a man's place and side), and the squares it misreads.

A start is the board where one layout under one numbering leads every other numbering
(:func:`leading_start`) and is read within a few misreads. Pieces the colour of their
squares defeat the misread count: zero-shot they read as the squares they hide, while the
right numbering may still fit best. The configured set-up's misreads are then counted on
held-out squares (:func:`chosen_numbering`): the reader adapted to its labels on half the
board reads the other half (``vision.reader.read_held_out``).
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


def leading_start(fit: np.ndarray) -> tuple[int, int] | None:
    """The numbering and start (indices) whose fit, of (8, S), leads every other
    numbering's best by :data:`START_MARGIN`; None where no numbering does."""
    best = fit.argmax(axis=1)
    scores = fit[np.arange(len(fit)), best]
    first, runner_up = np.argsort(-scores, kind="stable")[:2]
    if scores[first] - scores[runner_up] < START_MARGIN:
        return None
    return int(first), int(best[first])


def half_turn(numbering: int) -> int:
    """The numbering (index of :data:`NUMBERINGS`) a half turn from ``numbering``."""
    played, turns = NUMBERINGS[numbering]
    return NUMBERINGS.index((played, (turns + 2) % 4))


def chosen_numbering(zero_shot: np.ndarray) -> int | None:
    """The numbering under which the configured set-up's zero-shot fit, of (8,), leads every
    other numbering by :data:`START_MARGIN`; None where none does.

    Where the set-up is read with too many misreads zero-shot (pieces the colour of their
    squares), the zero-shot reading, which no label touched, still chooses: which squares
    the men stand on, which camp is lighter. The misreads of its choice are then counted on
    held-out squares (``vision.reader.read_held_out``): no square is read with its own
    label, so where the board and the set-up differ (a game some plies on) its squares are
    read as they are and misread against it. That reading cannot tell a numbering from its
    half turn (adapted to either labelling, the heads learn either camp as light), so the
    fewer misreads of the two count; nor may it choose among numberings or set-ups (held
    out within each row, the heads learn a row's look as the label the set-up gives the row,
    a set-up a whole row larger or smaller included). Only the configured set-up is
    checked so: telling set-ups apart is left to the pieces being seen."""
    best = int(np.argmax(zero_shot))
    if zero_shot[best] - np.delete(zero_shot, best).max() < START_MARGIN:
        return None
    return best
