"""A game: the start, the plies played, and how it ends.

A ply is either a legal :class:`Move` or an *irregular* change that stands because the
opponent played on without objecting (RULES.md, "Irregularities and the referee"); the
game then continues from the board as it really is.
"""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass

from .move import Move, MoveText
from .position import Position
from .rules import Colour, Rules


class IllegalMove(ValueError):
    """A move that is not legal in the position it was played in."""


class Outcome(enum.Enum):
    DARK_WINS = "dark wins"
    LIGHT_WINS = "light wins"
    DRAW = "draw"

    @classmethod
    def win_for(cls, colour: Colour) -> "Outcome":
        return cls.DARK_WINS if colour is Colour.DARK else cls.LIGHT_WINS


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended, with the reason a referee would give."""

    outcome: Outcome
    reason: str  # "no pieces left", "no legal move", "repetition", "count rule", "resignation", ...


@dataclass(frozen=True, slots=True)
class Ply:
    """One side's turn as recorded.

    ``move`` is the legal move played, or for an irregular ply the change as best described
    (None when no single move describes it); ``irregularity`` says what rule it broke.
    """

    before: Position
    after: Position
    move: Move | None
    irregularity: str | None = None

    @property
    def mover(self) -> Colour:
        return self.before.turn

    @property
    def is_irregular(self) -> bool:
        return self.irregularity is not None

    @property
    def resets_count(self) -> bool:
        """A capture or a man move: what ends the count rule and repetition chances."""
        if self.move is None:
            return True
        piece = self.before.piece_at(self.move.start)
        return self.move.is_capture or piece is None or not piece.is_king


class Game:
    """The record of one game under one rule set.

    >>> g = Game()
    >>> _ = g.play_text("25-21")
    >>> g.position.turn
    <Colour.LIGHT: 'light'>
    """

    def __init__(self, rules: Rules | None = None, start: Position | None = None) -> None:
        self.rules = rules or Rules()
        self.start = start or Position.start(self.rules)
        self.plies: list[Ply] = []
        self._declared: Result | None = None
        self._count_claim: tuple[Colour, int] | None = None  # claimant, ply index of the claim
        self._changes = 0  # counts every change of the record, for the memo of result()
        self._result: tuple[int, Result | None] | None = None

    # ------------------------------------------------------------ state

    @property
    def position(self) -> Position:
        return self.plies[-1].after if self.plies else self.start

    def positions(self) -> list[Position]:
        """Every position of the game, the start first."""
        return [self.start] + [p.after for p in self.plies]

    def legal_moves(self) -> list[Move]:
        if self.result() is not None:
            return []
        return self.position.legal_moves(self.rules)

    def forced_move(self) -> MoveText | None:
        """The move the forced opening prescribes now, if one does."""
        index = len(self.plies)
        if index < len(self.rules.forced_opening):
            return MoveText.parse(self.rules.forced_opening[index])
        return None

    # ------------------------------------------------------------ playing

    def find_move(self, text: str) -> Move:
        """The legal move written as ``text`` (full path or Thai short form).

        Raises IllegalMove when none matches, or when the short form is ambiguous.
        """
        wanted = MoveText.parse(text)
        matches = [m for m in self.legal_moves() if wanted.matches(m)]
        if not matches:
            raise IllegalMove(f"{text} is not legal in {self.position.fen()}")
        if len(matches) > 1:
            options = ", ".join(str(m) for m in matches)
            raise IllegalMove(f"{text} is ambiguous here: write the full path ({options})")
        return matches[0]

    def move_named(self, text: str | None) -> Move | None:
        """The legal move ``text`` names, or None: for readers of a log, which skip what no
        longer fits instead of failing."""
        if not text:
            return None
        try:
            return self.find_move(text)
        except ValueError:  # IllegalMove, or text that is not a move at all
            return None

    def play(self, move: Move) -> Ply:
        """Play a legal move; raises IllegalMove otherwise."""
        if move not in self.legal_moves():
            raise IllegalMove(f"{move} is not legal in {self.position.fen()}")
        ply = Ply(self.position, self.position.play(move), move)
        self.plies.append(ply)
        self._changes += 1
        return ply

    def play_text(self, text: str) -> Ply:
        return self.play(self.find_move(text))

    def play_irregular(self, after: Position, irregularity: str, move: Move | None = None) -> Ply:
        """Record a change that broke a rule but stands: play goes on from ``after``.

        ``after.turn`` is the side that plays on, which need not alternate: after a side
        moved twice, the same opponent is still to move.
        """
        ply = Ply(self.position, after, move, irregularity)
        self.plies.append(ply)
        self._changes += 1
        return ply

    def take_back(self, plies: int = 1) -> list[Ply]:
        """Undo the last ``plies`` plies (a correction); returns them, last first."""
        if not 0 < plies <= len(self.plies):
            raise ValueError(f"cannot take back {plies} plies of {len(self.plies)}")
        undone = [self.plies.pop() for _ in range(plies)]
        self._declared = None
        self._changes += 1
        if self._count_claim and self._count_claim[1] > len(self.plies):
            self._count_claim = None
        return undone

    def declare(self, result: Result) -> None:
        """Set the result by decision: resignation, agreement, forfeit, the referee."""
        self._declared = result
        self._changes += 1

    @property
    def count_claimant(self) -> Colour | None:
        """The side whose claimed count is running, if one is."""
        return self._count_claim[0] if self._count_claim is not None else None

    def claim_count(self, claimant: Colour) -> None:
        """Start the count rule on a claim in an aimless position."""
        self._count_claim = (claimant, len(self.plies))
        self._changes += 1

    # ------------------------------------------------------------ the end

    def result(self) -> Result | None:
        """The result if the game is over, else None (remembered until the game changes:
        a camera loop asks on every frame)."""
        if self._result is None or self._result[0] != self._changes:
            self._result = (self._changes, self._find_result())
        return self._result[1]

    def _find_result(self) -> Result | None:
        if self._declared:
            return self._declared
        position = self.position
        side = position.turn
        if position.count(side) == 0:
            return Result(Outcome.win_for(side.opponent), "no pieces left")
        if not position.legal_moves(self.rules):
            return Result(Outcome.win_for(side.opponent), "no legal move")
        if self.repetitions() >= self.rules.repetition_threshold:
            return Result(Outcome.DRAW, "repetition")
        if self.count_remaining() == 0:
            return Result(Outcome.DRAW, "count rule")
        return None

    def repetitions(self) -> int:
        """How many times the current position (with the side to move) has occurred."""
        seen = Counter(self.positions())
        return seen[self.position]

    def count_remaining(self) -> int | None:
        """Moves the count rule still allows, or None when no count is running.

        With ``Rules.count_on_claim`` the claimant's own moves are counted from the claim;
        otherwise full moves since the last capture or man move are counted. A capture or
        a man move ends a claimed count.
        """
        if self._count_claim is not None:
            claimant, since = self._count_claim
            window = self.plies[since:]
            if any(p.resets_count for p in window):
                return None
            made = sum(1 for p in window if p.mover is claimant)
            return max(self.rules.count_rule_moves - made, 0)
        if self.rules.count_on_claim:
            return None
        quiet = 0
        for ply in reversed(self.plies):
            if ply.resets_count:
                break
            quiet += 1
        return max(self.rules.count_rule_moves - quiet // 2, 0)
