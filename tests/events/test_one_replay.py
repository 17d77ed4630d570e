"""One replay of the log: the server's state, a restored tracker and the live tracker that
wrote the log hold the same game record, event after event (issue #19).

The server never imports the tracker; this test joins the three through the log alone, so
a tracker that says something the replay reads otherwise fails here.
"""

from __future__ import annotations

import pytest

from makhos.engine import Colour
from makhos.events.decisions import AcceptMove
from makhos.events.details import EventKind, Unreadable
from makhos.events.game import replay
from makhos.server.state import BoardState
from makhos.tracker import GameTracker

from scripted_hall import BOARD, Hall, play_session, snapshot


@pytest.fixture(scope="module")
def hall() -> Hall:
    with pytest.MonkeyPatch.context() as monkeypatch:
        return play_session(monkeypatch)


def served(events) -> BoardState:
    state = BoardState(BOARD)
    for event in events:
        state.apply(event)
    return state


def restored(events) -> GameTracker:
    tracker = GameTracker(BOARD)
    tracker.restore(events)
    return tracker


def test_the_log_has_every_kind_every_decision_and_a_bad_entry(hall):
    events = hall.events()
    assert {e.kind for e in events} == set(EventKind)
    decisions = {e.detail.name for e in events if e.kind is EventKind.REFEREE
                 and not isinstance(e.detail, Unreadable)}
    assert decisions == {"acknowledge", "accept_move", "dismiss", "correct_move", "take_back",
                         "set_result", "new_game", "set_players", "grant_extra_time"}
    assert sum(isinstance(e.detail, Unreadable) for e in events) == 1
    assert len({e.game for e in events}) == 4 and len(events) > 100


def test_the_three_readers_agree_at_the_end(hall):
    events = hall.events()
    live = snapshot(hall.tracker.logged_game)
    assert snapshot(served(events)) == live
    assert snapshot(restored(events).logged_game) == live
    assert snapshot(replay(events)) == live


def test_the_three_readers_agree_after_every_event(hall):
    events = hall.events()
    checked = 0
    for count, live in hall.snapshots[::7]:
        assert snapshot(served(events[:count]), numbered=False) == live, events[count - 1]
        assert snapshot(restored(events[:count]).logged_game, numbered=False) == live, events[count - 1]
        checked += 1
    assert checked > 100


def test_what_the_readers_agree_on_is_the_game_that_was_played(hall):
    record = replay(hall.events())
    first, second, third, fourth = record.games
    assert first.rules.first_mover is Colour.LIGHT  # light moved first
    assert sum(m.irregular is not None for m in first.moves) == 3  # stood, accepted twice
    assert first.result.reason == "agreement" and second.result.reason == "resignation"
    assert third.set_up and len(third.moves) == 2  # a start seen after a result, moves made
    assert fourth.game.start.fen() == "B:W2,7,15,20:B19,30"
    assert str(fourth.game.plies[0].move) == "19x10x3" and fourth.result is not None
    assert record.alerts == {} and record.match.first == "Somchai"


def test_the_referee_accepts_the_alerts_the_live_tracker_raised(hall):
    events = hall.events()
    kind_of = {e.seq: e.kind for e in events}
    accepted = [e.detail.alert for e in events if isinstance(e.detail, AcceptMove)]
    assert [kind_of[seq] for seq in accepted] == [EventKind.IRREGULARITY, EventKind.BOARD_MISMATCH]
