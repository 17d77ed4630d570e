"""The plies nobody saw: legal sequences from a known position to a board seen later.

A camera that was away (a recorder restarted, a cable pulled, a recording paused) finds
the board some plies on. :func:`gap_lines` finds the shortest legal sequences of plies
that lead from the last recorded position to a board that fits what is seen, up to a
few plies. What is seen is a :class:`Sight`: the pieces each square may hold, so a
square the camera is unsure of (a king or a man?) does not veto a line.

The search is plain depth-first over the legal moves, pruned by what cannot be undone:

- pieces only disappear, so a side never has more pieces than it has now;
- men only move forward and are never uncrowned, so a man seen on a square came from a
  man of that side behind it;
- each ply moves one piece of the side to move, to one square: the squares where that
  side's piece must appear bound the plies it still needs, and the squares it must
  leave bound them too once the opponent can no longer capture;
- captures are compulsory, which the legal moves already say.

Lines are searched by length, shortest first, and only the shortest that fit are
returned: a king that went out and came back during the gap cannot be seen, and the
fewest plies is the referee's own reading of a board.

Where no legal line fits, a line may hold one irregular ply of the catalogue
(:func:`irregular_gap_lines`: a chain stopped early, a capture missed): a game under
other rules goes on so, and the pruning holds for those plies too (one piece of the side
to move goes to one square, men forward, pieces only taken).

>>> from makhos.engine.position import Position
>>> start = Position.start()
>>> after = start.play(start.legal_moves()[0])
>>> after = after.play(after.legal_moves()[0])
>>> after = after.play(after.legal_moves()[0])
>>> [" ".join(map(str, line)) for line in gap_lines(start, Sight.exact(after.board), None, 6)]
['25-21 5-9 21-17', '25-22 5-9 22-17']
"""

from __future__ import annotations

from dataclasses import dataclass

from .changes import Hypothesis, irregular_plies
from .move import Move
from .position import Board, Position
from .rules import Colour, Rules
from .squares import BIT, BOARD_MASK, SQUARES, row_col


def _behind(square: int, up: bool) -> int:
    """The squares from which a man moving ``up`` (dark) or down (light) can reach ``square``."""
    row, col = row_col(square)
    mask = 0
    for other in SQUARES:
        r, c = row_col(other)
        rows = r - row if up else row - r
        if rows > 0 and abs(c - col) <= rows:
            mask |= BIT[other]
    return mask


#: Per square (index 0 unused): where a dark man, or a light man, must stand to get there.
_DARK_BEHIND = (0,) + tuple(_behind(s, True) for s in SQUARES)
_LIGHT_BEHIND = (0,) + tuple(_behind(s, False) for s in SQUARES)


@dataclass(frozen=True, slots=True)
class Sight:
    """The board as seen: per kind of piece, the squares where it may stand (bitboards)."""

    empty: int
    dark_man: int
    dark_king: int
    light_man: int
    light_king: int

    @classmethod
    def exact(cls, board: Board) -> Sight:
        """A board seen with certainty."""
        dark, light, kings = board
        return cls(BOARD_MASK & ~(dark | light), dark & ~kings, dark & kings, light & ~kings,
                   light & kings)

    def fits(self, board: Board) -> bool:
        """Whether every square of ``board`` holds what may stand there."""
        dark, light, kings = board
        return not (((dark & ~kings) & ~self.dark_man) | ((dark & kings) & ~self.dark_king)
                    | ((light & ~kings) & ~self.light_man) | ((light & kings) & ~self.light_king)
                    | (BOARD_MASK & ~(dark | light) & ~self.empty))


@dataclass(frozen=True, slots=True)
class _Side:
    """What the sight asks of one side, as bitboards."""

    men: int  # squares where this side's man may stand
    kings: int  # ... its king
    must: int  # squares that hold this side's piece whatever the reading's doubt
    behind: tuple[int, ...]

    @classmethod
    def of(cls, sight: Sight, colour: Colour) -> _Side:
        if colour is Colour.DARK:
            men, kings, others, behind = sight.dark_man, sight.dark_king, sight.light_man | sight.light_king, _DARK_BEHIND
        else:
            men, kings, others, behind = sight.light_man, sight.light_king, sight.dark_man | sight.dark_king, _LIGHT_BEHIND
        return cls(men, kings, (men | kings) & ~sight.empty & ~others, behind)

    def plies_needed(self, mine: int, kings: int, moves_left: int, captures_left: int) -> bool:
        """Whether this side's pieces ``mine`` can become what the sight asks with
        ``moves_left`` plies of its own, the opponent having ``captures_left`` plies."""
        men, crowned = mine & ~kings, mine & kings
        fitting = (men & self.men) | (crowned & self.kings)
        arrive = self.must & ~fitting
        if arrive.bit_count() > moves_left or self.must.bit_count() > mine.bit_count():
            return False
        if captures_left == 0:
            leave = mine & ~fitting
            if leave.bit_count() > moves_left or mine.bit_count() > (self.men | self.kings).bit_count():
                return False
        # A man that must appear comes from a man of this side behind it.
        men_only = arrive & ~self.kings
        while men_only:
            bit = men_only & -men_only
            men_only ^= bit
            square = BIT.index(bit)
            if not men & self.behind[square]:
                return False
        return True


def gap_lines(start: Position, sight: Sight, rules: Rules | None, most: int,
              least: int = 1, limit: int = 64) -> list[tuple[Move, ...]]:
    """The shortest legal lines of ``least`` to ``most`` plies from ``start`` whose board
    fits ``sight`` (at most ``limit`` of them: past that, the sight says too little)."""
    rules = rules or Rules()
    sides = {Colour.DARK: _Side.of(sight, Colour.DARK), Colour.LIGHT: _Side.of(sight, Colour.LIGHT)}
    for plies in range(least, most + 1):
        found: list[tuple[Move, ...]] = []
        _search(start, plies, (), sight, sides, rules, found, set(), limit)
        if found:
            return found
    return []


@dataclass(frozen=True, slots=True)
class IrregularLine:
    """A line through a gap with one irregular ply: legal plies, the irregular ply (its
    board done, men lifted), then legal plies played on from the board it left."""

    before: tuple[Move, ...]
    ply: Hypothesis
    after: tuple[Move, ...]

    @property
    def plies(self) -> int:
        return len(self.before) + 1 + len(self.after)

    def positions(self, start: Position) -> list[Position]:
        """The start, then the position after each ply of the line."""
        positions = [start]
        for move in self.before:
            positions.append(positions[-1].play(move))
        mover = positions[-1].turn
        positions.append(Position(*self.ply.board, turn=mover.opponent))
        for move in self.after:
            positions.append(positions[-1].play(move))
        return positions


def irregular_gap_lines(start: Position, sight: Sight, rules: Rules | None, most: int,
                        limit: int = 16) -> list[IrregularLine]:
    """The shortest lines of at most ``most`` plies from ``start``, one of them an irregular
    ply of the catalogue (:func:`engine.changes.irregular_plies`) and the rest legal, whose
    board fits ``sight`` (at most ``limit`` of them). Worth asking only where
    :func:`gap_lines` finds none: a legal line is always the better story."""
    rules = rules or Rules()
    sides = {Colour.DARK: _Side.of(sight, Colour.DARK), Colour.LIGHT: _Side.of(sight, Colour.LIGHT)}
    dead: set[tuple[Position, int]] = set()  # no legal line of so many plies from there
    for plies in range(1, most + 1):
        found: list[IrregularLine] = []
        _search_irregular(start, plies, (), sight, sides, rules, found, dead, limit)
        if found:
            return found
    return []


def _search_irregular(position: Position, plies: int, line: tuple[Move, ...], sight: Sight,
                      sides: dict[Colour, _Side], rules: Rules, found: list[IrregularLine],
                      dead: set[tuple[Position, int]], limit: int) -> bool:
    """Append to ``found`` the lines of exactly ``plies`` more plies, ``line`` (legal) so far,
    the irregular ply here or further on; False when there are none from here (remembered
    in ``dead`` with the plies left negated, apart from the legal search's)."""
    if plies == 0 or len(found) >= limit:
        return False
    if (position, -plies) in dead or not _possible(position, plies, sides):
        return False
    before = len(found)
    for ply in irregular_plies(position, rules):
        after = Position(*ply.board, turn=position.turn.opponent)
        rest: list[tuple[Move, ...]] = []
        _search(after, plies - 1, (), sight, sides, rules, rest, dead, limit)
        found += [IrregularLine(line, ply, moves) for moves in rest[:limit - len(found)]]
    for move in position.legal_moves(rules):
        _search_irregular(position.play(move), plies - 1, line + (move,), sight, sides, rules,
                          found, dead, limit)
    if len(found) == before:
        dead.add((position, -plies))
    return len(found) > before


def _possible(position: Position, plies: int, sides: dict[Colour, _Side]) -> bool:
    """Whether ``plies`` more plies from ``position`` may still reach the sight."""
    turn = position.turn
    own, other = (plies + 1) // 2, plies // 2  # the side to move plays first
    for colour, left, against in ((turn, own, other), (turn.opponent, other, own)):
        mine = position.dark if colour is Colour.DARK else position.light
        if not sides[colour].plies_needed(mine, position.kings, left, against):
            return False
    return True


def _search(position: Position, plies: int, line: tuple[Move, ...], sight: Sight,
            sides: dict[Colour, _Side], rules: Rules, found: list[tuple[Move, ...]],
            dead: set[tuple[Position, int]], limit: int) -> bool:
    """Append to ``found`` the lines of exactly ``plies`` more plies; False when there
    are none from here (remembered in ``dead``: transpositions are frequent)."""
    if plies == 0:
        if sight.fits(position.board):
            found.append(line)
            return True
        return False
    if (position, plies) in dead or not _possible(position, plies, sides):
        return False
    any_found = False
    for move in position.legal_moves(rules):
        if len(found) >= limit:
            return True
        any_found |= _search(position.play(move), plies - 1, line + (move,), sight, sides, rules,
                             found, dead, limit)
    if not any_found:
        dead.add((position, plies))
    return any_found
