"""The plies of a game's record, as the score and the board page show them.

The fold (:mod:`events.game`) appends one :class:`MoveEntry` per ply it records; the PDN
writes its time on the clock, its gap note and the attempts taken back before it, and the
board page draws it as a row of the move list (``server/state.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

from makhos.engine import Colour
from makhos.engine.pdn import Correction


@dataclass(slots=True)
class MoveEntry:
    """One ply of the move list, with what the board page needs to draw it."""

    ply: int  # 1-based
    side: Colour  # who played it
    move: str | None  # full-path PDN; None for an irregular change no move describes
    fen: str  # the position after it
    captured: list[int]  # squares emptied of the opponent's pieces
    irregular: str | None  # the rule it broke, when it stood as an irregular ply
    time: float
    spent: float | None = None  # seconds on the mover's clock; None when not measured
    gap: float | None = None  # seen only after the board was unseen this many seconds
    unconfirmed: bool = False  # the likeliest of several lines through a gap, not decided
    corrections: tuple[Correction, ...] = ()  # attempts taken back before it

    @property
    def number(self) -> int:
        return (self.ply + 1) // 2

    @property
    def note(self) -> str:
        """The PDN comment of a ply seen after a gap: ``after a gap of 12 s``."""
        if self.gap is None:
            return ""
        return f"after a gap of {self.gap:.0f} s" + (", unconfirmed" if self.unconfirmed else "")
