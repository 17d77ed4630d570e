"""Perft: count the leaves of the legal-move tree, the standard check of a move generator.

Counts distinct move paths (two capture chains between the same squares count twice),
as the reference table in ``docs/RULES.md`` does. The last ply is counted in bulk.
"""

from __future__ import annotations

from .movegen import apply, captures, count_quiet_moves, has_capture, quiet_moves
from .position import Position
from .rules import CapturedRemoval, Colour, Rules


def perft(position: Position, depth: int, rules: Rules | None = None) -> int:
    """The number of move paths of length ``depth`` from ``position``.

    >>> perft(Position.start(), 3)
    392
    """
    if depth < 0:
        raise ValueError("depth must be >= 0")
    if depth == 0:
        return 1
    immediate = (rules or Rules()).captured_removal is CapturedRemoval.IMMEDIATE
    if position.turn is Colour.DARK:
        return _perft(position.dark, position.light, position.kings, True, depth, immediate)
    return _perft(position.light, position.dark, position.kings, False, depth, immediate)


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


def divide(position: Position, depth: int, rules: Rules | None = None) -> dict[str, int]:
    """Perft split by first move, to find where two generators differ."""
    rules = rules or Rules()
    return {str(m): perft(position.play(m), depth - 1, rules) for m in position.legal_moves(rules)}
