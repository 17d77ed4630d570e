"""How well a reading supports a board: the sum of per-square log probabilities.

Scoring whole boards, not diffing hard labels, is what lets one confident square outweigh
a doubtful one and lets the rules pick the story the pixels support best.
"""

from __future__ import annotations

from typing import Iterable

import numpy as np

from makhos.engine import Piece
from makhos.engine.position import Board
from makhos.engine.squares import BIT_INDEX
from makhos.vision.reading import CLASS_INDEX, Reading, side_probabilities

_FLOOR = 1e-6  # a misread square costs at most ~14 nats, so one bad square never vetoes a board
_ALL = np.arange(32)


#: Bit index of each square 1..32 in the bitboards.
_BITS = np.array(BIT_INDEX[1:], dtype=np.int64)
_LIGHT_MAN, _DARK_MAN = CLASS_INDEX[Piece.LIGHT_MAN], CLASS_INDEX[Piece.DARK_MAN]
_LIGHT_KING, _DARK_KING = CLASS_INDEX[Piece.LIGHT_KING], CLASS_INDEX[Piece.DARK_KING]
#: The classes of men and of kings, either side.
MAN_CLASSES, KING_CLASSES = (_LIGHT_MAN, _DARK_MAN), (_LIGHT_KING, _DARK_KING)


def board_classes(boards: list[Board]) -> np.ndarray:
    """The class index of each square 1..32 of each (dark, light, kings) board: (N, 32)."""
    planes = np.array(boards, dtype=np.int64).reshape(-1, 3)
    bits = (planes[:, :, None] >> _BITS[None, None, :]) & 1  # (N, 3, 32)
    dark, light, king = bits[:, 0], bits[:, 1], bits[:, 2]
    return (dark * np.where(king, _DARK_KING, _DARK_MAN)
            + light * np.where(king, _LIGHT_KING, _LIGHT_MAN))


#: Which side stands on a square of each class (0 none, 1 light, 2 dark): boards that agree
#: on this differ only in which pieces are kings.
SIDE_OF_CLASS = np.zeros(len(CLASS_INDEX), dtype=np.int64)
SIDE_OF_CLASS[[_LIGHT_MAN, _LIGHT_KING]] = 1
SIDE_OF_CLASS[[_DARK_MAN, _DARK_KING]] = 2


def board_sides(board: Board) -> np.ndarray:
    """The side on each square of ``board`` (0 none, 1 light, 2 dark), kings as men."""
    sides: np.ndarray = SIDE_OF_CLASS[board_classes([board])[0]]
    return sides


def changed_squares(board: Board, other: Board) -> np.ndarray:
    """The squares (1-32) on which ``board`` puts another side than ``other`` (or a piece
    where it has none, or none where it has one), a man and a king alike."""
    changed: np.ndarray = np.flatnonzero(board_sides(board) != board_sides(other)) + 1
    return changed


#: Probability of its side at which a square is read well.
READ_WELL = 0.8


def read_well(reading: Reading, board: Board, squares: Iterable[int]) -> bool:
    """Whether each of ``squares`` is read as holding the side ``board`` puts there (or
    none), a man and a king alike, with probability :data:`READ_WELL` at least.

    A board that asks more of the reading than one legal ply (two plies at once, a piece
    moved against the rules where a ply explains all but a square or two) is believed at
    once only where the reading is sure of the squares that make it that board: a square
    read half one side, half the other, is a doubt, not a piece."""
    index = np.array([s - 1 for s in squares], dtype=np.int64)
    sides = side_probabilities(reading.probabilities)[index]
    return bool((sides[np.arange(len(index)), board_sides(board)[index]] >= READ_WELL).all())


def read_surely_otherwise(reading: Reading, board: Board) -> int:
    """How many squares the reading puts another side on than ``board`` does (or a piece
    where it puts none, or none where it puts one), a man and a king alike, with
    probability :data:`READ_WELL` at least: the reading sure of another board there, not a
    doubt of this one."""
    sides = side_probabilities(reading.probabilities)
    sides[np.arange(32), board_sides(board)] = 0.0
    return int((sides >= READ_WELL).any(axis=1).sum())


def read_otherwise(reading: Reading, board: Board, squares: Iterable[int] | None = None) -> int:
    """On how many squares (every one, or ``squares``) the reading puts likeliest another
    side (or none) than ``board`` does, a man and a king alike: the misreads ``board`` asks
    of the reading there, not a doubt of it."""
    wrong = side_probabilities(reading.probabilities).argmax(axis=1) != board_sides(board)
    if squares is not None:
        wrong = wrong[[s - 1 for s in squares]]
    return int(wrong.sum())


#: Share of a square's man probability also counted for a king of that colour, and back.
#: Telling a king from a man is the classifier's weakest call (a stack seen from straight
#: above is a man with a small offset), while the rules already know where every king is:
#: a man only becomes one by crowning. So a man/king disagreement costs at most
#: -log(KING_DOUBT) (about 1.2 nats), never enough alone to call the board a mismatch.
KING_DOUBT = 0.3


def log_probabilities(reading: Reading, king_doubt: float = KING_DOUBT) -> np.ndarray:
    """Per-square log probabilities, with ``king_doubt`` of man/king mixed in (0: none, for
    telling set-ups apart, which differ only by kings)."""
    p = reading.probabilities
    soft = p.copy()
    for man, king in ((_LIGHT_MAN, _LIGHT_KING), (_DARK_MAN, _DARK_KING)):
        soft[:, man] += king_doubt * p[:, king]
        soft[:, king] += king_doubt * p[:, man]
    log_p: np.ndarray = np.log(np.clip(soft, _FLOOR, None))
    return log_p


def score_boards(log_p: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """Log-likelihood of each board (rows of :func:`board_classes`) under the reading."""
    scores: np.ndarray = log_p[_ALL, classes].sum(axis=1)
    return scores


def contradicted(log_p: np.ndarray, classes: np.ndarray, tolerance: float) -> tuple[int, ...]:
    """The squares on which the board trails the most likely class by more than
    ``tolerance`` nats.

    A story may be the best of all and still be contradicted by a square the camera is
    sure about (a piece knocked over, a piece added, or a square misread for a moment).
    """
    own = log_p[_ALL, classes]
    return tuple(int(s) + 1 for s in np.flatnonzero(log_p.max(axis=1) - own > tolerance))
