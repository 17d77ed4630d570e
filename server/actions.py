"""A referee's action checked as the rules would check it, beyond its form
(:func:`makhos.events.decisions.parse_action` checks the form): a new game's settings within
the rules' ranges and its forced opening a legal line of sane length, whole numbers where
whole numbers are meant. What fails here is a request that can never be right (400), not
one that does not fit the board as it stands (409, :meth:`server.state.BoardState.check`).
"""

from __future__ import annotations

from typing import Any

from makhos.engine import Position, Rules
from makhos.engine.game import Game
from makhos.engine.sanity import no_start
from makhos.events import decisions as ra

#: RULES.md: the same position for the 3rd time by default; a hall may ask for 2 to 5.
REPETITION_THRESHOLDS = range(2, 6)
#: RULES.md: 16 (sports association), 10 (PEA 2005), 50 (online); nothing sane lies beyond 64.
COUNT_RULE_MOVES = range(1, 65)
#: A forced opening prescribes the first few plies of a game, never a game.
MAX_FORCED_OPENING = 8


class InvalidAction(ra.ActionError):
    """An action that is wrong whatever the board shows (answered with 400)."""


def check(action: ra.RefereeAction, rules_now: Rules) -> None:
    """Raise :class:`InvalidAction` for an action no board could take; ``rules_now`` are the
    board's rules, which a new game's partial settings change."""
    match action:
        case ra.GrantExtraTime(minutes=minutes):
            if type(minutes) is not int:  # 5.0 is not a number of minutes on a clock
                raise InvalidAction("minutes must be 5 or 10, a whole number")
        case ra.NewGame(rules=changes, fen=fen):
            rules = new_rules(rules_now, changes)
            if fen is not None:
                check_start(fen, rules)


def check_start(fen: str, rules: Rules) -> None:
    """Refuse a start position no game reaches, or one where the game would be over before
    it began.

    >>> check_start("W:W29:B14", Rules())
    Traceback (most recent call last):
    ...
    makhos.server.actions.InvalidAction: fen: no game reaches W:W29:B14: a light man on 29, the row where it would have been crowned
    """
    why = no_start(Position.from_fen(fen), rules)  # its form was checked with the action's
    if why is not None:
        raise InvalidAction(f"fen: {why}")


def new_rules(rules_now: Rules, changes: dict[str, Any]) -> Rules:
    """The rules of the new game: ``changes`` over ``rules_now``, within the rules' ranges,
    with a forced opening that can be played from the start.

    >>> new_rules(Rules(), {"forced_opening": ["26-22", "7-11"]}).forced_opening
    ('26-22', '7-11')
    >>> new_rules(Rules(), {"forced_opening": ["1-32"]})
    Traceback (most recent call last):
    ...
    makhos.server.actions.InvalidAction: forced_opening: ply 1, 1-32, is not legal (1-32 is not legal in B:W1,2,3,4,5,6,7,8:B25,26,27,28,29,30,31,32)
    """
    try:
        rules = Rules.from_dict({**rules_now.to_dict(), **changes})
    except (ValueError, TypeError) as error:
        raise InvalidAction(f"rules: {error}") from None
    if rules.repetition_threshold not in REPETITION_THRESHOLDS:
        raise InvalidAction(f"repetition_threshold must be {REPETITION_THRESHOLDS.start} to "
                            f"{REPETITION_THRESHOLDS.stop - 1} (3: the third time)")
    if rules.count_rule_moves not in COUNT_RULE_MOVES:
        raise InvalidAction(f"count_rule_moves must be {COUNT_RULE_MOVES.start} to "
                            f"{COUNT_RULE_MOVES.stop - 1} (16, 10 or 50 in the known rules)")
    opening = rules.forced_opening
    if len(opening) > MAX_FORCED_OPENING:
        raise InvalidAction(f"forced_opening has {len(opening)} plies; at most "
                            f"{MAX_FORCED_OPENING} (an opening, not a game)")
    game = Game(rules)
    for ply, move in enumerate(opening, 1):
        try:
            game.play_text(move)
        except ValueError as error:  # IllegalMove, or text that is no move
            raise InvalidAction(f"forced_opening: ply {ply}, {move}, is not legal ({error})") from None
    return rules
