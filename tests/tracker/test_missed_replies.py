"""A move answered by a capture missed (``Verdict.MOVED_AND_MISSED``) is the story of a
board seen at once; after a gap, a legal line to the same board is the record, as a gap's
search takes a line with an irregular ply only where no legal line fits; and its boards,
every legal move then every plain reply, are none a relight weighs.

Kingplay 70022: a king's 10-19 and 19-15 around 22-18, under a hand for 7 s, end where
10-15 answered by 22-18 (22x11x20 due) does; the irregular story was taken, and a later
ply invented. 70012: re-read in new light after three plies unseen, the reader was taught
a board two plies nobody played fitted, among so many boards that few squares were known,
and the game was lost."""

from __future__ import annotations

from makhos.engine import Position
from makhos.events import EventKind

from feed import seen_then_unseen, started
from test_boards_in_doubt import relit
from test_unwitnessed_plies import labels

BEFORE = "W:W1,2,K4,5,8,K10,13,16:B21,K22,23,26,28,K29,31,32"
AFTER = "B:W1,2,K4,5,8,13,K15,16:BK18,21,23,26,28,K29,31,32"  # 10-19 22-18 19-15


def test_after_a_gap_the_legal_line_to_the_board_is_recorded_not_a_capture_missed() -> None:
    feed = seen_then_unseen(BEFORE)
    events = feed.board(Position.from_fen(AFTER), 30)
    game = feed.tracker.game
    assert game is not None and len(game.plies) == 3 and game.position.board == Position.from_fen(AFTER).board
    assert [str(p.move) for p in game.plies][1] == "22-18"
    assert EventKind.IRREGULARITY not in [e.kind for e in events] and feed.tracker.alert is None


def test_seen_at_once_it_is_the_move_and_the_capture_missed() -> None:
    feed = started(BEFORE)
    feed.hand()
    events = feed.board(Position.from_fen(AFTER), 30)
    game = feed.tracker.game
    assert game is not None and [str(p.move) for p in game.plies] == ["10-15"]
    assert [e.kind for e in events][-1] is EventKind.IRREGULARITY
    assert feed.tracker.alert is not None and "22-18 while a capture was compulsory" in feed.tracker.alert.reason


def test_a_relight_weighs_no_board_of_a_move_answered_by_a_capture_missed() -> None:
    start = Position.from_fen("B:W1,9:B17,18")
    feed = started("B:W1,9:B17,18")
    feed.hand()
    relit(feed, Position.from_fen("B:W1,2,3,4,9:B17,18,29,30,31"))  # new light, many squares otherwise
    since = feed.tracker.boards_since()
    moved = start.play(next(m for m in start.legal_moves() if str(m) == "18-14"))
    missed = moved.play(next(m for m in moved.plain_moves() if str(m) == "1-5"))
    assert labels(moved) in since  # the move itself is weighed
    assert labels(missed) not in since
