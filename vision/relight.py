"""What a board read in new light is known to show, after plies made under the hands: the
squares the rules pin.

Why: a shadow that falls while a ply is made under a hand (kingplay 70012: light plays
5-9 and dark 29x8 under hands as a person's shadow slides over the board) leaves the
reader, adapted to the old light, misreading 7-15 squares; the board the game last
accepted no longer labels the frame, so the reader cannot simply adapt on it again
(``BoardReader.relight``). The rules still pin most of the board: the plies that can have
been made since (the tracker's stories: one or two plies, the catalogue's irregular
plies) lead to a few boards. Each is checked the way a start is checked in any light
(:func:`vision.reader.read_held_out`): heads adapted to the board's labels on one half of
the squares read the other half. A board that is not the one on the table teaches labels
the frame contradicts, so its held-out read disagrees with it. The squares on which every
board the frame supports about as well as the best agrees are known; the others are left
to the reader (``'?'``), which, adapted on the known ones, reads them in the new light.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .reading import side_probabilities

#: Nats of held-out fit within which a board is as well supported as the best: these boards
#: may all be the one on the table, so only the squares they agree on are known. As the start
#: check's margin (``start_check.HELD_OUT_MARGIN``). Wider leaves more squares to a reader
#: adapted without them, and its misreads there make a gap's line (kingplay 70021 at 8 nats:
#: 5 plies through a gap invented where 2 were made); under a deep shadow a man's
#: neighbouring step can fit better by more (``bench.relight``: 1 case of 60).
MARGIN = 4.0
#: The most nats of held-out doubt the best board may have (:func:`held_out_fit`, summed over
#: the 32 squares): a frame no board of the plies since explains (more plies were made under
#: an arm resting on the board: kingplay 70024, five plies, the best of the boards of two
#: doubted 61 nats) teaches nothing; under 70012's shadow the board on the table is doubted
#: 20 nats, the best 18.
DOUBT = 30.0
#: The fewest known squares holding pieces that are worth adapting on: fewer cannot carry
#: the light of the whole board.
FEWEST_PIECES = 6
_SIDE = {".": 0, "l": 1, "L": 1, "d": 2, "D": 2}


def held_out_fit(held: np.ndarray, boards: Sequence[str]) -> np.ndarray:
    """(K,) the log-likelihood of each of ``boards`` (32 labels each, '?' where the game
    cannot say: a captured man perhaps lifted) under its own held-out read ``held``
    (K, 32, 5): the sides only, since the rules, not the light, say which pieces are kings."""
    sides = np.array([[_SIDE.get(label, 0) for label in board] for board in boards])
    said = np.array([[label != "?" for label in board] for board in boards])
    p = side_probabilities(held.reshape(-1, 5)).reshape(len(boards), 32, 3)
    chosen = np.take_along_axis(p, sides[:, :, None], axis=2)[:, :, 0]
    fit: np.ndarray = (np.log(np.clip(chosen, 1e-6, None)) * said).sum(axis=1)
    return fit


def known_squares(held: np.ndarray, boards: Sequence[str], margin: float = MARGIN) -> str | None:
    """The labels of the squares every board within ``margin`` nats of the best held-out fit
    (:func:`held_out_fit`) agrees on, '?' on the others; None where even the best is doubted
    more than :data:`DOUBT` nats (the board on the table is none of them), or where the
    known squares hold fewer than :data:`FEWEST_PIECES` pieces, too few to adapt on.

    >>> held = np.zeros((2, 32, 5)); held[:, :8, 1] = 1.0; held[:, 8:, 0] = 1.0
    >>> known_squares(held, ["l" * 8 + "." * 24, "l" * 7 + "." * 25])
    'llllllll........................'
    >>> known_squares(held, ["l" * 8 + "." * 24, "l" * 7 + "." * 25], margin=20.0)
    'lllllll?........................'
    """
    fit = held_out_fit(held, boards)
    if fit.max() < -DOUBT:
        return None
    close = [board for board, f in zip(boards, fit) if f >= fit.max() - margin]
    known = "".join(labels[0] if len(set(labels)) == 1 else "?" for labels in zip(*close))
    if sum(label not in ".?" for label in known) < FEWEST_PIECES:
        return None
    return known
