"""The tracker turns settled readings into a refereed game (issue: frames to a game)."""

import numpy as np
import pytest

from makhos.engine import Colour, Piece, Position, Rules
from makhos.engine.game import Game, Outcome
from makhos.events import EventKind
from makhos.events.details import AlertEnding, ClockLevel, IrregularityKind
from makhos.tracker import GameTracker, TrackerConfig
from makhos.vision.reading import CLASS_INDEX, Reading

from feed import Feed, decision, kinds, started


def test_standard_start_is_recognised_and_a_random_game_recorded_move_perfect():
    feed = Feed(GameTracker("b1"), rng_seed=1)
    assert kinds(feed.board(Position.start())) == ["game_started"]
    game = Game()
    rng = np.random.default_rng(7)
    while game.result() is None and len(game.plies) < 60:
        moves = game.legal_moves()
        game.play(moves[rng.integers(len(moves))])
        feed.hand()
        feed.board(game.position)
    assert feed.tracker.game.positions() == game.positions()
    assert not any(e.kind is EventKind.IRREGULARITY for e in feed.events)


def test_twelve_man_start_is_recognised():
    feed = Feed(GameTracker("b1"))
    feed.board(Position.start(Rules(men_per_side=12)))
    assert feed.tracker.game.rules.men_per_side == 12


def test_first_mover_is_inferred_from_the_first_move():
    feed = Feed(GameTracker("b1"))
    feed.board(Position.start())
    light_first = Position.start().with_turn(Colour.LIGHT)
    feed.board(light_first.play(light_first.legal_moves()[0]))
    assert feed.tracker.game.rules.first_mover is Colour.LIGHT
    assert [e.side for e in feed.events if e.kind is EventKind.MOVE] == [Colour.LIGHT]


def test_nothing_is_read_while_a_hand_is_over_the_board():
    feed = started("B:W1,2:B25,26")
    assert feed.hand(60) == []
    assert feed.tracker.game.plies == []


def test_uncertain_reading_commits_nothing():
    feed = started("B:W1:B25")
    before, after = Position.from_fen("B:W1:B25"), Position.from_fen("W:W1:B21")
    half = (Reading.certain(before).probabilities + Reading.certain(after).probabilities) / 2
    for k in range(20):
        feed.tracker.observe(1 + k / 30, Reading(1 + k / 30, half))
    assert feed.tracker.game.plies == []


def test_missed_capture_raises_an_alert_naming_the_capture_then_correction():
    feed = started("B:W14:B18,30")
    events = feed.board("W:W14:B18,26")
    alert = [e for e in events if e.kind is EventKind.IRREGULARITY]
    assert len(alert) == 1 and "18x9" in alert[0].reason and alert[0].detail.missed == ("18x9",)
    assert feed.tracker.game.plies == []  # the irregular move is not recorded yet
    events = feed.board("B:W14:B18,30")  # board put back
    assert kinds(events) == ["alert_closed"] and events[0].detail.how is AlertEnding.CORRECTED
    feed.board("W:B9,30")  # then the right move
    assert [str(p.move) for p in feed.tracker.game.plies] == ["18x9"]


def test_a_board_no_move_explains_stands_once_play_goes_on_from_it():
    feed = started("B:W1,5:B25,30")
    events = feed.board("B:W1:B25,30", frames=100)  # light man on 5 gone past a misread's time
    assert [(e.kind.value, e.detail.rule) for e in events] == [
        ("board_mismatch", IrregularityKind.PIECE_REMOVED)]
    feed.hand()  # a board with a piece gone stands only when a hand plays on from it
    events = feed.board("W:W1:B21,30", frames=8)  # then dark plays on from it
    assert kinds(events) == ["move", "board_matched", "move"]
    first, second = feed.tracker.game.plies
    assert first.irregularity == "irregular position change: light man removed from 5"
    assert first.after.fen() == "B:W1:B25,30" and str(second.move) == "25-21"
    assert feed.tracker.alert is None


def test_a_misread_that_passes_never_becomes_the_record():
    feed = started("B:W1,5:B25,30")
    feed.board("B:W1:B25,30", frames=100)  # the man on 5 misread as empty, long enough to say so
    feed.board("W:W1,5:B21,30", frames=8)  # the real board: dark played 25-21
    assert [(str(p.move), p.is_irregular) for p in feed.tracker.game.plies] == [("25-21", False)]
    assert feed.tracker.alert is None


def test_opponent_playing_on_makes_the_irregular_move_stand():
    feed = started("B:W15,5:B18,22,30")
    feed.board("W:W15,5:B18,22,26")  # dark misses 18x11
    events = feed.board("B:W15,9:B18,22,26")  # light plays on: 5-9
    plies = feed.tracker.game.plies
    assert plies[0].is_irregular and "compulsory" in plies[0].irregularity
    assert str(plies[1].move) == "5-9"
    assert "alert_closed" in kinds(events)


def test_capture_chain_shown_jump_by_jump_with_men_lifted_late():
    feed = started("B:W15,7,2:B19,30")
    feed.board("W:W15,7,2:B10,30")  # first landing, nothing lifted
    feed.board("W:W15,7,2:B3,30", frames=3)  # second landing
    feed.hand(5)
    feed.board("W:W2:BK3,30")  # men lifted, king stacked
    assert [str(p.move) for p in feed.tracker.game.plies] == ["19x10x3"]
    assert not any(e.kind is EventKind.IRREGULARITY for e in feed.events)


def test_chain_stopped_early_is_an_alert_once_it_rests():
    feed = started("B:W15,7,2:B19,30", chain_patience=1.0)
    events = feed.wait(1.5, "W:W7,2:B10,30")
    alerts = [e for e in events if e.kind is EventKind.IRREGULARITY]
    assert len(alerts) == 1 and alerts[0].detail.rule is IrregularityKind.PARTIAL_CHAIN
    events = feed.board("W:W2:BK3,30")  # the chain is finished after all
    assert "alert_closed" in kinds(events)
    assert [str(p.move) for p in feed.tracker.game.plies] == ["19x10x3"]


def test_late_crowning_is_pending_then_settles_and_forgetting_it_is_an_alert():
    feed = started("B:W20,9:B6,30")
    events = feed.board("W:W20,9:B2,30")  # dark man reaches 2, not stacked yet
    assert "crowning_pending" in kinds(events)
    assert feed.tracker.game.position.piece_at(2).is_king
    events = feed.board("B:W24,9:B2,30")  # light moves without stacking it
    alerts = [e for e in events if e.kind is EventKind.IRREGULARITY]
    assert len(alerts) == 1 and "crowning not done on 2" in alerts[0].reason
    assert str(feed.tracker.game.plies[-1].move) == "20-24"
    feed.board("B:W24,9:BK2,30")  # stacked at last: the board matches the game again
    assert 2 not in feed.tracker.overlay


def test_a_king_stacked_in_time_is_said_so_the_pages_stop_calling_it_pending():
    config = TrackerConfig(first_mover=Colour.DARK)
    feed = Feed(GameTracker("b1", config=config))
    start = feed.log(feed.tracker.start_from(Position.from_fen("B:W20,9:B6,30"), 0.0))
    feed.board("W:W20,9:B2,30")  # dark man reaches 2, not stacked yet
    assert feed.tracker.logged_game.crowning_pending == 2
    stacked = feed.board("W:W20,9:BK2,30")  # light stacks it before moving, as it should
    assert kinds(stacked) == ["crowned"] and stacked[0].detail.square == 2
    assert feed.tracker.logged_game.crowning_pending is None and 2 not in feed.tracker.overlay
    assert feed.board("W:W20,9:BK2,30") == []  # said once
    restored = GameTracker("b1", config=config)  # a restarted worker reads the same from the log
    restored.restore(start + feed.events)
    assert restored.logged_game.crowning_pending is None and restored.overlay == {}


def test_knocked_piece_put_back_is_a_mismatch_then_matched_and_the_game_kept():
    feed = started("B:W1,5:B25,30")
    assert feed.board("B:W1:B25,30", frames=80) == []  # a misread is brief: wait before saying so
    events = feed.board("B:W1:B25,30", frames=20)  # a light man knocked off the board
    assert kinds(events) == ["board_mismatch"] and "removed from 5" in events[0].reason
    events = feed.board("B:W1,5:B25,30")
    assert kinds(events) == ["board_matched"]  # the mismatch alert closes with it
    assert feed.tracker.game.plies == []


def test_two_plies_seen_at_once_are_both_recorded():
    feed = started("B:W1,5:B25,30")
    feed.board("B:W1,9:B21,30")
    assert [str(p.move) for p in feed.tracker.game.plies] == ["25-21", "5-9"]


def test_takeback_restores_the_earlier_position():
    feed = started("B:W1,5:B25,30")
    feed.board("W:W1,5:B21,30")
    events = feed.board("B:W1,5:B25,30")
    assert kinds(events) == ["takeback"] and feed.tracker.game.plies == []


def test_dark_moving_twice_is_a_wrong_side_alert():
    feed = started("B:W1,5:B25,30")
    feed.board("W:W1,5:B21,30")
    events = feed.wait(1.2, "W:W1,5:B17,30")  # no hand between: it waits out a transit
    alerts = [e for e in events if e.kind is EventKind.IRREGULARITY]
    assert len(alerts) == 1 and alerts[0].reason.startswith("dark moved twice")


def test_the_side_of_an_alerted_attempt_moving_again_in_sight_waits_a_misreads_patience():
    """Kingplay 70033: after dark's alerted 27-23, a dark piece read on 17 and none on 21 for
    a second, while light's hand made the capture, was alerted as dark's 21-17 and stood once
    play went on: a ply nobody played. No hand made it, so it is a misread until it lasts."""
    feed = started("B:W15,5:B18,22,30")
    feed.board("W:W15,5:B18,22,26")  # dark misses 18x11: alerted
    events = feed.wait(1.5, "W:W15,5:B17,18,26")  # 22 read on 17, with no hand between
    assert not [e for e in events if e.kind is EventKind.IRREGULARITY]
    events = feed.wait(2.0, "W:W15,5:B17,18,26")  # it lasts as a misread would not
    alerts = [e for e in events if e.kind is EventKind.IRREGULARITY]
    assert len(alerts) == 1 and alerts[0].reason.startswith("dark moved twice (22-17)")


def test_the_side_of_an_alerted_attempt_moving_again_after_a_hand_is_alerted_at_once():
    feed = started("B:W15,5:B18,22,30")
    feed.board("W:W15,5:B18,22,26")
    feed.hand()
    events = feed.board("W:W15,5:B17,18,26", frames=5)
    alerts = [e for e in events if e.kind is EventKind.IRREGULARITY]
    assert len(alerts) == 1 and alerts[0].reason.startswith("dark moved twice (22-17)")


def test_move_clock_warns_at_1_30_and_1_50_and_signals_red_at_2_00():
    feed = started("B:W1:B25")
    events = []
    for second in range(0, 125):
        events += feed.tracker.observe(float(second), None)
    clock = [(e.detail.level, e.detail.seconds) for e in events if e.kind is EventKind.CLOCK]
    assert clock == [(ClockLevel.YELLOW, 90.0), (ClockLevel.YELLOW, 110.0), (ClockLevel.RED, 120.0)]


def test_extra_time_moves_the_limit():
    feed = started("B:W1:B25")
    decision(feed, action="grant_extra_time", side="dark", minutes=5)
    events = []
    for second in range(0, 125):
        events += feed.tracker.observe(float(second), None)
    assert not any(e.kind is EventKind.CLOCK for e in events)


def test_result_event_when_the_last_piece_is_taken():
    feed = started("B:W14:B18")
    events = feed.board("W:B9")
    result = [e for e in events if e.kind is EventKind.RESULT]
    assert result and result[0].detail.outcome is Outcome.DARK_WINS


def test_the_last_board_of_a_game_over_left_on_the_table_is_no_mismatch():
    """A finished game's board left as the last ply made it (julie-log8's last photo) is
    the game's own board, not one that "does not match"; a new set-up still starts a game."""
    feed = started("B:W14:B18")
    feed.board("W:B9")
    assert feed.tracker.game.result() is not None
    assert not [e for e in feed.wait(10, "W:B9") if e.kind is EventKind.BOARD_MISMATCH]
    feed.wait(1, "B:W1,2,3,4,5,6,7,8:B25,26,27,28,29,30,31,32")
    assert len(feed.tracker.logged_game.games) == 2 and not feed.tracker.game.plies


@pytest.mark.parametrize("frames", [1, 2])
def test_a_move_is_committed_only_after_enough_agreeing_readings(frames):
    feed = started("B:W1:B25")
    feed.board("W:W1:B21", frames=frames)
    needed = TrackerConfig().confirm_readings
    assert len(feed.tracker.game.plies) == (1 if frames >= needed else 0)


def test_referee_accepting_an_irregular_move_makes_it_stand():
    feed = started("B:W14:B18,30")
    alert = [e for e in feed.board("W:W14:B18,26") if e.kind is EventKind.IRREGULARITY][0]
    assert alert.fen == "W:W14:B18,26"
    decision(feed, action="accept_move", alert=alert.seq)
    ply = feed.tracker.game.plies[-1]
    assert ply.is_irregular and ply.after.fen() == "W:W14:B18,26"
    assert feed.board("W:W14:B18,26") == []  # the board now matches the game: nothing new


def test_referee_correction_plays_the_right_move_in_place_of_the_alert():
    feed = started("B:W14:B18,30")
    [alert] = [e for e in feed.board("W:W14:B18,26") if e.kind is EventKind.IRREGULARITY]
    decision(feed, action="correct_move", move="18x9", alert=alert.seq)
    assert [str(p.move) for p in feed.tracker.game.plies] == ["18x9"]
    assert feed.tracker.alert is None


def test_referee_take_back_and_result_and_extra_time():
    feed = started("B:W1,5:B25,30")
    feed.board("W:W1,5:B21,30")
    decision(feed, action="take_back", plies=1)
    assert feed.tracker.game.plies == []
    decision(feed, action="grant_extra_time", side="dark", minutes=5)
    assert feed.tracker.logged_game.clock.extra_seconds == 300
    decision(feed, action="set_result", outcome="draw", reason="agreement")
    assert feed.tracker.game.result().reason == "agreement"


def test_referee_new_game_waits_for_the_set_up_with_the_new_rules():
    feed = started("B:W1,5:B25,30")
    feed.board("W:W1,5:B21,30")
    decision(feed, game=2, action="new_game", rules={"count_rule_moves": 10})
    assert feed.tracker.game is None
    events = feed.board(Position.start())
    assert kinds(events) == ["game_started"] and events[0].game == 2
    assert feed.tracker.game.rules.count_rule_moves == 10


def test_a_start_first_seen_after_the_first_move_is_still_a_game_from_the_start():
    feed = Feed(GameTracker("b1"))
    start = Position.start()
    move = start.legal_moves()[3]
    events = feed.board(start.play(move))
    assert kinds(events) == ["game_started", "move"]
    assert [p.move for p in feed.tracker.game.plies] == [move]


def test_a_start_first_seen_after_two_plies_is_still_a_game_from_the_start():
    feed = Feed(GameTracker("b1"))
    start = Position.start()
    first = start.legal_moves()[0]
    reply = start.play(first).legal_moves()[0]
    events = feed.board(start.play(first).play(reply))
    assert kinds(events) == ["game_started", "move", "move"]
    assert [p.move for p in feed.tracker.game.plies] == [first, reply]


def test_special_set_up_is_recognised_when_the_camera_is_sure_of_its_kings():
    from makhos.engine import Setup

    feed = Feed(GameTracker("b1"))
    feed.board(Position.start(Rules(setup=Setup.TWO_KINGS)))
    assert feed.tracker.game.rules.setup is Setup.TWO_KINGS


def test_standard_start_with_men_misread_as_kings_is_still_the_standard_start():
    start = Position.start()
    reading = Reading.certain(start)
    probabilities = reading.probabilities.copy()
    for square, king in ((2, 3), (3, 3), (30, 4), (31, 4)):  # men read as kings, 0.6 vs 0.4
        man = probabilities[square - 1].argmax()
        probabilities[square - 1, [man, king]] = 0.4, 0.6
    tracker = GameTracker("b1")
    for k in range(5):
        tracker.observe(k / 30, Reading(k / 30, probabilities))
    assert tracker.game is not None and tracker.game.start == start


@pytest.mark.parametrize("men", [8, 12])
def test_a_start_whose_men_look_like_kings_is_still_the_start(men):
    # Real thick men read as kings (#22): the standard start, not a set-up with kings that
    # explains only some of them (the 8-man game's one-, two- and three-king set-ups).
    start = Position.start(Rules(men_per_side=men))
    reading = Reading.certain(start)
    p = reading.probabilities.copy()
    for square in (1, 2, 3, 4):  # four light men read as kings, surely
        man = int(np.argmax(p[square - 1]))
        p[square - 1, man], p[square - 1, man + 2] = 0.0007, 0.999
    feed = Feed(GameTracker("b1"))
    for _ in range(5):
        feed.time += 1 / 30
        feed.events += feed.log(feed.tracker.observe(feed.time, Reading(feed.time, p)))
    assert kinds(feed.events) == ["game_started"]
    assert feed.tracker.game.rules.men_per_side == men
    assert feed.tracker.game.position == start



#: Issue #42 (julie-log2): a cross-fade between two photos shows, for a moment, the king's
#: capture 10x19 half drawn (the king on 19, and still on 10, the man it takes still
#: there), which reads as light's 16-19 while 10x19 was due, square 16 misread.
FADE = ("W:WK10,16:B15,30", "B:WK10,16,19:B15,30", "B:W16,K19:B30")


def test_a_board_in_transit_raises_no_alert_and_no_correction():
    feed = started(FADE[0])
    feed.board(FADE[0], 30)
    feed.board(FADE[1], 18)  # 0.6 s mid-fade, the board in sight all along
    feed.board(FADE[2], 30)
    assert [(e.kind.value, e.move) for e in feed.events] == [("move", "10x19")]


@pytest.mark.parametrize("hand", [True, False], ids=["after a hand", "in sight"])
def test_an_irregular_board_is_alerted_at_once_after_a_hand_and_once_it_stays_in_sight(hand):
    feed = started(FADE[0])
    feed.board(FADE[0], 30)
    if hand:
        feed.hand()
    soon = feed.board(FADE[1], 8)
    later = feed.wait(1.0, FADE[1])
    alerted = [e for e in soon + later if e.kind is EventKind.IRREGULARITY]
    assert len(alerted) == 1 and (alerted[0] in soon) is hand


#: Issue #42 (kingplay 70149): a lamp's spot moving over the home rows tripped the gate for
#: one frame, and the reads after it showed a man a square on: the game began with a ply
#: nobody played. A cover too short for a hand is no hand: a board changed across it stays
#: ``transit`` seconds before it is taken, a legal ply too.
SPOT = ("B:W1,5:B25,29", "W:W1,5:B21,29")


@pytest.mark.parametrize("cover", [3, 10], ids=["a flicker of the gate", "a hand"])
def test_a_ply_read_across_a_cover_too_short_for_a_hand_is_taken_only_once_it_stays(cover):
    feed = started(SPOT[0])
    feed.board(SPOT[0], 30)
    feed.hand(cover)
    soon = feed.board(SPOT[1], 8)
    later = feed.wait(1.0, SPOT[1])
    moves = [e.move for e in soon + later if e.kind is EventKind.MOVE]
    assert moves == ["25-21"]
    assert bool([e for e in soon if e.kind is EventKind.MOVE]) is (cover == 10)


def test_a_ply_a_hand_made_shown_whole_after_a_flicker_of_the_gate_is_taken_at_once():
    # Kingplay 70060: after the hand, 6-10 read half made (a board no story explains), then
    # whole after a frame the gate took for covered: the hand made it, and it is no spot's.
    feed = started(SPOT[0])
    feed.board(SPOT[0], 30)
    feed.hand()
    feed.board("W:W1,5:B29", 10)  # the man that moved not read on 21 yet
    feed.hand(3)
    soon = feed.board(SPOT[1], 8)
    assert [e.move for e in soon if e.kind is EventKind.MOVE] == ["25-21"]


def test_a_board_read_across_a_flicker_of_the_gate_that_passes_records_nothing():
    feed = started(SPOT[0])
    feed.board(SPOT[0], 30)
    feed.hand(3)
    feed.board(SPOT[1], 20)  # the spot moves on before the board stays
    feed.board(SPOT[0], 60)
    assert kinds(feed.events) == []  # no ply, none taken back, no alert


def test_a_side_that_missed_its_capture_and_made_it_late_under_one_hand_is_two_irregular_plies():
    # Issue #42 (julie-log8, ply 22): light's 5-9 out of turn is alerted; then, under one
    # hand, dark's 7-3 (29x22 was due) and dark's 29x22: two irregular plies in a row.
    feed = started("B:W5,25:B7,29,32")
    feed.hand()
    feed.board("B:W9,25:B7,29,32")
    feed.hand()
    events = feed.board("W:W9:B3,22,32", 10)  # the new king not stacked: a man
    said = [(e.kind.value, e.side and e.side.value, e.move, e.fen) for e in events]
    assert said == [
        ("move", "light", "5-9", "B:W9,25:B7,29,32"), ("alert_closed", None, None, None),
        ("irregularity", "dark", "7-3", "W:W9,25:BK3,29,32"),
        ("move", "dark", "7-3", "W:W9,25:BK3,29,32"), ("alert_closed", None, None, None),
        ("irregularity", "dark", "29x22", "W:W9:BK3,22,32")]
    assert [e.reason for e in events if e.kind is EventKind.IRREGULARITY] == [
        "dark played 7-3 while a capture was compulsory (29x22)", "dark moved twice (29x22)"]
    feed.hand()
    feed.board("B:W13:B3,22,32", 10)  # light plays on: the second stands too
    plies = feed.tracker.game.plies
    assert [(str(p.move), p.is_irregular) for p in plies] == [
        ("5-9", True), ("7-3", True), ("29x22", True), ("9-13", False)]


def test_the_square_a_move_left_still_read_as_held_is_no_second_move():
    # Issue #42 (julie-log1, ply 9): 12-16 is taken with 12 still read as holding the man
    # (it covers part of the square behind it); while that lasts, 12 is no man come from 8.
    feed = started("W:W8,12:B30")
    feed.hand()
    after = Position.from_fen("B:W8,16:B30")
    feed.seen(after, 2.0, misread={12: Piece.LIGHT_MAN})
    feed.seen(after, 1.0)
    assert [(e.kind.value, e.move) for e in feed.events] == [("move", "12-16")]


def test_a_board_no_story_explains_keeps_what_the_game_has_on_squares_the_reader_is_unsure_of():
    """Three men gone or come from nowhere, read with confidence, make a board that does not
    match; the dark king read as a light man by a hair (0.55 against 0.45) on a square
    nothing touched is no part of it (#42 item 4: a square the reader is unsure of weighs
    less than one it is sure of)."""
    feed = started("B:W1,2,3:BK20,29,30")
    changed = Position.from_fen("B:W3:BK20,26,29,30")
    events = []
    for _ in range(5 * 30):
        feed.time += 1 / 30
        reading = Reading.certain(changed, feed.time)
        reading.probabilities[20 - 1] = (0.0, 0.55, 0.45, 0.0, 0.0)  # light man, dark man
        events += feed.log(feed.tracker.observe(feed.time, reading))
    [mismatch] = [e for e in events if e.kind is EventKind.BOARD_MISMATCH]
    assert mismatch.detail.squares == (1, 2, 26)
    assert Position.from_fen(mismatch.fen).piece_at(20) is Piece.DARK_KING


def blurred_start_read(position: Position, time: float, sure_of: dict[int, Piece]) -> Reading:
    """A reading of ``position`` but for the squares of ``sure_of``, each read as the piece
    it names with 0.85 against 0.10 for what ``position`` has there: sure of it, yet within
    the tolerance a square is given before it contradicts a board (a blurred first frame)."""
    p = Reading.certain(position, time).probabilities
    for square, piece in sure_of.items():
        had = position.piece_at(square)
        p[square - 1] = 0.0125
        p[square - 1, CLASS_INDEX[piece]] = 0.85
        p[square - 1, CLASS_INDEX[had]] = 0.10
    return Reading(time, p)


def test_a_start_a_ply_in_is_not_taken_from_a_reading_sure_of_pieces_its_board_has_not():
    """Kingplay 70165: the stream's blurred first frame read as the set-up with 25-21 made
    and five more squares read otherwise, sure of each; the set-up was on the table."""
    feed = Feed(GameTracker("b1"))
    start = Position.start()
    move = next(m for m in start.legal_moves() if str(m) == "25-21")
    misread = {s: Piece.of(Colour.DARK, False) for s in (13, 14, 15)}
    events = []
    for _ in range(10):
        feed.time += 1 / 30
        events += feed.log(feed.tracker.observe(feed.time, blurred_start_read(start.play(move), feed.time, misread)))
    assert events == [] and feed.tracker.game is None
    events = feed.board(start)  # the next frames, sharp: the set-up
    assert kinds(events) == ["game_started"]
    assert feed.tracker.game is not None and feed.tracker.game.plies == []


def test_a_start_a_ply_in_read_sure_of_other_pieces_is_taken_once_it_held_transit():
    """Kingplay 70026: under a shadow, a dim board's set-up with 25-22 5-9 made read with
    five squares otherwise for 1.7 s, the only start it showed: a board that holds is the
    board, where a blurred frame passes."""
    feed = Feed(GameTracker("b1"))
    start = Position.start()
    move = next(m for m in start.legal_moves() if str(m) == "25-21")
    misread = {s: Piece.of(Colour.DARK, False) for s in (13, 14, 15)}
    events = []
    for _ in range(round(1.5 * 30)):
        feed.time += 1 / 30
        events += feed.log(feed.tracker.observe(feed.time, blurred_start_read(start.play(move), feed.time, misread)))
    assert kinds(events) == ["game_started", "move"]
    assert feed.tracker.game is not None and [p.move for p in feed.tracker.game.plies] == [move]


def test_a_start_a_ply_in_is_taken_from_a_reading_that_doubts_a_square_or_two_of_it():
    """Kingplay 70150: two plies made before the camera saw the board, read doubting three
    squares at about one half: the plies are the start's."""
    feed = Feed(GameTracker("b1"))
    start = Position.start()
    move = next(m for m in start.legal_moves() if str(m) == "25-21")
    after = start.play(move)
    events = []
    for _ in range(5):
        feed.time += 1 / 30
        p = Reading.certain(after, feed.time).probabilities
        for square in (13, 14, 15):
            p[square - 1] = 0.0
            p[square - 1, CLASS_INDEX[None]], p[square - 1, CLASS_INDEX[Piece.of(Colour.DARK, False)]] = 0.52, 0.48
        events += feed.log(feed.tracker.observe(feed.time, Reading(feed.time, p)))
    assert kinds(events) == ["game_started", "move"]
    assert [p.move for p in feed.tracker.game.plies] == [move]
