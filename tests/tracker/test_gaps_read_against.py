"""A gap's line is the board seen after the gap, not a blend of misreads (#42, kingplay 70152):
a line the reading argues against on more squares than a misread's (those it changes, or
those it leaves as they were: kingplay 70178), or one to a board that came in sight read with
a doubt on a square it changes, is not believed at once; nor is a line with an irregular ply
(kingplay 70158) read against so."""

from makhos.engine import Piece, Position

from feed import after
from test_gaps import moves_of, started
from test_unsupported_plies import readings

#: Dark's 10x3 crowns and its king comes back to 7 after light's 20-24: three plies, the only
#: line to its board (tests/tracker/test_gaps.py).
FEN, LINE = "B:W7,20,28:B10,22,32", "10x3 20-24 3-7"
#: The board after the line read badly: three of the four squares the line changes read
#: likeliest as they stood before it, each within the tolerance of what the line puts there.
MISREAD = {7: {Piece.LIGHT_MAN: 0.6, Piece.DARK_KING: 0.4}, 20: {Piece.LIGHT_MAN: 0.6, None: 0.4},
           24: {None: 0.6, Piece.LIGHT_MAN: 0.4}}
#: The same board with a square a piece left read as still holding it: a misread's square.
LEFT_BEHIND = {20: MISREAD[20]}


def test_a_line_read_against_on_more_squares_than_a_misread_waits_as_a_misread():
    feed = started(FEN)
    feed.time += 15.0  # the board unseen
    board = after(FEN, LINE)
    assert moves_of(readings(feed, board, 2.0, MISREAD)) == []  # a board read so for a moment
    assert moves_of(readings(feed, board, 1.5, MISREAD)) == LINE.split()  # one that lasts


#: The board after the line read well on every square the line changes, but with men on three
#: empty squares it leaves alone (kingplay 70178: a bump of the camera under a glare), each
#: within the tolerance of none.
BAD_ELSEWHERE = {s: {Piece.LIGHT_MAN: 0.6, None: 0.4} for s in (1, 2, 5)}


def test_a_line_read_against_on_more_squares_it_leaves_alone_than_a_misread_waits_as_a_misread():
    feed = started(FEN)
    feed.time += 15.0
    board = after(FEN, LINE)
    assert moves_of(readings(feed, board, 2.0, BAD_ELSEWHERE)) == []  # a bad reading, for a moment
    assert moves_of(readings(feed, board, 1.5, BAD_ELSEWHERE)) == LINE.split()  # one that lasts


def test_a_line_read_against_on_a_square_it_left_is_believed_at_once():
    feed = started(FEN)
    feed.time += 15.0
    assert moves_of(readings(feed, after(FEN, LINE), 0.5, LEFT_BEHIND)) == LINE.split()


#: The board after the line with a doubt on a square the line empties.
DOUBTED = {20: {None: 0.7, Piece.LIGHT_MAN: 0.3}}
#: A board no story explains, read for a moment after the hands left (a misread, a shadow).
NO_STORY = {s: {Piece.DARK_MAN: 1.0} for s in (1, 2, 3, 4, 5)}


def test_a_line_to_a_board_come_in_sight_read_with_a_doubt_waits_as_a_board_in_transit():
    feed = started(FEN)
    feed.hand(150)  # five seconds under hands: the plies of a gap are made
    board = after(FEN, LINE)
    assert moves_of(readings(feed, board, 0.2, NO_STORY)) == []
    # Then, with no hand between, the board three plies on, a square it empties in doubt:
    # the reader's in transit, until it stays.
    assert moves_of(readings(feed, board, 0.5, DOUBTED)) == []
    assert moves_of(readings(feed, board, 1.0, DOUBTED)) == LINE.split()


def test_a_line_to_a_board_come_in_sight_read_well_is_believed_at_once():
    feed = started(FEN)
    feed.hand(150)
    board = after(FEN, LINE)
    readings(feed, board, 0.2, NO_STORY)
    assert moves_of(readings(feed, board, 0.5, {})) == LINE.split()


def test_a_line_after_a_hand_read_with_a_doubt_is_believed_at_once():
    feed = started(FEN)
    feed.hand(150)
    assert moves_of(readings(feed, after(FEN, LINE), 0.5, DOUBTED)) == LINE.split()


#: Kingplay 70158 as recorded before its gap (25-21 8-11): dark's king on 29 must take 29x8.
BEFORE_70158 = "B:W1,2,K3,K4,5,6,7,11:B21,26,27,28,K29,K30,31,32"
#: The board after 26-22 (the capture missed), 6-10, 30-25 and 10-15: only a line with that
#: irregular ply leads there.
MISSED_THEN = Position.from_fen("B:W1,2,K3,K4,5,7,11,15:B21,22,25,27,28,K29,31,32")
#: Read, as there, likeliest as before the line on three of the squares it changes.
MISSED_MISREAD = {22: {None: 0.6, Piece.DARK_MAN: 0.4}, 26: {Piece.DARK_MAN: 0.6, None: 0.4},
                  30: {Piece.DARK_KING: 0.6, None: 0.4}}


def test_a_line_with_an_irregular_ply_read_against_waits_as_a_misread():
    feed = started(BEFORE_70158)
    feed.time += 8.0
    assert moves_of(readings(feed, MISSED_THEN, 2.0, MISSED_MISREAD)) == []
    assert moves_of(readings(feed, MISSED_THEN, 1.5, MISSED_MISREAD)) == ["26-22", "6-10", "30-25", "10-15"]


def test_a_line_with_an_irregular_ply_read_well_is_recorded_at_once():
    feed = started(BEFORE_70158)
    feed.time += 8.0
    assert moves_of(readings(feed, MISSED_THEN, 0.5, {})) == ["26-22", "6-10", "30-25", "10-15"]
