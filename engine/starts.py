"""The set-ups a game can start from, recognised on the board before the first move.

The camera looks for these boards to fix the board's numbering (``vision.pipeline``) and the
tracker to start a game (``tracker.tracker``), so both look for the same ones."""

from __future__ import annotations

from .position import Position
from .rules import Rules, Setup


def start_rules(rules: Rules) -> list[Rules]:
    """The rule variants whose start the tracker looks for: the configured one first,
    then the standard 8- and 12-man starts and the special set-ups of the 8-man game.

    Rules that name a set-up with kings (a special set-up, a golden board) are looked for
    alone: the referee named the set-up, and another one, of few pieces, is found in a
    board some plies on that is read in poor light with its men unseen (kingplay 70095:
    configured with three kings a side, a mid-game board under a shadow was taken for the
    first golden board's two kings, and the game recorded nothing)."""
    if rules.setup is not Setup.STANDARD:
        return [rules]
    variants = [rules]
    for men in (8, 12):
        variants.append(rules.with_(men_per_side=men, setup=Setup.STANDARD))
    for setup in (Setup.ONE_KING, Setup.TWO_KINGS, Setup.THREE_KINGS):
        variants.append(rules.with_(men_per_side=8, setup=setup))
    for n in range(1, 5):
        variants.append(rules.with_(men_per_side=8, setup=Setup.GOLDEN, golden_board=n))
    unique: list[Rules] = []
    for variant in variants:
        if all(Position.start(variant) != Position.start(u) for u in unique):
            unique.append(variant)
    return unique


def start_boards(rules: Rules) -> list[Position]:
    """The start position of every variant of :func:`start_rules`, in that order."""
    return [Position.start(variant) for variant in start_rules(rules)]
