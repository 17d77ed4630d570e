"""The gap search: legal lines from the last recorded position to a board seen later."""

import random

import pytest

from makhos.engine import Position
from makhos.engine.game import Game
from makhos.engine.gaps import Sight, gap_lines
from makhos.engine.position import Piece, place


def played(position: Position, texts: str) -> Position:
    for text in texts.split():
        (move,) = [m for m in position.legal_moves() if str(m) == text]
        position = position.play(move)
    return position


def lines(start: Position, seen: Position, most: int = 6) -> list[str]:
    return [" ".join(map(str, line)) for line in gap_lines(start, Sight.exact(seen.board), None, most)]


def test_five_plies_with_a_crowning_capture_and_a_flying_king_are_found_alone():
    start = Position.from_fen("B:W7,20,28:B10,22,32")
    line = "10x3 20-24 3-7 24-27 32x23"
    assert lines(start, played(start, line)) == [line]


def test_six_plies_with_three_captures_and_two_crownings_are_found_alone():
    start = Position.from_fen("B:W5,6,9,11,14,15:B18,21,23,26,27,30")
    line = "30-25 15x22x31 21-17 31x24 17x10x1 11-15"
    assert lines(start, played(start, line)) == [line]


def test_the_same_man_by_two_roads_gives_two_lines():
    start = Position.start()
    seen = played(start, "25-21 5-9 21-17")
    assert lines(start, seen) == ["25-21 5-9 21-17", "25-22 5-9 22-17"]


def test_a_board_no_legal_line_reaches_has_none():
    start = Position.start()
    moved_back = Position.from_pieces({**start.pieces(), 20: Piece.DARK_MAN}, start.turn)
    assert lines(start, moved_back) == []
    assert lines(start, played(start, "25-21 5-9 21-17 9-13"), most=3) == []  # longer than allowed


def test_a_square_in_doubt_lets_a_king_read_as_a_man():
    start = Position.from_fen("B:W7,20,28:B10,22,32")
    seen = played(start, "10x3 20-24")
    exact = Sight.exact(seen.board)
    as_man = Sight.exact(place(seen.board, 3, Piece.DARK_MAN))
    doubt = Sight(exact.empty, exact.dark_man | as_man.dark_man, exact.dark_king, exact.light_man,
                  exact.light_king)
    assert [" ".join(map(str, l)) for l in gap_lines(start, doubt, None, 6)] == ["10x3 20-24"]
    assert [" ".join(map(str, l)) for l in gap_lines(start, as_man, None, 6)] == []


@pytest.mark.parametrize("seed", range(40))
def test_random_gaps_are_found_among_the_shortest_lines(seed):
    """Whatever the game, the line really played is found unless a shorter one explains the
    board, and every line found is legal and ends on the board seen."""
    rng = random.Random(seed)
    game = Game()
    while len(game.plies) < rng.randint(0, 50) and game.result() is None:
        game.play(rng.choice(game.legal_moves()))
    truth, position = [], game.position
    for _ in range(1 + seed % 6):
        moves = position.legal_moves()
        if not moves:
            break
        truth.append(rng.choice(moves))
        position = position.play(truth[-1])
    found = gap_lines(game.position, Sight.exact(position.board), None, 6)
    assert found and len(found[0]) <= len(truth)
    if len(found[0]) == len(truth):
        assert tuple(truth) in found
    for line in found:
        end = game.position
        for move in line:
            assert move in end.legal_moves()
            end = end.play(move)
        assert end.board == position.board
