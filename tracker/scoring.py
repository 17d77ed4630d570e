"""How well a reading supports a board: the sum of per-square log probabilities.

Scoring whole boards, not diffing hard labels, is what lets one confident square outweigh
a doubtful one and lets the rules pick the story the pixels support best.
"""

from __future__ import annotations

import numpy as np

from engine.position import Board
from engine.squares import BIT
from vision.reading import CLASS_INDEX, Reading
from engine import Piece

_FLOOR = 1e-6  # a misread square costs at most ~14 nats, so one bad square never vetoes a board
_ALL = np.arange(32)


def board_classes(board: Board) -> np.ndarray:
    """The class index of each square 1..32 of a (dark, light, kings) board."""
    dark, light, kings = board
    out = np.zeros(32, dtype=np.int64)
    for square in range(1, 33):
        bit = BIT[square]
        if dark & bit:
            out[square - 1] = CLASS_INDEX[Piece.DARK_KING if kings & bit else Piece.DARK_MAN]
        elif light & bit:
            out[square - 1] = CLASS_INDEX[Piece.LIGHT_KING if kings & bit else Piece.LIGHT_MAN]
    return out


def log_probabilities(reading: Reading) -> np.ndarray:
    return np.log(np.clip(reading.probabilities, _FLOOR, 1.0))


def score_boards(log_p: np.ndarray, boards: list[Board]) -> np.ndarray:
    """Log-likelihood of each board under the reading's log probabilities."""
    if not boards:
        return np.zeros(0)
    classes = np.stack([board_classes(b) for b in boards])
    return log_p[_ALL, classes].sum(axis=1)


def worst_square_gap(log_p: np.ndarray, board: Board) -> float:
    """How far the board trails the most likely class on its worst square, in nats.

    A story may be the best of all and still be contradicted by a square the camera is
    sure about (a piece knocked over, a piece added): that is a board that does not match.
    """
    own = log_p[_ALL, board_classes(board)]
    return float((log_p.max(axis=1) - own).max())
