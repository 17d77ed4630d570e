"""A board with more pieces of a side than the game holds, or fewer, stands only when play
truly went on from it (kingplay 70012: a shadow over the board made the reads show 9, then 13
light pieces; each such board stood as an "irregular position change" on the next flicker of
the same misreads, and 5 invented plies followed; kingplay 70125: two dark men washed out of
the reads in dim light, the board stood once a misread board was taken for the reply, and
3 invented plies followed).

The rule for a board the players do play on from (test_irregularities.py, "impossible
position ... played on") holds: a hand over the board after its alert, then the board after
the reply read as it is on every square.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from makhos.engine import Piece, Position
from makhos.events import EventKind

from makhos.vision.reading import CLASS_INDEX, Reading

from feed import kinds, started

#: (the game's board, the board no ply explains, the reply played on from it: 22-18)
ADDED = ("B:W1:B22,30", "B:W1,14:B22,30", "W:W1,14:B18,30")  # light has 2 pieces, not 1
REMOVED = ("B:W1,5:B22,30", "B:W1:B22,30", "W:W1:B18,30")  # light has 1 piece, not 2
COUNTED_OTHERWISE = pytest.mark.parametrize("case", [ADDED, REMOVED], ids=["added", "removed"])


def raised(case):
    start, shown, _ = case
    feed = started(start)
    feed.hand()
    assert kinds(feed.board(shown, 100)) == ["board_mismatch"]
    return feed


@COUNTED_OTHERWISE
def test_a_board_read_on_without_a_hand_does_not_stand(case):
    feed = raised(case)
    assert feed.board(case[2], 120) == []
    assert feed.tracker.game.plies == []


def doubtful(feed, fen: str, square: int, frames: int) -> list:
    """``frames`` readings of ``fen`` but for ``square``, read as a light man a little more
    than as what it is: the reads under a shadow, none sure, each square within a misread's
    tolerance."""
    position, new = Position.from_fen(fen), []
    for _ in range(frames):
        feed.time += 1 / 30
        p = Reading.certain(position, feed.time).probabilities
        p[square - 1] = 0.0
        p[square - 1, CLASS_INDEX[position.piece_at(square)]] = 0.4
        p[square - 1, CLASS_INDEX[Piece.LIGHT_MAN]] = 0.6
        new += feed.log(feed.tracker.observe(feed.time, Reading(feed.time, p)))
    return new


@COUNTED_OTHERWISE
def test_a_board_read_on_with_a_square_in_doubt_does_not_stand_until_read_as_it_is(case):
    replied = case[2]
    feed = raised(case)
    feed.hand()
    assert doubtful(feed, replied, 6, 60) == []
    assert kinds(feed.board(replied, 8)) == ["move", "board_matched", "move"]
    assert [str(p.move) for p in feed.tracker.game.plies] == ["None", "22-18"]
    assert feed.tracker.game.position == Position.from_fen(replied)


#: Light's men on 1-4 read on 9-12 and dark's on 29-32 on 21-24, as a shadow may have the
#: reader see them: 16 squares otherwise, which no ply explains.
START8 = "B:W1,2,3,4:B29,30,31,32"
SHIFTED = "B:W9,10,11,12:B21,22,23,24"


def read_in(feed, fen: str, frames: int, relit: bool) -> list:
    position, new = Position.from_fen(fen), []
    for _ in range(frames):
        feed.time += 1 / 30
        reading = replace(Reading.certain(position, feed.time), relit=relit)
        new += feed.log(feed.tracker.observe(feed.time, reading))
    feed.events += new
    return new


def test_many_squares_read_otherwise_in_new_light_are_no_board():
    feed = started(START8)
    feed.hand()
    assert read_in(feed, SHIFTED, 300, relit=True) == []
    assert feed.tracker.alert is None and feed.tracker.game.plies == []


def test_the_boards_of_the_plies_since_are_offered_only_for_a_board_the_light_made():
    """The reader weighs the boards the plies since lead to against a frame in new light
    (``BoardReader.relight``) only where the tracker took the read for the light's doing; a
    gap's line explains its read (kingplay 70024: five plies under an arm), and a reader
    taught a board of one or two plies would read that line away."""
    feed = started(START8)
    feed.hand()
    read_in(feed, START8, 5, relit=True)
    assert feed.tracker.boards_since() == []  # read as the game's board: nothing to weigh
    read_in(feed, SHIFTED, 5, relit=True)
    boards = feed.tracker.boards_since()
    assert "llll" + "." * 24 + "dddd" in boards  # the board on the table, unchanged
    assert "llll" + "." * 20 + "d...." + "ddd" in boards  # 29-25
    assert len(boards) == len(set(boards)) and all(len(board) == 32 for board in boards)
    read_in(feed, SHIFTED, 5, relit=False)
    assert feed.tracker.boards_since() == []


def test_the_same_board_in_the_same_light_is_a_board_that_does_not_match():
    feed = started(START8)
    feed.hand()
    assert kinds(read_in(feed, SHIFTED, 300, relit=False)) == ["board_mismatch"]


def test_a_ply_made_as_the_light_changes_is_recorded():
    feed = started(START8)
    feed.hand()
    assert kinds(read_in(feed, "W:W1,2,3,4:B25,30,31,32", 30, relit=True)) == ["move"]



@pytest.mark.parametrize("relit", [False, True])
def test_the_plies_of_a_gap_are_asked_about_also_when_the_light_changed_under_it(relit):
    """An arm rested on the board while the hall's light changed (kingplay 70024): the
    plies made under it move more squares than a new light may misread, but they are legal
    plies, a gap's lines, not a board no ply explains; in new light as in the old, the
    referee is asked which line it was."""
    feed = started(START8)
    feed.board(START8)
    feed.time += 15.0  # the board unseen
    line = ["29-25", "4-8", "30-26"]  # or 30-26 4-8 29-25: the same board, 6 squares
    position = Position.from_fen(START8)
    for text in line:
        (move,) = [m for m in position.legal_moves() if str(m) == text]
        position = position.play(move)
    (notice,) = read_in(feed, position.fen(), 30, relit=relit)
    assert notice.kind is EventKind.IRREGULARITY
    assert "29-25 4-8 30-26" in notice.reason and "2 lines explain the board" in notice.reason


def read_with_doubts(feed, fen: str, sure: int, doubted: range, frames: int, relit: bool) -> list:
    """``frames`` readings of ``fen`` with a light man read surely on ``sure`` and a little
    more likely than nothing on each of ``doubted``: a board washed by a shadow, where one
    square is read wrong for sure and many others lean wrong, each within a misread's doubt."""
    position, new = Position.from_fen(fen), []
    for _ in range(frames):
        feed.time += 1 / 30
        p = Reading.certain(position, feed.time).probabilities
        p[sure - 1] = 0.01
        p[sure - 1, CLASS_INDEX[Piece.LIGHT_MAN]] = 0.96
        for square in doubted:
            p[square - 1] = 0.0
            p[square - 1, CLASS_INDEX[None]] = 0.45
            p[square - 1, CLASS_INDEX[Piece.LIGHT_MAN]] = 0.55
        new += feed.log(feed.tracker.observe(feed.time, Reading(feed.time, p, relit=relit)))
    feed.events += new
    return new


@pytest.mark.parametrize("relit", [False, True])
def test_a_board_read_otherwise_on_many_squares_in_new_light_raises_no_mismatch(relit):
    """Kingplay 70188: a shadow fell, and the reads put another side than the game on many
    squares, most of them unsure; the one square read wrong for sure was taken, after the
    misread's patience, for a board no ply explains, and its alert stopped the reader from
    being relit: nothing more was recorded. Read so in new light, the board is the light's
    doing, as a board that differs on many squares for sure is; in the light the reader
    knows, it is a board that does not match."""
    feed = started(START8)
    feed.hand()
    said = kinds(read_with_doubts(feed, START8, 7, range(13, 19), 200, relit))
    assert said == ([] if relit else ["board_mismatch"])
    assert feed.tracker.game.plies == []
