"""Plies nobody played are not recorded where the board does not witness them (issue #42:
"it never silently records a wrong move").

Kingplay 70068: after a gap of 6.5 s, a board misread on three squares fitted only lines of
six plies in which a light king went out and came home again; the likeliest was recorded,
two plies of it nobody played. Kingplay 70082: a shadow fell as 6-9 was made; the reader,
adapted to the new light on the board of 6-9 taken back (the frame fitted it better than
the board on the table), read it so for good, and the game took 6-9 back and went on on
the misread squares: 13 plies invented.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from makhos.engine import Colour, Piece, Position
from makhos.events import EventKind
from makhos.tracker import GameTracker
from makhos.vision.reading import CLASS_INDEX, LABELS, Reading

from feed import after, seen_then_unseen, started

#: Kingplay 70068 after 27-23 8-11, dark to move.
BEFORE = "B:W1,2,K3,K4,5,6,7,11:B23,25,26,28,K29,K30,31,32"


def after_a_gap(board: Position) -> GameTracker:
    """A tracker that saw ``BEFORE``, then nothing for 6.7 s (six plies fit), then ``board``
    for 5 s."""
    feed = seen_then_unseen(BEFORE)
    feed.board(board, frames=150)
    return feed.tracker


def test_a_board_only_a_king_out_and_home_again_explains_records_no_ply() -> None:
    board = after(BEFORE, "23-18 3-8 25-21 8-3 29-25 11-16")  # light's 3-8 and 8-3 leave no trace
    tracker = after_a_gap(board)
    assert tracker.game is not None and tracker.game.plies == []
    assert tracker.logged_game.mismatch or tracker.alert is not None  # said not to match


def test_a_board_every_ply_of_a_line_leaves_a_trace_on_is_recorded() -> None:
    line = "23-18 3-8 25-21 8-12 29-25"
    board = after(BEFORE, line)
    tracker = after_a_gap(board)
    assert tracker.game is not None and tracker.game.position.board == board.board
    assert len(tracker.game.plies) == len(line.split())


START8 = "B:W1,2,3,4:B29,30,31,32"
SHIFTED = "B:W9,10,11,12:B21,22,23,24"  # 16 squares read otherwise, as a shadow may


def labels(position: Position) -> str:
    return "".join(LABELS[CLASS_INDEX[position.piece_at(square)]] for square in range(1, 33))


def test_the_boards_a_relight_weighs_go_on_from_the_game() -> None:
    """A relight weighs the boards the plies since may have made, not the board the last ply
    left (a takeback) nor the side that just moved moving again: a frame in new light that
    fits those better misleads the reader, which then reads them for good."""
    feed = started(START8)
    feed.hand()
    played = after(START8, "29-25")
    feed.board(played, 30)
    assert [str(p.move) for p in feed.tracker.game.plies] == ["29-25"]
    feed.hand()
    position = Position.from_fen(SHIFTED)
    for _ in range(5):
        feed.time += 1 / 30
        feed.log(feed.tracker.observe(feed.time, replace(Reading.certain(position, feed.time), relit=True)))
    boards = feed.tracker.boards_since()
    reply = played.legal_moves()[0]
    assert labels(played) in boards  # the board on the table
    assert labels(played.play(reply)) in boards  # light's reply
    assert labels(Position.from_fen(START8)) not in boards  # 29-25 taken back
    again = played.with_turn(Colour.DARK)
    assert not any(labels(again.play(m)) in boards for m in again.legal_moves())  # dark moved twice
    assert not any(e.kind is EventKind.TAKEBACK for e in feed.events)


def doubted(position: Position, time: float, square: int | None) -> Reading:
    """``position`` read in new light, ``square`` (None: none) read as its piece at 0.46,
    empty at 0.40 and the other side at 0.14."""
    p = Reading.certain(position, time).probabilities.copy()
    if square is not None:
        piece = position.piece_at(square)
        other = Piece.of(piece.colour.opponent, piece.is_king)
        p[square - 1] = 0.0
        p[square - 1, [CLASS_INDEX[piece], CLASS_INDEX[None], CLASS_INDEX[other]]] = 0.46, 0.40, 0.14
    return replace(Reading(time, p), relit=True)


@pytest.mark.parametrize("square", [18, None])
def test_a_gap_line_read_in_new_light_is_recorded_only_read_well(square) -> None:
    """Kingplay 70096: a board read in new light after a gap, a square the line fills at
    0.46, was taken for five plies nobody played. A reader not adapted to the light misreads
    steadily, so holding the board long proves nothing: the line waits for a read it is
    sure of on every square it changes."""
    line = "23-18 11-16 28-24"
    board = after(BEFORE, line)
    feed = seen_then_unseen(BEFORE)
    for _ in range(150):
        feed.time += 1 / 30
        feed.log(feed.tracker.observe(feed.time, doubted(board, feed.time, square)))
    assert feed.tracker.game is not None
    assert len(feed.tracker.game.plies) == (0 if square else len(line.split()))
