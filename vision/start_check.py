"""Which numbering makes the board a start position: the reader's own start check.

The board is read under each of its eight numberings (four quarter turns, either colour of
squares in play) and each start layout is scored against the reading: the sum over the 32
squares of the log probability of what the layout puts there (empty, a light piece, a dark
piece: a man read as a king is still a man's place and side), and the squares it misreads.

A start is the board where one layout under one numbering leads every other numbering
(:func:`leading_start`) and is read within a few misreads. Pieces the colour of their
squares defeat that: zero-shot they read as the squares they hide. The configured set-up
is then checked on held-out squares (:func:`checked_numbering`): the reader adapted to its
labels on half the board reads the other half (``vision.reader.read_held_out``).
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
    """The numbering under which the board is the configured set-up, checked on held-out
    squares: ``held_out`` (8,), the squares misread under each numbering by the reader
    adapted to the set-up's labels on the other half of the board; ``zero_shot`` (8,), the
    set-up's zero-shot fit. None unless, of the numberings read within ``allowed`` misreads,
    one leads the others by :data:`START_MARGIN` zero-shot.

    The held-out reading says under which numberings the board may be the set-up: no
    square is read with its own label, so where the board and the set-up differ (a game
    some plies on, men on the other colour's squares) its squares are read as they are and
    misread against it. It cannot choose between a numbering and its half turn: adapted to
    either labelling, the heads learn either camp as light, so it admits both or neither.
    The zero-shot reading, which the labels never touched, tells which camp is lighter.

    Only the configured set-up is checked so: a set-up a whole row larger or smaller than
    the board (twelve men, a golden board's kings) is learnt, held out within each row, as
    that row's look; telling set-ups apart is left to the pieces being seen."""
    half_turns = [NUMBERINGS.index((played, (turns + 2) % 4)) for played, turns in NUMBERINGS]
    admitted = np.minimum(held_out, held_out[half_turns]) <= allowed  # both, or neither
    if not admitted.any():
        return None
    best = int(np.argmax(np.where(admitted, zero_shot, -np.inf)))
    rivals = zero_shot[admitted & (np.arange(len(zero_shot)) != best)]
    if zero_shot[best] - rivals.max(initial=-np.inf) < START_MARGIN:
        return None
    return best
