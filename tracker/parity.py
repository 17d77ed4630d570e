"""The side to move after plies the camera saw only as one change: kept both ways until play tells.

A king's two moves with a ply between, seen as one change, are the king's one flight and the
ply (30-21 for 30-25 ... 25-21); a gap's shortest line flies a king where it stepped twice. The
board is the same, the side to move is not: the shortest line is the referee's reading of the
board, not of whose turn it is. Read wrong, every ply after it is a side "moving twice" (kingplay
70054, 70056: 18 plies shifted by one).

So when the record takes a change of several plies (two plies at once, a gap's line), the
line of one ply more that leads to the same board, the other side to move after it, is kept
beside it (:func:`other_parity`), and carried along further changes of several plies
(:meth:`OtherParity.along`, the same number of plies from its own board). The next single ply
decides: legal after the record's line, the other line is dropped; a side "moving twice" after
the record's line that is a legal ply after the other, the record is read again
(:meth:`tracker.acting.Acts.reread`): its plies since the fork taken back, the other line and
that ply recorded. A "moved twice" right after such a change is evidence of the line's parity,
not of the players'.
"""

from __future__ import annotations

from dataclasses import dataclass

from makhos.engine import Colour, Move, Position, Rules
from makhos.engine.changes import Hypothesis, Verdict
from makhos.engine.gaps import Sight, gap_lines
from makhos.vision.reading import Reading

from .gaps import glimpsed, line_positions

#: The most lines of the other parity kept to choose from: more, and the board says too little.
_LINES = 16


@dataclass(frozen=True)
class Stretch:
    """Plies of the other line recorded together, as the record took them."""

    moves: tuple[Move, ...]
    gap: float | None  # seconds unseen before they were seen (None: seen made)
    unconfirmed: bool  # other lines of as many plies led there too


@dataclass(frozen=True)
class OtherParity:
    """The record's plies since ``since`` read with the other side to move after them."""

    since: int  # plies of the record before the first change of several plies
    mover: Colour  # who makes the first ply of the other line
    stretches: tuple[Stretch, ...]
    position: Position  # where the other line leads: the record's board, the other side to move
    plies: int  # plies of the record where it was kept (a record changed since: dropped)

    def along(self, board: Position, plies: int, rules: Rules, gap: float | None,
              glimpses: tuple[Reading, ...]) -> OtherParity | None:
        """Carried along a further change of ``plies`` plies that the record took to ``board``:
        a line of as many plies from the other line's board; None when none leads there."""
        stretch = _stretch(self.position, board, plies, rules, gap, glimpses)
        if stretch is None:
            return None
        return OtherParity(self.since, self.mover, self.stretches + (stretch,),
                           board.with_turn(board.turn.opponent), self.plies + plies)

    def decides(self, h: Hypothesis | None, rules: Rules) -> bool:
        """Whether ``h``, a side moving twice after the record's line, is a legal ply after
        the other line."""
        return (h is not None and h.verdict is Verdict.WRONG_SIDE and len(h.moves) == 1
                and h.moves[0] in self.position.legal_moves(rules))


def other_parity(start: Position, board: Position, since: int, plies: int, rules: Rules,
                 gap: float | None, glimpses: tuple[Reading, ...]) -> OtherParity | None:
    """The line of ``plies`` + 1 plies from ``start`` to the board of ``board`` (where the
    record's line of ``plies`` plies led), the side ``board`` says is to move then waiting
    instead; None when there is none."""
    stretch = _stretch(start, board, plies + 1, rules, gap, glimpses)
    if stretch is None:
        return None
    return OtherParity(since, start.turn, (stretch,), board.with_turn(board.turn.opponent), since + plies)


def _stretch(start: Position, board: Position, plies: int, rules: Rules, gap: float | None,
             glimpses: tuple[Reading, ...]) -> Stretch | None:
    """The lines of exactly ``plies`` plies from ``start`` to ``board``'s board: the one the
    ``glimpses`` met on the way explain best (:func:`tracker.gaps.glimpsed`); None when none."""
    lines = gap_lines(start, Sight.exact(board.board), rules, plies, least=plies, limit=_LINES)
    if not lines:
        return None
    best = max(lines, key=lambda line: glimpsed(glimpses, line_positions(start, line))) if glimpses else lines[0]
    return Stretch(best, gap, len(lines) > 1)

