"""Perft: count the leaves of the legal-move tree, the standard check of a move generator.

Counts distinct move paths (two capture chains between the same squares count twice),
as the reference table in ``docs/RULES.md`` does. The last ply is counted in bulk.

With ``table=True`` the counts of positions already met at the same remaining depth are
reused: the count below a position depends on nothing else, and many move orders
transpose (the start has 1.8 million leaves at depth 7 but far fewer distinct positions).
"""

from __future__ import annotations

from .movegen import apply, captures, count_quiet_moves, has_capture, quiet_moves
from .position import Position
from .rules import CapturedRemoval, Colour, Rules


def perft(position: Position, depth: int, rules: Rules | None = None, *, table: bool = False) -> int:
    """The number of move paths of length ``depth`` from ``position``.

    ``table`` keeps a transposition table for this call (memory grows with the number of
    distinct positions; the counts are the same).

    >>> perft(Position.start(), 3), perft(Position.start(), 3, table=True)
    (392, 392)
    """
    if depth < 0:
        raise ValueError("depth must be >= 0")
    if depth == 0:
        return 1
    immediate = (rules or Rules()).captured_removal is CapturedRemoval.IMMEDIATE
    if position.turn is Colour.DARK:
        sides = (position.dark, position.light, position.kings, True)
    else:
        sides = (position.light, position.dark, position.kings, False)
    if table:
        return _perft_table(*sides, depth, immediate, {})
    return _perft(*sides, depth, immediate)


def _perft(mine: int, theirs: int, kings: int, up: bool, depth: int, immediate: bool) -> int:
    if has_capture(mine, theirs, kings, up):
        moves = captures(mine, theirs, kings, up, immediate)
        if depth == 1:
            return len(moves)
    elif depth == 1:
        return count_quiet_moves(mine, theirs, kings, up)
    else:
        moves = quiet_moves(mine, theirs, kings, up)
    total = 0
    down = not up
    for move in moves:
        m, t, k = apply(mine, theirs, kings, up, move)
        total += _perft(t, m, k, down, depth - 1, immediate)
    return total


def _perft_table(
    mine: int, theirs: int, kings: int, up: bool, depth: int, immediate: bool,
    seen: dict[tuple[int, int, int, bool, int], int],
) -> int:
    """:func:`_perft` with a transposition table keyed on (mine, theirs, kings, up, depth).

    ``up`` tells the side to move, so the key is the full position; the last ply is not
    stored since bulk counting it costs less than the lookup.
    """
    if depth == 1:
        if has_capture(mine, theirs, kings, up):
            return len(captures(mine, theirs, kings, up, immediate))
        return count_quiet_moves(mine, theirs, kings, up)
    key = (mine, theirs, kings, up, depth)
    total = seen.get(key)
    if total is not None:
        return total
    if has_capture(mine, theirs, kings, up):
        moves = captures(mine, theirs, kings, up, immediate)
    else:
        moves = quiet_moves(mine, theirs, kings, up)
    total = 0
    down = not up
    for move in moves:
        m, t, k = apply(mine, theirs, kings, up, move)
        total += _perft_table(t, m, k, down, depth - 1, immediate, seen)
    seen[key] = total
    return total


def divide(position: Position, depth: int, rules: Rules | None = None) -> dict[str, int]:
    """Perft split by first move, to find where two generators differ."""
    rules = rules or Rules()
    return {str(m): perft(position.play(m), depth - 1, rules) for m in position.legal_moves(rules)}
