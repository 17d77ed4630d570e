"""Referee actions: wire format and validation (events/referee.py)."""

from __future__ import annotations

import pytest

from events import EventKind
from events.referee import ACTIONS, ActionError, SetPlayers, parse_action


def test_every_action_round_trips_through_its_event():
    action = SetPlayers("Somchai", "Malee", "QF", 6)
    event = action.to_event("3", 1, 5.0)
    assert event.kind is EventKind.REFEREE and event.detail["action"] == "set_players"
    assert parse_action(event.detail) == action


@pytest.mark.parametrize("body, message", [
    ([], "JSON object"),
    ({"action": "explode"}, "unknown action"),
    ({"action": "take_back", "plies": 0}, "plies"),
    ({"action": "take_back", "plies": True}, "plies"),
    ({"action": "acknowledge"}, "needs: alert"),
    ({"action": "set_result", "outcome": "dark"}, "outcome must be one of"),
    ({"action": "correct_move", "move": "22-99"}, "not a move"),
    ({"action": "new_game", "rules": {"men_per_side": 10}}, "men_per_side"),
    ({"action": "new_game", "rules": {"colour": "x"}}, "unknown rule settings"),
    ({"action": "set_players", "first": " ", "second": "B"}, "first must not be empty"),
    ({"action": "set_players", "first": "A" * 81, "second": "B"}, "longer than 80"),
    ({"action": "grant_extra_time", "side": "red", "minutes": 5}, "side"),
    ({"action": "acknowledge", "alert": 1, "extra": 2}, "unknown field"),
])
def test_bad_requests_say_what_to_fix(body, message):
    with pytest.raises(ActionError, match=message):
        parse_action(body)


def test_action_names_are_unique_and_documented():
    import events.referee as module

    for name in ACTIONS:
        assert name in module.__doc__
