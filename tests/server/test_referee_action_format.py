"""Referee actions: wire format and validation (events/decisions.py)."""

from __future__ import annotations

import json

import pytest

from makhos.engine import Colour
from makhos.engine.game import Outcome
from makhos.events import EventKind, GameEvent
from makhos.events import decisions as ra
from makhos.events.decisions import ACTIONS, ActionError, parse_action

ONE_OF_EACH = [ra.Acknowledge(3), ra.AcceptMove(3), ra.Dismiss(3), ra.CorrectMove("22x15x8", 3),
               ra.CorrectMove("22-18"), ra.ChooseLine(4, "25-21 5-9 21-17"), ra.TakeBack(2), ra.SetResult(Outcome.DRAW, "agreement"),
               ra.NewGame({"men_per_side": 12}), ra.NewGame({}, from_board=True, turn=Colour.LIGHT),
               ra.NewGame({}, fen="W:W10,11,K27:B14,19,K31"), ra.SetPlayers("Somchai", "Malee", "QF", 6),
               ra.GrantExtraTime(Colour.LIGHT, 5)]


@pytest.mark.parametrize("action", ONE_OF_EACH, ids=lambda a: a.name)
def test_every_action_round_trips_through_its_stored_event(action):
    event = action.to_event("3", 1, 5.0)
    stored = json.loads(event.to_json())["detail"]
    assert event.kind is EventKind.REFEREE and stored["action"] == action.name
    assert parse_action(stored) == action
    assert GameEvent.from_json(event.to_json()).detail == action


def test_one_of_each_covers_every_action():
    assert {a.name for a in ONE_OF_EACH} == set(ACTIONS)


def test_sides_and_outcomes_are_typed_and_stored_as_words():
    action = parse_action({"action": "grant_extra_time", "side": "dark", "minutes": 10})
    assert action == ra.GrantExtraTime(Colour.DARK, 10)
    assert action.to_dict() == {"action": "grant_extra_time", "side": "dark", "minutes": 10}
    assert parse_action({"action": "set_result", "outcome": "dark wins"}).outcome is Outcome.DARK_WINS


@pytest.mark.parametrize("body, message", [
    ([], "JSON object"),
    ({"action": "explode"}, "unknown action"),
    ({"action": "take_back", "plies": 0}, "plies"),
    ({"action": "take_back", "plies": True}, "plies"),
    ({"action": "acknowledge"}, "needs: alert"),
    ({"action": "set_result", "outcome": "dark"}, "outcome must be one of"),
    ({"action": "correct_move", "move": "22-99"}, "not a move"),
    ({"action": "choose_line", "alert": 4, "line": " "}, "line must be"),
    ({"action": "choose_line", "alert": 4, "line": "25-21 5-99"}, "not a move"),
    ({"action": "new_game", "rules": {"men_per_side": 10}}, "men_per_side"),
    ({"action": "new_game", "rules": {"colour": "x"}}, "unknown rule settings"),
    ({"action": "new_game", "rules": {}, "from_board": True, "fen": "W:W10:B14", "turn": "light"},
     "from the board or from a FEN, not both"),
    ({"action": "new_game", "rules": {}, "from_board": True}, "needs turn: the side to move"),
    ({"action": "new_game", "rules": {}, "from_board": True, "turn": None}, "needs turn"),
    ({"action": "new_game", "rules": {}, "from_board": True, "turn": "red"}, "turn must be 'dark' or 'light'"),
    ({"action": "new_game", "rules": {}, "turn": "dark"}, "turn goes with from_board"),
    ({"action": "new_game", "rules": {}, "from_board": "yes", "turn": "dark"}, "from_board must be true or false"),
    ({"action": "set_players", "first": " ", "second": "B"}, "first must not be empty"),
    ({"action": "set_players", "first": "A" * 81, "second": "B"}, "longer than 80"),
    ({"action": "grant_extra_time", "side": "red", "minutes": 5}, "side"),
    ({"action": "acknowledge", "alert": 1, "extra": 2}, "unknown field"),
])
def test_bad_requests_say_what_to_fix(body, message):
    with pytest.raises(ActionError, match=message):
        parse_action(body)


def test_action_names_are_unique_and_documented():
    import makhos.events.decisions as module

    for name in ACTIONS:
        assert name in module.__doc__
