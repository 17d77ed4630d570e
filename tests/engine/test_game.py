"""Game record, results and draws (RULES.md: "End of a game")."""

import pytest

from makhos.engine import Colour, Position, Rules
from makhos.engine.game import Game, IllegalMove, Outcome, Result


def test_side_to_move_alternates_from_the_first_mover():
    game = Game()
    assert game.position.turn is Colour.DARK
    game.play_text("25-21")
    assert game.position.turn is Colour.LIGHT


def test_light_first_mover_setting_changes_who_starts():
    game = Game(Rules(first_mover=Colour.LIGHT))
    assert game.position.turn is Colour.LIGHT
    assert all(m.start <= 8 for m in game.legal_moves())


def test_illegal_move_is_refused_and_nothing_is_recorded():
    game = Game()
    with pytest.raises(IllegalMove):
        game.play_text("25-18")
    assert game.plies == []


def test_thai_short_form_is_accepted_when_unambiguous():
    game = Game(start=Position.from_fen("B:W15,7:B19"))
    game.play_text("19x3")
    assert str(game.plies[0].move) == "19x10x3"


def test_loss_when_no_pieces_left():
    game = Game(start=Position.from_fen("B:W14:B18"))
    game.play_text("18x9")
    assert game.result() == Result(Outcome.DARK_WINS, "no pieces left")


def test_loss_when_no_legal_move():
    # The light man on 28 can only step to 32, which is taken, and cannot jump off the board.
    game = Game(start=Position.from_fen("W:W28:B32,24"))
    assert game.result() == Result(Outcome.DARK_WINS, "no legal move")


def test_draw_by_repetition_on_the_third_occurrence():
    game = Game(start=Position.from_fen("B:WK1:BK32"))
    for _ in range(2):
        for text in ("32-27", "1-6", "27-32", "6-1"):
            assert game.result() is None
            game.play_text(text)
    assert game.repetitions() == 3
    assert game.result() == Result(Outcome.DRAW, "repetition")


def test_repetition_threshold_is_a_setting():
    game = Game(Rules(repetition_threshold=2), start=Position.from_fen("B:WK1:BK32"))
    for text in ("32-27", "1-6", "27-32", "6-1"):
        game.play_text(text)
    assert game.result() == Result(Outcome.DRAW, "repetition")


def _shuffle_kings(game: Game, moves: int) -> None:
    """Kings going round without repeating a position too soon."""
    cycle = ["32-27", "1-6", "27-23", "6-10", "23-27", "10-6", "27-32", "6-1"]
    for i in range(moves):
        game.play_text(cycle[i % len(cycle)])


def test_count_rule_draw_after_the_claimants_moves():
    rules = Rules(count_rule_moves=2, repetition_threshold=10)
    game = Game(rules, start=Position.from_fen("B:WK1:BK32"))
    game.claim_count(Colour.DARK)
    _shuffle_kings(game, 3)
    assert game.count_remaining() == 0
    assert game.result() == Result(Outcome.DRAW, "count rule")


def test_count_rule_ends_with_a_man_move():
    rules = Rules(count_rule_moves=2, repetition_threshold=10)
    game = Game(rules, start=Position.from_fen("B:WK1,5:BK32"))
    game.claim_count(Colour.DARK)
    game.play_text("32-27")
    game.play_text("5-9")  # a man move: something changed, the count stops
    assert game.count_remaining() is None


def test_online_count_runs_without_a_claim():
    rules = Rules(count_rule_moves=50, count_on_claim=False, repetition_threshold=100)
    game = Game(rules, start=Position.from_fen("B:WK1:BK32"))
    _shuffle_kings(game, 10)
    assert game.count_remaining() == 45


def test_irregular_ply_stands_and_play_continues_from_the_board():
    game = Game()
    game.play_text("25-21")
    board = Position.from_fen("B:W1,2,3,4,5,6,7,12:B21,26,27,28,29,30,31,32")
    ply = game.play_irregular(board, "man moved more than one square (8-12)")
    assert ply.is_irregular and game.position.turn is Colour.DARK
    assert game.position.piece_at(12) is not None


def test_take_back_restores_the_position():
    game = Game()
    game.play_text("25-21")
    game.take_back()
    assert game.position == Position.start()
    with pytest.raises(ValueError):
        game.take_back()


def test_forced_opening_names_the_move_due():
    game = Game(Rules(forced_opening=("25-21", "8-12")))
    assert game.forced_move().squares == (25, 21)
    game.play_text("25-21")
    assert game.forced_move().squares == (8, 12)
    game.play_text("8-12")
    assert game.forced_move() is None
