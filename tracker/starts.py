"""The set-ups a game can start from, recognised on the board before the first move."""

from __future__ import annotations

from makhos.engine import Position, Rules, Setup


def start_rules(rules: Rules) -> list[Rules]:
    """The rule variants whose start the tracker looks for: the configured one first,
    then the standard 8- and 12-man starts and the special set-ups of the 8-man game."""
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
