"""A king that moves stays a king through a gap (issue #42, item 2; kingplay 70024).

Kingplay 70024 (a hall, an arm resting on the board's edge): five plies passed while
the board was unseen, among them a dark king's flight 29-15. Seen again, the king on 15
read as a man, its old square 29 read a little as a man, and a man on the board's edge
(24) read as no piece at all. The line that fits that reading best kept the king on 29
and marched the man from 24 to 15 in two plies: six plies, three of them invented, and
the game followed a king that never moved.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from makhos.engine import Position
from makhos.tracker import GameTracker
from makhos.vision.reading import CLASS_INDEX, Reading

from feed import after, seen_then_unseen

#: Kingplay 70024 after its 5th ply (light to move), and the five plies played unseen.
BEFORE = "W:W1,2,K3,K4,6,7,8,13:B21,24,26,27,28,K29,K30,32"
UNSEEN = "1-5 21-17 13x22x31 29-15 7-10"


def misread(position: Position, time: float) -> Reading:
    """``position`` read as kingplay 70024 read it: the king landed on 15 read as a man,
    the square it left read a little as a man, the man on 24 read as no piece."""
    p = Reading.certain(position, time).probabilities.copy()
    empty, man, king = CLASS_INDEX[None], CLASS_INDEX[position.piece_at(24)], CLASS_INDEX[position.piece_at(15)]
    p[15 - 1, [man, king]] = p[15 - 1, [king, man]]
    p[24 - 1] = np.eye(5)[empty]
    p[29 - 1] = 0.0
    p[29 - 1, [empty, man]] = 0.78, 0.22
    return Reading(time, p)


def after_a_gap(board: Position, read: Callable[[Position, float], Reading]) -> GameTracker:
    """A tracker that saw ``BEFORE``, then nothing for 6.7 s (six plies fit), then ``board``
    as ``read`` reads it for a second."""
    feed = seen_then_unseen(BEFORE)
    for _ in range(30):
        feed.time += 1 / 30
        feed.events += feed.log(feed.tracker.observe(feed.time, read(board, feed.time)))
    return feed.tracker


def test_a_king_that_flew_during_a_gap_is_no_man_marched_in_its_place() -> None:
    board = after(BEFORE, UNSEEN)
    tracker = after_a_gap(board, misread)
    moves = [m.move for m in tracker.logged_game.current.moves]
    assert len(moves) == len(UNSEEN.split()) and "29-15" in moves and "24-19" not in moves
    assert tracker.game is not None and tracker.game.position.board == board.board


def test_a_man_that_marched_while_the_king_stayed_in_sight_is_recorded_as_it_marched() -> None:
    line = "1-5 24-19 7-10 21-17 13x22x31 19-15"
    board = after(BEFORE, line)
    tracker = after_a_gap(board, Reading.certain)
    moves = [m.move for m in tracker.logged_game.current.moves]
    assert len(moves) == 6 and "24-19" in moves and "19-15" in moves and "29-15" not in moves
    assert tracker.game is not None and tracker.game.position.board == board.board
