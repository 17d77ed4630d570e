"""PDN the project writes, read back by its own reader and by a reader that shares nothing
with it (lab/pdn_check.py: PDN's published grammar and the board's geometry, no rules).
The bench (``python -m bench.pdn``) runs the same check on 1,000 games."""

from __future__ import annotations

import random

from makhos.engine import Colour, Position, Rules
from makhos.engine.game import Game
from makhos.engine.pdn import Numbering, read_game, renumbering, write_game
from makhos.events.game import described

from lab.pdn_check import GrammarReader, RandomGame, disagreements, random_game, read_fen, written_board


def test_a_hundred_random_games_read_back_the_same_by_both_readers():
    rng = random.Random(2026)
    games = [random_game(rng) for _ in range(100)]
    plies = [p for g in games for p in g.game.plies]
    assert sum(p.is_irregular for p in plies) >= 50 and len(plies) >= 1_000
    assert sum(g.game.start != Position.start(Rules()) for g in games) >= 40  # set-ups, FENs
    assert sum(g.game.rules.first_mover is Colour.LIGHT for g in games) >= 5
    assert sum(len(c) for g in games for c in g.corrections.values()) >= 50  # attempts taken back
    assert disagreements(games) == []


def test_the_check_sees_a_record_that_does_not_say_what_was_played():
    game = Game()
    for text in ("26-23", "5-9", "25-22", "7-10", "31-26", "8-12", "29-25", "10-15", "23-19", "15x24x31"):
        game.play_text(text)
    made = RandomGame(game, {"Event": "PEA Open"}, Numbering.COLOUR, seconds=[])
    assert disagreements([made]) == []
    boards = [written_board(p, renumbering(game.rules, Numbering.COLOUR)) for p in game.positions()]
    assert GrammarReader(made.pdn()).games[0].boards == boards
    tampered = GrammarReader(made.pdn().replace("2. 25-22", "2. 25-21")).games[0].boards
    assert tampered[:3] == boards[:3] and tampered[3] != boards[3]


def test_the_grammar_reader_reads_what_pdn_allows():
    text = ('[Event "a \\"b\\""]\n[FEN "W:W1-3,K9:BK30,31."]\n\n'
            "; a line comment\n1. 9-14 $3 (1. 9-13 30-25) 30-26?! {a comment} 2. 14-18 *\n")
    [game] = GrammarReader(text).games
    assert game.tags["Event"] == 'a "b"' and game.result == "*"
    assert game.moves == ["9-14", "30-26", "14-18"]
    assert game.boards[-1] == ("B", {1: "w", 2: "w", 3: "w", 18: "W", 26: "B", 31: "b"})
    assert read_fen("W:W1-3,K9:BK30,31.") == ("W", {1: "w", 2: "w", 3: "w", 9: "W", 30: "B", 31: "b"})


def test_an_irregular_ply_that_crowned_reads_back_as_a_crowning():
    """The reader took the legal move of the same squares, whose crowning the board may deny."""
    before = Position.from_fen("W:W27,K16:B13,K26")  # 16x30 is due; light plays 27-32 and crowns
    game = Game(Rules(), before)
    [plain] = [m for m in before.plain_moves() if str(m) == "27-32"]
    game.play_irregular(before.play(plain), "light played 27-32 while a capture was compulsory (16x30)", plain)
    [ply] = read_game(write_game(game)).game.plies
    assert ply.move == plain and ply.move.crowns


def test_a_capture_out_of_turn_reads_back_as_the_capture():
    """A side that moved twice may capture (julie-log2: dark's king 2x9x18 right after
    dark's 18-15): the pieces it took are the other side's, not the side to move's."""
    before = Position.from_fen("W:W6,14,16:BK2,15")
    after = Position.from_fen("W:W16:BK18,15")
    game = Game(Rules(), before)
    game.play_irregular(after, "dark moved twice (2x9x18)", described("2x9x18", before, after))
    text = write_game(game)
    assert "2x9x18" in text
    [ply] = read_game(text).game.plies
    assert str(ply.move) == "2x9x18" and ply.move.captured == (6, 14)
