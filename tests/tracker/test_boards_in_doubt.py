"""The boards a relight weighs as doubt, never as a lesson (``GameTracker.boards_doubted``,
``GameTracker.plies_beyond``; ``vision.relight.known_squares_doubted``): the boards the game
left, a gap's board read in new light but not well, and, where the time since the game last
followed a reading fits more plies than the stories hold, the boards further on.

Kingplay 70033: the board before the last two plies fitted as well as the one after them;
taught the latter whole, the reader led to two plies nobody played. 70039: a relight taught
a story's one ply where the gap's three were on the table. 70068: three plies unseen, the
two-ply story taught whole, the third ply's squares read as they were for good."""

from __future__ import annotations

from dataclasses import replace

from makhos.engine import Position
from makhos.vision.reading import Reading

from feed import after, seen_then_unseen, started
from test_unwitnessed_plies import BEFORE, SHIFTED, START8, doubted, labels


def relit(feed, position: Position, frames: int = 5) -> None:
    """``position`` read in new light for ``frames`` frames."""
    for _ in range(frames):
        feed.time += 1 / 30
        feed.log(feed.tracker.observe(feed.time, replace(Reading.certain(position, feed.time), relit=True)))


def test_the_board_a_ply_taken_back_leads_to_is_doubt_not_a_board_since() -> None:
    feed = started(START8)
    feed.hand()
    played = after(START8, "29-25")
    feed.board(played, 30)
    feed.hand()
    relit(feed, Position.from_fen(SHIFTED))
    back = labels(Position.from_fen(START8))
    assert back not in feed.tracker.boards_since()
    assert back in feed.tracker.boards_doubted()
    assert feed.tracker.plies_beyond() is None  # just followed: the stories hold what fits


def test_after_a_gap_the_boards_further_on_than_the_stories_are_weighed() -> None:
    feed = seen_then_unseen(BEFORE)  # 6.7 s unseen: six plies fit
    relit(feed, Position.from_fen("W:W9,10,11,12:B21,22,23,24"))
    since, further = feed.tracker.boards_since(), feed.tracker.plies_beyond()
    assert further is not None
    two = after(BEFORE, "23-18 11-16")
    assert labels(two) in since
    assert labels(two.play(two.legal_moves()[0])) in further(labels(two))  # a third ply


def test_a_gaps_board_read_in_new_light_not_well_is_doubt() -> None:
    board = after(BEFORE, "23-18 11-16 28-24")
    feed = seen_then_unseen(BEFORE)
    for _ in range(30):
        feed.time += 1 / 30
        feed.log(feed.tracker.observe(feed.time, doubted(board, feed.time, 18)))
    assert feed.tracker.game is not None and feed.tracker.game.plies == []
    assert labels(board) in feed.tracker.boards_doubted()
    assert labels(board) not in feed.tracker.boards_since()
