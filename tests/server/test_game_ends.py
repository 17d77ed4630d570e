"""What the pages hold as a game ends: notices that end with it, a clock that stops with the
camera, and the time each move took (server/state.py over events/game.py)."""

from __future__ import annotations

from dataclasses import replace

from makhos.engine import Colour
from makhos.engine.game import Outcome
from makhos.engine.pdn import read_game
from makhos.events import EventKind, GameEvent
from makhos.events import decisions as ra
from makhos.events.details import (CameraNotice, CameraStatus, Crowned, CrowningPending, GameOver,
                            Irregularity, IrregularityKind)
from makhos.server.state import BoardState

from server_sample import MOVES, T0, game_events


def fold(events) -> BoardState:
    state = BoardState("1")
    for seq, event in enumerate(events, start=1):
        state.apply(event.with_seq(seq))
    return state


def pending(square: int, time: float = T0 + 500) -> GameEvent:
    return GameEvent("1", EventKind.CROWNING_PENDING, time, side=Colour.DARK,
                     detail=CrowningPending(square))


def notice(time: float = T0 + 500) -> GameEvent:
    return GameEvent("1", EventKind.IRREGULARITY, time, side=Colour.LIGHT,
                     reason="crowning not done on 31", detail=Irregularity(IrregularityKind.CROWNING, open=False))


def test_a_king_stacked_on_the_camera_ends_crowning_pending():
    state = fold(game_events(moves=MOVES[:4]) + [pending(31)])
    assert state.to_json()["crowning_pending"] == 31
    state.apply(GameEvent("1", EventKind.CROWNED, T0 + 510, side=Colour.DARK, detail=Crowned(31), seq=99))
    assert state.to_json()["crowning_pending"] is None


def test_a_result_ends_crowning_pending_notices_and_the_clock():
    for result in (ra.SetResult(Outcome.DARK_WINS, "resignation").to_event("1", 1, T0 + 600),
                   GameEvent("1", EventKind.RESULT, T0 + 600, reason="no pieces left",
                             detail=GameOver(Outcome.DARK_WINS))):
        state = fold(game_events(moves=MOVES[:4]) + [notice(), pending(31), result])
        view = state.to_json()
        assert view["game"]["result"]["outcome"] == "dark wins"
        assert view["crowning_pending"] is None and view["alerts"] == []
        assert view["clock"]["stopped"] == T0 + 600


def test_an_irregularity_the_referee_must_answer_stays_open_after_the_result():
    open_alert = GameEvent("1", EventKind.IRREGULARITY, T0 + 500, side=Colour.LIGHT,
                           reason="missed capture", detail=Irregularity(IrregularityKind.MISSED_CAPTURE))
    state = fold(game_events(moves=MOVES[:4]) + [open_alert,
                 ra.SetResult(Outcome.DRAW, "agreement").to_event("1", 1, T0 + 600)])
    assert [a["kind"] for a in state.to_json()["alerts"]] == ["irregularity"]


def test_a_recording_that_ends_stops_the_clock_ends_crowning_pending_and_says_so():
    ended = GameEvent("1", EventKind.CAMERA, T0 + 75, detail=CameraNotice(CameraStatus.ENDED))
    view = fold(game_events(moves=MOVES[:4]) + [pending(31), ended]).to_json()
    assert view["camera"] == "ended" and view["clock"]["stopped"] == T0 + 75
    assert view["crowning_pending"] is None
    assert view["clock"]["started"] == T0 + 40  # 35 s into the move when the video ended
    assert view["alerts"] == []  # not an alarm: the recording is over, not lost


def test_a_lost_camera_does_not_stop_the_clock():
    lost = GameEvent("1", EventKind.CAMERA, T0 + 75, detail=CameraNotice(CameraStatus.LOST))
    view = fold(game_events(moves=MOVES[:4]) + [lost]).to_json()
    assert view["camera"] == "lost" and view["clock"]["stopped"] is None


def test_each_move_carries_the_time_its_mover_spent():
    events = game_events(moves=MOVES[:3])  # the game starts at T0, a move every 10 s...
    events[3] = replace(events[3], time=T0 + 65)  # ...but the third took 45 s
    moves = fold(events).to_json()["game"]["moves"]
    assert [m["spent"] for m in moves] == [10.0, 10.0, 45.0]


def test_a_corrected_ply_keeps_the_time_it_took():
    events = game_events(moves=MOVES[:2]) + [ra.CorrectMove("8-12").to_event("1", 1, T0 + 300)]
    moves = fold(events).to_json()["game"]["moves"]
    assert [(m["move"], m["spent"]) for m in moves] == [("25-21", 10.0), ("8-12", 10.0)]


def test_a_move_in_another_time_base_has_no_time_spent():
    """A referee's decision (wall time) after a video's moves (frame time) is not measured."""
    video = game_events(moves=MOVES[:2], t0=100.0)
    alert = GameEvent("1", EventKind.IRREGULARITY, 135.0, side=Colour.DARK, reason="two plies",
                      detail=Irregularity(IrregularityKind.TWO_PLIES))
    state = fold(video + [alert, ra.CorrectMove(MOVES[2], alert=4).to_event("1", 1, T0)])
    moves = state.to_json()["game"]["moves"]
    assert moves[0]["spent"] == 10.0 and [m["move"] for m in moves][-1] == MOVES[2]
    assert moves[-1]["spent"] is None


def test_the_pdn_carries_the_time_control_and_each_move_time():
    state = fold(game_events(moves=MOVES[:4]))
    text = state.pdn(state.current, {"Event": "PEA Open"})
    assert '[TimeControl "1/120"]' in text
    assert read_game(text).move_seconds == [10.0, 10.0, 10.0, 10.0]
    assert "{[%emt 0:00:10]}" in text
