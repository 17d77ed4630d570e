"""After a gap: the plies played while nobody watched, found when the board is seen again.

A gap is a stretch of ``gap_after`` seconds or more without a settled reading: a recorder
restarted from its log, a camera unplugged and back, a recording paused, a board lost and
found again. When the first boards after it fit no story of the game (one or two plies
are stories already), the legal lines of up to ``gap_plies`` plies that lead there are
searched (:func:`engine.gaps.gap_lines`) under what the reading allows on each square,
and the lines whose boards the reading supports as well as the best are kept. A ply
takes ``shortest_ply`` seconds at least (a hand in, a piece moved, the hand out), which
bounds how many plies fit the gap.

What the tracker then does (:meth:`tracker.acting.Acts.gap`): one line, its plies are
recorded as seen after the gap; several, a notice for the referee lists them (offline,
the likeliest is recorded and marked unconfirmed); none, the board stays a board no move
explains, the mismatch it always was.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from makhos.engine import Colour, Move, Piece, Position
from makhos.engine.gaps import Sight, gap_lines
from makhos.engine.position import Board
from makhos.engine.squares import BIT
from makhos.events.game import MatchGame
from makhos.vision.reading import CLASS_INDEX, Reading

from .config import TrackerConfig
from .scoring import board_classes, log_probabilities, score_boards

#: The sight's planes, in the order of :class:`engine.gaps.Sight`'s fields.
_PLANES = (None, Piece.DARK_MAN, Piece.DARK_KING, Piece.LIGHT_MAN, Piece.LIGHT_KING)


@dataclass(frozen=True)
class GapLines:
    """The lines that explain a board seen after a gap, likeliest first."""

    mover: Colour  # who made the first ply of each line
    lines: tuple[tuple[Move, ...], ...]
    board: Board  # where the likeliest line leads


def sight(reading: Reading, tolerance: float) -> Sight:
    """What may stand on each square: every piece (or none) within ``tolerance`` nats of
    the square's likeliest, as the tracker's own test of a board that matches
    (:func:`tracker.scoring.contradicted`) allows it."""
    log_p = log_probabilities(reading)
    allowed = log_p >= log_p.max(axis=1, keepdims=True) - tolerance
    planes = []
    for piece in _PLANES:
        column = allowed[:, CLASS_INDEX[piece]]
        planes.append(sum(BIT[s + 1] for s in np.flatnonzero(column)))
    return Sight(*planes)


def most_plies(seconds: float, config: TrackerConfig) -> int:
    """How many plies fit ``seconds`` unseen."""
    return min(config.gap_plies, int(seconds / config.shortest_ply))


def gap_lines_seen(record: MatchGame, reading: Reading, seen: Sight, most: int,
                   fixed_first_mover: bool, margin: float) -> GapLines | None:
    """The shortest legal lines of at most ``most`` plies from the game's position to the
    board read (``seen``: what the reading allows), that the reading supports within
    ``margin`` of the best of them; None when no line fits."""
    found: list[tuple[Colour, tuple[Move, ...]]] = []
    for side in record.movers(fixed_first_mover):
        start = record.position_for(side)
        found += [(side, line) for line in gap_lines(start, seen, record.rules, most)]
    if not found:
        return None
    shortest = min(len(line) for _, line in found)
    found = [(side, line) for side, line in found if len(line) == shortest]
    ends = [_after(record.position_for(side), line) for side, line in found]
    scores = score_boards(log_probabilities(reading), board_classes([end.board for end in ends]))
    order = np.argsort(-scores, kind="stable")
    kept = [k for k in order if scores[k] >= scores[order[0]] - margin]
    best = int(order[0])
    mover = found[best][0]
    return GapLines(mover, tuple(found[k][1] for k in kept if found[k][0] is mover), ends[best].board)


def _after(position: Position, line: tuple[Move, ...]) -> Position:
    for move in line:
        position = position.play(move)
    return position
