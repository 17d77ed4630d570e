"""Folding a board's events into what the pages show (server/state.py)."""

from __future__ import annotations

import pytest

from makhos.engine import Colour, Position, Rules, Setup
from makhos.engine.game import Outcome
from makhos.engine.pdn import read_game
from makhos.events import EventKind, GameEvent
from makhos.events.details import (AlertClosed, BoardMismatch, CameraNotice, CameraStatus, ClockLevel, ClockSignal,
                            GameOver, GameStarted, Irregularity, IrregularityKind, MovePlayed,
                            Takeback, Unreadable)
from makhos.events import decisions as ra
from makhos.server.config import Scoring
from makhos.server.state import BoardState

from server_sample import MOVES, T0, game_events


def fold(events, scoring=None) -> BoardState:
    state = BoardState("1", scoring)
    for seq, event in enumerate(events, start=1):
        state.apply(event.with_seq(seq))
    return state


def referee(action: ra.RefereeAction, game: int = 1, time: float = T0 + 1000) -> GameEvent:
    return action.to_event("1", game, time)


def test_moves_give_the_position_move_list_and_last_move():
    state = fold(game_events())
    view = state.to_json()
    game = view["game"]
    assert [m["move"] for m in game["moves"]] == list(MOVES)
    assert game["fen"] == game["moves"][-1]["fen"]
    assert game["moves"][0]["side"] == "dark" and game["moves"][1]["side"] == "light"
    assert game["last_move"] == {"path": [1, 10], "captured": [6]}
    assert view["seq"] == len(MOVES) + 1


def test_captured_squares_are_the_opponent_pieces_removed():
    moves = fold(game_events()).to_json()["game"]["moves"]
    capture = next(m for m in moves if m["move"] == "16x23")
    assert capture["captured"] == [19]
    assert next(m for m in moves if m["move"] == "25-21")["captured"] == []


def test_clock_restarts_at_each_move_for_the_side_to_move():
    state = fold(game_events(moves=MOVES[:3]))
    assert state.clock.side is Colour.LIGHT
    assert state.clock.started == T0 + 30
    assert state.clock.limit_seconds == 120


def test_irregular_move_stands_with_its_reason_and_the_board_fen():
    events = game_events(moves=MOVES[:2])
    after = "W:W1,2,3,4,5,6,7,11:B21,22,26,27,28,29,30,31,32"  # a dark man appeared on 22
    events.append(GameEvent("1", EventKind.MOVE, T0 + 99, ply=3, fen=after, side=Colour.DARK,
                            reason="a piece was added", detail=MovePlayed(irregular=True)))
    game = fold(events).to_json()["game"]
    assert game["moves"][-1]["irregular"] == "a piece was added"
    assert game["moves"][-1]["move"] is None
    assert Position.from_fen(game["fen"]).piece_at(22) is not None
    assert game["turn"] == "light"


def test_alert_opens_on_irregularity_and_closes_by_event():
    events = game_events(moves=MOVES[:2])
    events.append(GameEvent("1", EventKind.IRREGULARITY, T0 + 50, side=Colour.DARK,
                            reason="missed capture", detail=Irregularity(missed=("16x23",))))
    state = fold(events)
    [alert] = state.to_json()["alerts"]
    assert alert["reason"] == "missed capture" and alert["kind"] == "irregularity"
    state.apply(GameEvent("1", EventKind.ALERT_CLOSED, T0 + 60, detail=AlertClosed(alert=alert["seq"]),
                          seq=99))
    assert state.to_json()["alerts"] == []


def test_board_mismatch_closes_when_the_board_matches_again():
    state = fold(game_events(moves=MOVES[:1]) + [
        GameEvent("1", EventKind.BOARD_MISMATCH, T0 + 20, detail=BoardMismatch((5,)))])
    assert [a["kind"] for a in state.to_json()["alerts"]] == ["board_mismatch"]
    state.apply(GameEvent("1", EventKind.BOARD_MATCHED, T0 + 21, seq=50))
    assert state.to_json()["alerts"] == []


def test_takeback_event_and_referee_take_back_undo_plies():
    state = fold(game_events(moves=MOVES[:4]) + [
        GameEvent("1", EventKind.TAKEBACK, T0 + 60, detail=Takeback(1))])
    assert len(state.current.moves) == 3
    state.apply(referee(ra.TakeBack(2)).with_seq(77))
    assert [m.move for m in state.current.moves] == ["25-21"]
    assert state.current.game.position.fen() == state.current.moves[-1].fen


def test_correct_move_with_an_alert_plays_the_right_move_now_and_closes_it():
    # The tracker never records the change an alert is about, so the correction is the
    # move due now: after dark's 23-19, light must take 16x23.
    events = game_events(moves=MOVES[:5])
    events.append(GameEvent("1", EventKind.IRREGULARITY, T0 + 60, side=Colour.LIGHT, reason="x"))
    state = fold(events)
    alert = next(iter(state.alerts))
    with pytest.raises(ra.ActionError):
        state.check(ra.CorrectMove("23-18", alert))  # a dark move: not light's to play
    action = ra.CorrectMove("16x23", alert)
    state.check(action)
    state.apply(referee(action).with_seq(90))
    assert [m.move for m in state.current.moves][-2:] == ["23-19", "16x23"]
    assert not state.alerts


def test_correct_move_without_an_alert_replaces_the_last_ply():
    state = fold(game_events(moves=MOVES[:5]))
    action = ra.CorrectMove("23-18")
    state.check(action)
    state.apply(referee(action).with_seq(90))
    assert state.current.moves[-1].move == "23-18"
    assert len(state.current.moves) == 5


def test_accepting_a_mismatch_makes_the_board_of_the_alert_stand():
    events = game_events(moves=MOVES[:1])
    events.append(GameEvent("1", EventKind.BOARD_MISMATCH, T0 + 60, side=Colour.LIGHT,
                            reason="light man removed from 5",
                            fen="B:W1,2,3,4,6,7,8:B21,26,27,28,29,30,31,32"))
    state = fold(events)
    alert = next(iter(state.alerts))
    state.apply(referee(ra.AcceptMove(alert)).with_seq(90))
    last = state.current.moves[-1]
    assert last.irregular == "irregular position change: light man removed from 5"
    assert last.fen == "B:W1,2,3,4,6,7,8:B21,26,27,28,29,30,31,32"


def test_acknowledge_keeps_the_alert_open_but_heard():
    state = fold(game_events(moves=MOVES[:1]) + [
        GameEvent("1", EventKind.IRREGULARITY, T0, reason="chain stopped early")])
    seq = next(iter(state.alerts))
    state.apply(referee(ra.Acknowledge(seq)).with_seq(10))
    assert state.to_json()["alerts"][0]["acknowledged"] is True


def test_red_clock_signal_is_an_alert_until_the_move():
    state = fold(game_events(moves=MOVES[:1]) + [
        GameEvent("1", EventKind.CLOCK, T0 + 130, detail=ClockSignal(ClockLevel.RED, 120.0))])
    assert state.to_json()["alerts"][0]["kind"] == "clock"
    state.apply(game_events(moves=MOVES[:2])[-1].with_seq(20))
    assert state.to_json()["alerts"] == []


def test_extra_time_lengthens_the_move_and_is_limited_per_game():
    state = fold(game_events(moves=MOVES[:2]))  # dark to move
    for minutes in (5, 5):
        action = ra.GrantExtraTime(Colour.DARK, minutes)
        state.check(action)
        state.apply(referee(action).with_seq(state.seq + 1))
    assert state.clock.limit_seconds == 120 + 600
    with pytest.raises(ra.ActionError, match="two of 5 or one of 10"):
        state.check(ra.GrantExtraTime(Colour.DARK, 5))
    state.check(ra.GrantExtraTime(Colour.LIGHT, 10))
    state.apply(game_events(moves=MOVES[:3])[-1].with_seq(state.seq + 1))
    assert state.clock.limit_seconds == 120  # the extension was for that one move


def test_ten_minutes_only_when_none_used():
    state = fold(game_events(moves=MOVES[:2]))
    state.apply(referee(ra.GrantExtraTime(Colour.LIGHT, 5)).with_seq(40))
    with pytest.raises(ra.ActionError):
        state.check(ra.GrantExtraTime(Colour.LIGHT, 10))


def test_match_players_alternate_first_move_and_score_follows_scoring():
    events = [referee(ra.SetPlayers("Somchai", "Malee", "R1", 4))]
    events += game_events(moves=MOVES[:2])
    events.append(referee(ra.SetResult(Outcome.DARK_WINS, "resignation")))
    events.append(referee(ra.NewGame({}), game=2))
    events.append(referee(ra.SetResult(Outcome.DRAW, "agreement"), game=2))
    state = fold(events, Scoring(3, 1, 0))
    view = state.to_json()
    results = view["match"]["results"]
    assert results[0]["players"] == {"dark": "Somchai", "light": "Malee"}
    assert results[1]["players"] == {"dark": "Malee", "light": "Somchai"}
    assert view["match"]["score"] == {"first": 4, "second": 1}
    assert view["game"]["number"] == 2


def test_new_game_with_rules_uses_their_start():
    state = fold([referee(ra.NewGame({"setup": "golden"}), game=3)])
    assert state.current.number == 3
    assert state.to_json()["game"]["fen"] == Rules(setup=Setup.GOLDEN).start_fen()


def test_tracker_game_started_confirms_a_game_the_referee_began():
    events = [referee(ra.NewGame({"men_per_side": 12}), game=2)]
    events.append(GameEvent("1", EventKind.GAME_STARTED, T0, game=2,
                            fen=Rules(men_per_side=12).start_fen(),
                            detail=GameStarted(Rules(men_per_side=12))))
    state = fold(events)
    assert [g.number for g in state.games] == [2]


def test_a_game_from_the_board_waits_for_its_reading_then_opens_at_it():
    """The referee's decision names the side to move; the page says the board is awaited
    until the camera's tracker logs the board read as the game's start."""
    events = game_events(moves=MOVES[:2])
    events.append(referee(ra.NewGame({"forced_opening": ["26-22"]}, from_board=True, turn=Colour.LIGHT),
                          game=2))
    view = fold(events).to_json()["game"]
    assert view["number"] == 2 and view["awaits_board"] and view["moves"] == []
    assert view["turn"] == "light" and view["rules"]["forced_opening"] == []
    events.append(GameEvent("1", EventKind.GAME_STARTED, T0 + 1001, game=2, fen="W:W10,11,K27:B14,19,K31",
                            side=Colour.LIGHT, detail=GameStarted(Rules(), turn_named=True)))
    state = fold(events)
    view = state.to_json()["game"]
    assert not view["awaits_board"] and view["start_fen"] == "W:W10,11,K27:B14,19,K31"
    assert [g.number for g in state.games] == [1, 2] and state.current.turn_named
    pdn = read_game(state.pdn(state.current, {}))
    assert pdn.tags["SetUp"] == "1" and pdn.tags["FEN"] == "W:W10,11,K27:B14,19,K31"


def test_result_event_ends_the_game():
    state = fold(game_events(moves=MOVES[:2]) + [
        GameEvent("1", EventKind.RESULT, T0, reason="forfeit", detail=GameOver(Outcome.LIGHT_WINS))])
    assert state.to_json()["game"]["result"] == {"outcome": "light wins", "reason": "forfeit"}


def test_pdn_of_a_game_reads_back_with_the_same_moves():
    state = fold([referee(ra.SetPlayers("A", "B", "2"))] + game_events())
    text = state.pdn(state.current, {"Event": "Test Open"})
    back = read_game(text)
    assert back.tags["Black"] == "A" and back.tags["Round"] == "2"
    assert [str(p.move) for p in back.game.plies] == list(MOVES)


def test_camera_lost_is_an_alert_and_back_closes_it():
    state = fold([GameEvent("1", EventKind.CAMERA, T0, detail=CameraNotice(CameraStatus.LOST))])
    assert state.to_json()["alerts"][0]["kind"] == "camera"
    state.apply(GameEvent("1", EventKind.CAMERA, T0, detail=CameraNotice(CameraStatus.BACK), seq=9))
    assert state.to_json()["alerts"] == [] and state.camera is CameraStatus.BACK


def test_a_malformed_referee_entry_in_the_log_is_skipped():
    state = fold(game_events(moves=MOVES[:1]) + [
        GameEvent.from_json(GameEvent("1", EventKind.REFEREE, T0, detail=Unreadable(
            EventKind.REFEREE, {"action": "take_back", "plies": "all"}, "")).to_json())])
    assert len(state.current.moves) == 1


def test_hall_summary_is_small_and_flags_alerts():
    state = fold(game_events(moves=MOVES[:3]) + [
        GameEvent("1", EventKind.IRREGULARITY, T0, reason="r")])
    summary = state.summary()
    assert summary["plies"] == 3 and summary["alert"] is True
    assert "moves" not in summary


def test_a_move_with_a_note_is_not_irregular():
    events = game_events(moves=MOVES[:1])
    events[-1] = GameEvent("1", EventKind.MOVE, T0, ply=1, move="25-21", fen=events[-1].fen,
                           side=Colour.DARK, reason="path uncertain: 25-21")
    assert fold(events).to_json()["game"]["moves"][0]["irregular"] is None


def test_light_moving_first_makes_light_the_first_mover():
    start = Rules().start_fen()
    light_first = Position.from_fen(start).with_turn(Colour.LIGHT)
    move = light_first.legal_moves()[0]
    after = light_first.play(move)
    state = fold([GameEvent("1", EventKind.GAME_STARTED, T0, fen=start),
                  GameEvent("1", EventKind.MOVE, T0 + 5, move=str(move), fen=after.fen(), side=Colour.LIGHT)])
    game = state.to_json()["game"]
    assert game["moves"][0]["irregular"] is None and game["rules"]["first_mover"] == "light"


def test_passing_notice_ends_at_the_next_move():
    state = fold(game_events(moves=MOVES[:1]) + [
        GameEvent("1", EventKind.IRREGULARITY, T0, reason="crowning not done on 4",
                  detail=Irregularity(IrregularityKind.CROWNING, open=False))])
    assert state.to_json()["alerts"][0]["kind"] == "notice"
    state.apply(game_events(moves=MOVES[:2])[-1].with_seq(30))
    assert state.to_json()["alerts"] == []
