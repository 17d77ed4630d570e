"""The set-ups a game is looked for from (``engine.starts``): rules that name a set-up with
kings look for it alone (#42, kingplay 70095: configured with three kings a side, a
mid-game board read in poor light with one piece a side was taken for the first golden
board, and the game recorded nothing); the standard rules look for every set-up, as a
referee who named none may play any."""

from __future__ import annotations

import pytest

from makhos.engine import Position, Rules, Setup
from makhos.engine.starts import start_boards, start_rules


@pytest.mark.parametrize("rules", [Rules(setup=Setup.THREE_KINGS), Rules(setup=Setup.ONE_KING),
                                   Rules(setup=Setup.GOLDEN, golden_board=2)])
def test_rules_that_name_a_set_up_with_kings_look_for_it_alone(rules: Rules) -> None:
    assert start_rules(rules) == [rules]
    assert start_boards(rules) == [Position.start(rules)]


def test_standard_rules_look_for_every_set_up_the_configured_first() -> None:
    rules = Rules()
    variants = start_rules(rules)
    assert variants[0] == rules
    setups = {variant.setup for variant in variants}
    assert setups == set(Setup)
    assert any(variant.men_per_side == 12 for variant in variants)
