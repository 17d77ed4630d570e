"""A move: the full path of squares, the captured squares and whether it crowns a man."""

from __future__ import annotations

import re
from dataclasses import dataclass

_MOVE_TEXT = re.compile(r"^\s*(\d{1,2})(?:([-x])(\d{1,2}))((?:x\d{1,2})*)\s*$")


@dataclass(frozen=True, slots=True)
class Move:
    """One move of one side.

    ``path`` lists the starting square and every landing square, so a multiple capture
    keeps its whole route (two chains between the same squares are different moves).
    ``captured`` lists the jumped squares in the order they were taken.

    >>> m = Move(path=(25, 18, 11), captured=(22, 15))
    >>> str(m), m.short(), m.is_capture
    ('25x18x11', '25x11', True)
    """

    path: tuple[int, ...]
    captured: tuple[int, ...] = ()
    crowns: bool = False

    def __post_init__(self) -> None:
        if len(self.path) < 2:
            raise ValueError("a move needs a start and at least one landing square")
        if self.captured and len(self.captured) != len(self.path) - 1:
            raise ValueError("a capture jumps exactly one piece per landing")

    @property
    def start(self) -> int:
        return self.path[0]

    @property
    def end(self) -> int:
        return self.path[-1]

    @property
    def is_capture(self) -> bool:
        return bool(self.captured)

    def __str__(self) -> str:
        """Full-path PDN notation: ``22-18`` or ``25x18x11``."""
        return ("x" if self.captured else "-").join(map(str, self.path))

    def short(self) -> str:
        """The Thai short form: start and last landing only (``25x11``)."""
        return f"{self.start}{'x' if self.captured else '-'}{self.end}"


@dataclass(frozen=True, slots=True)
class MoveText:
    """A move as written, before it is matched against the legal moves of a position."""

    squares: tuple[int, ...]
    capture: bool

    @classmethod
    def parse(cls, text: str) -> "MoveText":
        """Parse ``22-18``, ``25x18`` or ``25x18x11``.

        >>> MoveText.parse("25x18x11")
        MoveText(squares=(25, 18, 11), capture=True)
        """
        match = _MOVE_TEXT.match(text)
        if not match or (match.group(2) == "-" and match.group(4)):
            raise ValueError(f"not a move: {text!r} (expected e.g. 22-18 or 25x18x11)")
        squares = tuple(int(s) for s in re.findall(r"\d+", text))
        if any(not 1 <= s <= 32 for s in squares):
            raise ValueError(f"not a move: {text!r} (squares are 1-32)")
        return cls(squares, match.group(2) == "x")

    def path(self, taken: tuple[int, ...] = ()) -> Move:
        """The written squares as a move, checked against no position: the path of an
        irregular ply, which no legal move describes. A capture keeps its mark when
        ``taken`` (the pieces the change took) has one piece a landing."""
        captured = taken if self.capture and len(taken) == len(self.squares) - 1 else ()
        return Move(self.squares, captured)

    def matches(self, move: Move) -> bool:
        """Whether ``move`` is what this text describes, full path or Thai short form."""
        if self.capture != move.is_capture:
            return False
        if self.squares == move.path:
            return True
        return len(self.squares) == 2 and (move.start, move.end) == self.squares
