"""PDN for Thai checkers: GameType 31, full and short capture forms, irregular plies."""

import pytest

from makhos.engine import CapturedRemoval, Colour, Position, Rules, Setup
from makhos.engine.game import Game, Outcome, Result
from makhos.engine.pdn import Correction, Numbering, PdnError, read_game, read_games, write_game, write_games

SAMPLE = """[Event "PEA Open"]
[White "Anan"]
[Black "Somchai"]
[GameType "31"]
[Result "*"]

1. 25-21 8-12 2. 21-17 {a comment} 12-16 (2... 6-10 3. 17-13) 3. 26-22! *
"""


def test_reads_tags_moves_comments_and_skips_variations():
    record = read_game(SAMPLE)
    assert record.tags["White"] == "Anan"
    assert [str(p.move) for p in record.game.plies] == ["25-21", "8-12", "21-17", "12-16", "26-22"]


def test_written_game_declares_thai_game_type_and_result():
    game = Game(start=Position.from_fen("B:W14:B18"))
    game.play_text("18x9")
    text = write_game(game)
    assert '[GameType "31"]' in text
    assert '[Result "0-2"]' in text  # dark (Black in PDN) won
    assert '[FEN "B:W14:B18"]' in text
    assert text.rstrip().endswith("0-2")


def test_full_path_and_short_form_captures_both_read():
    start = "B:W15,7:B19"
    for written in ("19x10x3", "19x3"):
        record = read_game(f'[FEN "{start}"]\n1. {written} *')
        assert str(record.game.plies[0].move) == "19x10x3"


def test_short_form_is_written_on_request():
    game = Game(start=Position.from_fen("B:W15,7:B19"))
    game.play_text("19x10x3")
    assert "19x3" in write_game(game, short=True)
    assert "19x10x3" in write_game(game)


def test_irregular_ply_round_trips_with_reason_and_fen():
    game = Game()
    game.play_text("25-21")
    after = Position.from_fen("B:W1,2,3,4,5,6,7,8,14:B21,26,27,28,29,30,31,32")
    game.play_irregular(after, "light man appeared on 14")
    game.play_text("21-17")
    text = write_game(game)
    assert "{irregular: light man appeared on 14; FEN" in text
    again = read_game(text).game
    assert again.positions() == game.positions()
    assert again.plies[1].irregularity == "light man appeared on 14"


def test_rules_other_than_the_default_round_trip():
    rules = Rules(men_per_side=12, captured_removal=CapturedRemoval.IMMEDIATE, count_rule_moves=10)
    game = Game(rules)
    game.play(game.legal_moves()[0])
    again = read_game(write_game(game)).game
    assert again.rules == rules
    assert again.positions() == game.positions()


def test_declared_result_round_trips():
    game = Game()
    game.declare(Result(Outcome.LIGHT_WINS, "resignation"))
    again = read_game(write_game(game)).game
    assert again.result() == Result(Outcome.LIGHT_WINS, "resignation")


def test_several_games_in_one_file():
    games = read_games(SAMPLE + "\n" + SAMPLE)
    assert len(games) == 2
    assert read_games(write_games(games))[1].tags["Black"] == "Somchai"


@pytest.mark.parametrize(
    "text, line, column, words",
    [
        ('[GameType "31"]\n1. 25-21 9-14 *', 2, 10, "not legal"),
        ('[GameType "31"]\n1. 25-21 {never closed', 2, 10, "unexpected text"),
        ('[FEN "B:W1:B99"]\n1. 25-21 *', 2, 1, "no square 99"),
        ('[GameType "20"]\n1. 32-28 *', 2, 1, "not Thai checkers"),
        ("1. 25-21 (8-12 *", 1, 10, "never closed"),
        ("1. 25-21 -- *", 1, 10, "irregular"),
        ("1. 25-21 @ *", 1, 10, "unexpected"),
    ],
)
def test_malformed_pdn_names_line_and_column(text, line, column, words):
    with pytest.raises(PdnError) as caught:
        read_games(text)
    assert (caught.value.line, caught.value.column) == (line, column)
    assert words in str(caught.value)


def test_result_contradicting_the_game_is_an_error():
    with pytest.raises(PdnError, match="contradicts"):
        read_game('[FEN "B:W14:B18"]\n1. 18x9 2-0')


def test_short_form_keeps_the_full_path_when_two_chains_share_their_ends():
    # Found by hypothesis: 18x9x2 and 18x11x2 both shorten to 18x2.
    game = Game(start=Position.from_fen("B:W3,4,5,6,7,8,14,15:B18,23,24,25,27,28,30,31"))
    game.play_text("18x9x2")
    text = write_game(game, short=True)
    assert "18x9x2" in text and "18x2" not in text
    assert read_game(text).game.positions() == game.positions()


def test_time_spent_on_each_ply_round_trips_as_emt_comments():
    game = Game()
    for text in ("25-21", "8-11", "26-23"):
        game.play_text(text)
    after = Position.from_fen("W:W1,2,3,4,5,6,7,11,14:B21,23,27,28,29,30,31,32")
    game.play_irregular(after, "light man appeared on 14")
    text = write_game(game, move_seconds=[12.4, None, 75, 3671])
    moves = " ".join(text.split("\n\n")[1].split())  # the movetext, unwrapped
    assert moves.startswith("1. 25-21 {[%emt 0:00:12]} 8-11 2. 26-23 {[%emt 0:01:15]}")
    assert "FEN W:W1,2,3,4,5,6,7,11,14:B21,23,27,28,29,30,31,32} {[%emt 1:01:11]} *" in moves
    record = read_game(text)
    assert record.move_seconds == [12.0, None, 75.0, 3671.0]
    assert record.game.positions() == game.positions()
    assert read_game(write_game(game)).move_seconds == []  # no times: none invented
    assert read_game(SAMPLE.replace("{a comment}", "{[%emt 0:00:09.5]}")).move_seconds == \
        [None, None, 9.5, None, None]


def light_first_game() -> Game:
    """Light moves first; then a dark man is knocked off and play goes on from there."""
    game = Game(Rules(first_mover=Colour.LIGHT))
    for text in ("6-10", "26-22", "10-14"):
        game.play_text(text)  # the engine's frame: light starts on 1-8 and moves toward 32
    game.play_irregular(Position.from_fen("B:W1,2,3,4,5,7,8,14:B22,25,27,28,29,30,32"),
                        "dark man removed from 31")
    return game


def test_a_game_light_starts_is_written_with_light_on_25_to_32_and_reads_back():
    game = light_first_game()
    text = write_game(game)
    assert '[Numbering "first mover"]' in text
    moves = " ".join(text.split("\n\n", 1)[1].split())
    # RULES.md: square 29 is the first mover's left corner, whatever the colour of its men;
    # the comment names the square in that numbering too (the engine's 31 is the record's 2).
    assert moves == ("1. 27-23 7-11 2. 23-19 -- {irregular: dark man removed from 2; "
                     "FEN B:W32,31,30,29,28,26,25,19:B11,8,6,5,4,3,1} *")
    back = read_game(text).game
    assert back.positions() == game.positions()
    assert back.plies[-1].irregularity == "dark man removed from 31"  # read back in the engine's


def test_an_attempt_taken_back_is_written_before_the_move_that_followed_and_reads_back():
    # Issue #33: light moved a man backwards (10-6, the engine's squares), put it back and
    # played 10-14; written in the record's numbering, light moving first.
    game = Game(Rules(first_mover=Colour.LIGHT))
    for text in ("6-10", "26-22", "10-14"):
        game.play_text(text)
    tried = Correction("10-6", "light man moved backwards (10-6)")
    text = write_game(game, corrections={2: [tried]})
    moves = " ".join(text.split("\n\n", 1)[1].split())
    assert moves == "1. 27-23 7-11 2. {corrected: 23-27 taken back; light man moved backwards (23-27)} 23-19 *"
    assert read_game(text).corrections == {2: [tried]}
    text = write_game(game, corrections={2: [tried]}, numbering=Numbering.COLOUR)
    assert " ".join(text.split()).endswith(
        "2. {corrected: 10-6 taken back; light man moved backwards (10-6)} 10-14 *")
    assert read_game(text).corrections == {2: [tried]}
    assert read_game(write_game(game)).corrections == {}


def test_every_start_but_the_standard_one_carries_its_position_for_any_reader():
    for rules in (Rules(men_per_side=12), Rules(setup=Setup.ONE_KING)):
        game = Game(rules)
        text = write_game(game)
        assert '[SetUp "1"]' in text and f'[FEN "{game.start.fen()}"]' in text
        assert read_game(text).game.start == game.start
    assert "SetUp" not in write_game(Game()) and "FEN" not in write_game(Game())
    # Light moving first: the standard men, but the other side to move (found by the round
    # trip of lab/pdn_check.py: a reader without the Rules tag gave dark the first move).
    game = Game(Rules(first_mover=Colour.LIGHT))
    for numbering, fen in ((Numbering.COLOUR, "W:W1,2,3,4,5,6,7,8:B25,26,27,28,29,30,31,32"),
                           (Numbering.FIRST_MOVER, "W:W32,31,30,29,28,27,26,25:B8,7,6,5,4,3,2,1")):
        text = write_game(game, numbering=numbering)
        assert '[SetUp "1"]' in text and f'[FEN "{fen}"]' in text
        assert read_game(text).game.start == game.start


def test_the_colour_bound_numbering_is_a_setting_and_reads_back_too():
    game = light_first_game()
    text = write_game(game, numbering=Numbering.COLOUR)
    assert '[Numbering "colour"]' in text and "1. 6-10 26-22 2. 10-14 --" in text
    assert read_game(text).game.positions() == game.positions()


def test_a_game_dark_starts_is_written_the_same_in_both_numberings():
    game = Game()
    game.play_text("26-22")
    assert write_game(game) == write_game(game, numbering=Numbering.COLOUR)
    assert "Numbering" not in write_game(game)
