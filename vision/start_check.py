"""Which numbering makes the board a start position: the reader's own start check.

The board is read under each of its eight numberings (four quarter turns, either colour of
squares in play) and each start layout is scored against the reading: the sum over the 32
squares of the log probability of what the layout puts there (empty, a light piece, a dark
piece: a man read as a king is still a man's place and side), and the squares it misreads.

A start is the board where one layout under one numbering leads every other numbering
(:func:`leading_start`) and is read within a few misreads. Pieces the colour of their
squares defeat the misread count: zero-shot they read as the squares they hide, while the
right numbering may still fit best. The configured set-up's misreads are then counted on
held-out squares (:func:`checked_numbering`): the reader adapted to its labels on half the
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


def checked_numbering(held_out: np.ndarray, zero_shot: np.ndarray, allowed: int) -> int | None:
    """The numbering under which the board is the configured set-up, its misreads counted
    on held-out squares: ``zero_shot`` (8,), the set-up's zero-shot fit under each
    numbering, must lead every other numbering by :data:`START_MARGIN`, and ``held_out``
    (8,), the squares misread by the reader adapted to the set-up's labels on the other
    half of the board, must be within ``allowed`` for it or its half turn; None otherwise.

    The zero-shot reading, which the labels never touched, chooses: which squares the men
    stand on, which camp is lighter. The held-out reading only counts the misreads: no
    square is read with its own label, so where the board and the set-up differ (a game
    some plies on) its squares are read as they are and misread against it. It cannot tell
    a numbering from its half turn (adapted to either labelling, the heads learn either
    camp as light), so either counts; nor choose among numberings (adapted to the wrong
    squares' labels, held out within each row, the heads learn a row's look as its label).
    Only the configured set-up is checked so: telling set-ups apart is left to the pieces
    being seen."""
    best = int(np.argmax(zero_shot))
    rivals = np.delete(zero_shot, best)
    if zero_shot[best] - rivals.max() < START_MARGIN:
        return None
    played, turns = NUMBERINGS[best]
    if min(held_out[best], held_out[NUMBERINGS.index((played, (turns + 2) % 4))]) > allowed:
        return None
    return best
