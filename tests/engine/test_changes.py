"""The referee explains a change on the board the way an arbiter would."""

from makhos.engine import CapturedRemoval, Position, Rules
from makhos.engine.changes import Fault, Verdict, explain


def fen(text: str) -> Position:
    return Position.from_fen(text)


def test_every_legal_move_of_the_start_is_explained_as_itself():
    start = Position.start()
    for move in start.legal_moves():
        verdict = explain(start, start.play(move))
        assert verdict.verdict is Verdict.MOVE
        assert verdict.move == move


def test_no_change_is_unchanged():
    assert explain(Position.start(), Position.start()).verdict is Verdict.UNCHANGED


def test_man_moved_backwards_is_illegal_with_the_reason():
    before = fen("B:W1:B18")
    verdict = explain(before, fen("W:W1:B22"))
    assert verdict.verdict is Verdict.ILLEGAL
    assert verdict.reason == "dark man moved backwards (18-22)"
    assert verdict.fault is Fault.BACKWARDS


def test_piece_appeared_names_the_square():
    start = fen("B:W1,5:B18")
    verdict = explain(fen("B:W1:B18"), fen("B:W1,14:B18"), earlier=[start])
    assert verdict.verdict is Verdict.ILLEGAL and verdict.fault is Fault.PIECE_ADDED
    assert verdict.reason == "light man appeared on 14"


def test_more_pieces_than_the_set_up_is_an_impossible_position():
    verdict = explain(fen("B:W1:B18"), fen("B:W1,14:B18"))
    assert verdict.fault is Fault.IMPOSSIBLE
    assert verdict.reason == "light has 2 pieces, more than the 1 it started with"


def test_piece_removed_names_the_square():
    verdict = explain(fen("B:W1,5:B18"), fen("B:W1:B18"))
    assert verdict.reason == "light man removed from 5"


def test_man_moving_two_squares_is_named():
    verdict = explain(fen("B:W1:B26"), fen("W:W1:B17"))
    assert verdict.reason == "dark man moved more than one square (26-17)"
    assert verdict.fault is Fault.TOO_FAR


def test_plain_move_while_capture_compulsory_names_the_missed_capture():
    before = fen("B:W14:B18,30")
    verdict = explain(before, fen("W:W14:B18,26"))
    assert verdict.verdict is Verdict.MISSED_CAPTURE
    assert [str(m) for m in verdict.missed] == ["18x9"]
    assert "18x9" in verdict.reason


def test_capture_chain_shown_one_jump_at_a_time_is_a_partial_chain():
    before = fen("B:W15,7:B19")
    # First jump made, the captured man on 15 still standing (lifted late).
    verdict = explain(before, fen("W:W15,7:B10"))
    assert verdict.verdict is Verdict.PARTIAL_CHAIN
    assert verdict.landed_on == 10
    assert [str(m[0]) for m in verdict.candidates] == ["19x10x3"]
    assert verdict.pending.removals == {15}
    # ... and lifted.
    assert explain(before, fen("W:W7:B10")).pending.removals == frozenset()


def test_finished_chain_with_captured_men_still_on_board_is_the_move_with_pending_removals():
    verdict = explain(fen("B:W15,7:B19"), fen("W:W15,7:BK3"))
    assert verdict.verdict is Verdict.MOVE
    assert verdict.pending.removals == {7, 15}


def test_crowning_not_yet_done_is_the_move_with_a_pending_crowning():
    verdict = explain(fen("B:W20:B5"), fen("W:W20:B1"))
    assert verdict.verdict is Verdict.MOVE
    assert str(verdict.move) == "5-1"
    assert verdict.pending.crownings == {1}


def test_two_plies_at_once_are_recognised():
    start = Position.start()
    first = start.legal_moves()[0]
    middle = start.play(first)
    reply = middle.legal_moves()[0]
    verdict = explain(start, middle.play(reply))
    assert verdict.verdict is Verdict.TWO_PLIES
    assert (first, reply) in verdict.candidates


def test_a_chain_stopped_early_then_the_reply_seen_at_once_is_both_plies():
    # Issue #33: 19x10 with 19x10x1 due, answered at once by 6x15; not a position change.
    verdict = explain(fen("B:W3,6,15:B19,32"), fen("B:W3,15:B32"))
    assert verdict.verdict is Verdict.STOPPED_AND_REPLIED
    assert [tuple(map(str, c)) for c in verdict.candidates] == [("19x10x1", "6x15")]
    assert verdict.landed_on == 10
    assert verdict.reason == "dark capture chain stopped at 19x10 (19x10x1 was due), then light played 6x15"


def test_a_move_then_a_reply_that_missed_the_capture_it_offered_seen_at_once_is_both_plies():
    # Kingplay 70147: a king's move offered a capture, the reply ignored it, one sleeve over both.
    verdict = explain(fen("B:W1,9:B17,18"), fen("B:W5,9:B14,17"))
    assert verdict.verdict is Verdict.MOVED_AND_MISSED
    assert [tuple(map(str, c)) for c in verdict.candidates] == [("18-14", "1-5")]
    assert verdict.missed and [str(m) for m in verdict.missed] == ["9x18"]
    assert verdict.reason == "dark played 18-14, then light played 1-5 while a capture was compulsory (9x18)"


def test_return_to_an_earlier_position_is_a_takeback():
    start = Position.start()
    after = start.play(start.legal_moves()[0])
    verdict = explain(after, start, earlier=[start])
    assert verdict.verdict is Verdict.TAKEBACK
    assert verdict.plies_back == 1


def test_the_side_that_just_moved_moving_again_is_wrong_side():
    start = Position.start()
    after = start.play(start.legal_moves()[0])  # light to move
    again = after.with_turn(start.turn).legal_moves()[0]
    verdict = explain(after, after.with_turn(start.turn).play(again), earlier=[start])
    assert verdict.verdict is Verdict.WRONG_SIDE
    assert verdict.reason.startswith("dark moved twice")


def test_a_plain_move_out_of_turn_past_a_capture_is_a_move_out_of_turn():
    """A capture is compulsory only in turn: light's 12-16, played while dark was to move
    and light's 14x23 was on, is one fault (out of turn), as a referee names it."""
    verdict = explain(fen("B:W12,14,9:B18,30"), fen("B:W16,14,9:B18,30"))
    assert verdict.verdict is Verdict.WRONG_SIDE
    assert verdict.reason == "light moved out of turn (12-16)"


def test_king_landing_beyond_the_square_behind_is_illegal_with_the_reason():
    verdict = explain(fen("B:W15:BK29"), fen("W:BK8"))
    assert verdict.verdict is Verdict.ILLEGAL
    assert verdict.reason == "dark king landed beyond the square right behind 15 (29x8)"
    assert verdict.fault is Fault.KING_BEYOND


def test_identical_chains_are_reported_as_ambiguous_when_only_the_path_differs():
    # With immediate removal a king can take the same two men in either order and end
    # on the same square; the board alone cannot tell which path was played.
    rules = Rules(captured_removal=CapturedRemoval.IMMEDIATE)
    before = fen("B:BK18:W15,22")
    outcomes = {}
    for move in before.legal_moves(rules):
        outcomes.setdefault(before.play(move), []).append(move)
    for after, moves in outcomes.items():
        verdict = explain(before, after, rules)
        expected = Verdict.AMBIGUOUS if len(moves) > 1 else Verdict.MOVE
        assert verdict.verdict is expected


def test_a_step_with_pieces_gone_across_the_board_is_no_step():
    """One piece moved against the rules takes the men about its way, and at most one
    elsewhere (the wrong man lifted). A step beside which pieces vanished across the board
    is the board changed, not one hand's step (kingplay 70098: the dark camp read as empty,
    five dark pieces "taken" by a light king's 3x10 over its own man)."""
    before = fen("W:W1,2,K3,K4,5,6,7,8:B21,26,27,28,K29,K30,31,32")
    verdict = explain(before, fen("B:W1,2,K4,5,6,7,8,K10:B26,27,31"))
    assert verdict.verdict is Verdict.ILLEGAL and verdict.fault is Fault.POSITION_CHANGED
    assert "light king removed from 3" in verdict.reason and "dark man removed from 21" in verdict.reason
    one_stray = explain(before, fen("B:W1,2,K4,5,6,7,8,K10:B21,26,27,28,K29,K30,31"))
    assert one_stray.fault is Fault.OWN_PIECE_JUMPED
    assert one_stray.reason == "light king jumped over its own piece on 7 (3x10)"


def test_a_step_whose_men_taken_lie_about_its_way_is_still_one_step():
    """A capture chain seen only at its ends turns at its landings: the men it took lie
    off the line from its start to its end, but about its way (kingplay 70033's light king's
    20x27x18x29 read from a board it was not legal on)."""
    before = fen("W:WK3,K4,5,6,8,9,15,K20:B17,19,K23,24,K25,26,K30,32")
    verdict = explain(before, fen("B:WK3,K4,5,6,8,9,15,K29:B19,K23,26,K30"))
    assert verdict.reason == "light king left its diagonal (20x29)"
