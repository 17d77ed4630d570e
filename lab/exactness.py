"""Independent references for the search and the endgame table, shared by tests and bench.

:func:`solve_by_minimax` is plain negamax over the whole game tree, by the rules' own
:meth:`Position.legal_moves` and :meth:`Position.play`, with no pruning, ordering or
evaluation; it remembers values by (position, count), which changes no value. It needs a
finite tree, so it plays under the online count rule with a short count: every few quiet
king moves the game is drawn unless a capture or a man move comes first.
"""

from __future__ import annotations

import itertools
import random
import sys
from functools import lru_cache

from makhos.engine import Piece, Position, Rules
from makhos.engine.endgame import EndgameTable, best_of, materials
from makhos.engine.rules import Colour
from makhos.engine.search import MATE


def random_position(rng: random.Random, pieces: int, kings: float = 0.4) -> Position:
    """A random position of ``pieces`` pieces, at least one a side, no man on its crowning row."""
    squares = rng.sample(range(1, 33), pieces)
    placed = {}
    for i, square in enumerate(squares):
        colour = Colour.DARK if i == 0 else Colour.LIGHT if i == 1 else rng.choice(list(Colour))
        crowning = square <= 4 if colour is Colour.DARK else square >= 29
        placed[square] = Piece.of(colour, crowning or rng.random() < kings)
    return Position.from_pieces(placed, rng.choice(list(Colour)))


class TooLarge(Exception):
    """The tree has more states than the caller allowed."""


def solve_by_minimax(position: Position, rules: Rules, max_states: int = 20_000) -> int:
    """The game's value for the side to move, in the search's units: ``MATE - d`` a win in
    ``d`` plies, ``-(MATE - d)`` a loss, 0 a draw. ``rules`` must run the count by itself.
    Raises TooLarge past ``max_states`` distinct (position, count) states: callers skip such
    positions, chosen by the size of the reference's tree, never by what the search says."""
    assert not rules.count_on_claim, "a finite tree needs the count to run by itself"
    full = 2 * rules.count_rule_moves
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

    @lru_cache(maxsize=None)
    def value(here: Position, quiet_left: int) -> int:
        if value.cache_info().currsize > max_states:
            raise TooLarge
        moves = here.legal_moves(rules)
        if not moves:
            return -MATE  # no piece or no move: lost now
        if quiet_left <= 0:
            return 0  # the count has run out
        best = -MATE - 1
        for move in moves:
            piece = here.piece_at(move.start)
            assert piece is not None
            resets = move.is_capture or not piece.is_king
            child = -value(here.play(move), full if resets else quiet_left - 1)
            child += -1 if child > MATE // 2 else 1 if child < -MATE // 2 else 0  # one ply further
            best = max(best, child)
        return best

    return value(position, full)


def every_position(pieces: int) -> itertools.chain[Position]:
    """Every position of exactly ``pieces`` pieces (at least one a side), either side to move."""
    def of(material: tuple[int, int, int, int]):  # type: ignore[no-untyped-def]
        dm, dk, lm, lk = material
        kinds = [Piece.DARK_MAN] * dm + [Piece.DARK_KING] * dk + [Piece.LIGHT_MAN] * lm + [Piece.LIGHT_KING] * lk
        for squares in itertools.permutations(range(1, 33), pieces):
            # one arrangement per set of squares of each kind: squares ascending within a kind
            if any(kinds[i] is kinds[i + 1] and squares[i] > squares[i + 1] for i in range(pieces - 1)):
                continue
            if any(k is Piece.DARK_MAN and s <= 4 or k is Piece.LIGHT_MAN and s >= 29
                   for k, s in zip(kinds, squares)):
                continue
            board = dict(zip(squares, kinds))
            for turn in Colour:
                yield Position.from_pieces(board, turn)
    return itertools.chain.from_iterable(of(m) for m in materials(pieces) if sum(m) == pieces)


def rules_value(table: EndgameTable, position: Position, rules: Rules) -> int:
    """A position's stored value by a one-ply search over the rules' own moves, the table
    giving the children's values."""
    children = []
    for move in position.legal_moves(rules):
        child = position.play(move)
        found = table.stored(child.dark, child.light, child.kings, child.turn is Colour.DARK)
        assert found is not None
        children.append(found)
    return best_of(children)


def table_agrees_with_rules(table: EndgameTable, pieces: int) -> tuple[int, int]:
    """Check every position of ``pieces`` pieces: (how many, how many differ).

    A table that agrees everywhere with one ply of the rules is exact: by induction on the
    distance, every win or loss it names is one, and every win or loss is named.
    """
    rules = Rules(captured_removal=table.removal)
    checked = wrong = 0
    for position in every_position(pieces):
        stored = table.stored(position.dark, position.light, position.kings, position.turn is Colour.DARK)
        checked += 1
        wrong += stored != rules_value(table, position, rules)
    return checked, wrong
