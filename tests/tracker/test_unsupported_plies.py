"""Plies the reading does not support are not recorded (#42, kingplay 70136), and play that
goes on from an alerted attempt with an irregular ply of its own is followed (kingplay 70139)."""

import numpy as np

from makhos.engine import Piece, Position
from makhos.events import EventKind
from makhos.events.details import IrregularityKind
from makhos.vision.reading import CLASS_INDEX, Reading

from feed import after
from test_gaps import moves_of, started
from test_tracker import Feed


def read(position: Position, time: float, doubts: dict[int, dict[Piece | None, float]]) -> Reading:
    """``position`` read as sure as a reader is of a square it sees plainly, but on the
    squares of ``doubts``, read as the probabilities they name."""
    p = Reading.certain(position, time, sureness=0.9999).probabilities.copy()
    for square, shares in doubts.items():
        p[square - 1] = 0.0
        for piece, share in shares.items():
            p[square - 1, CLASS_INDEX[piece]] = share
    return Reading(time, p.astype(np.float32))


def readings(feed: Feed, position: Position, seconds: float, doubts: dict[int, dict[Piece | None, float]]) -> list:
    """``seconds`` of settled readings of ``position`` at 15 a second, as :func:`read`."""
    new = []
    for _ in range(round(seconds * 15)):
        feed.time += 1 / 15
        new += feed.log(feed.tracker.observe(feed.time, read(position, feed.time, doubts)))
    feed.events += new
    return new


#: Kingplay 70136 before its gap: dark's king on 30 and light's on 25 are about to move
#: (30-19 25-22), unseen in glare.
BEFORE_GAP = "B:W1,2,K4,6,7,9,12,K25:B21,24,28,K30,31,32"
#: After the gap, the light man on 12 is read dark (as there), the man on 24 a little as gone.
GLARE = {12: {Piece.DARK_MAN: 0.69, None: 0.31}, 24: {Piece.DARK_MAN: 0.88, None: 0.12}}


def test_a_board_misread_on_a_square_after_a_gap_is_no_line_of_more_plies():
    feed = started(BEFORE_GAP)
    feed.time += 8.0  # the board unseen
    events = readings(feed, after(BEFORE_GAP, "30-19 25-22"), 2.0, GLARE)
    # Not 30-19 12-16 19x12 25-22 24-19, which "explains" 12 read dark, and empties 24,
    # read as holding its man.
    assert moves_of(events) == ["30-19", "25-22"]


def test_a_square_a_later_ply_fills_is_no_square_left_behind():
    position = after(BEFORE_GAP, "30-19 25-22")
    feed = started(position.fen())
    # The man on 12 read dark, the king on 19 read as it stands: not 19-16 12x19, whose
    # light man would stand on 19, taken for the king left behind there.
    events = readings(feed, position, 2.0, {12: GLARE[12]})
    assert moves_of(events) == []


#: Kingplay 70139: light's king on 10 plays 10-19 with a capture due (alerted); then, the
#: board hidden, 23x16x7, 2x11 and 9x2, a chain stopped after its first jump.
BEFORE_ATTEMPT = "W:W1,K2,K4,5,6,8,K10,11:BK9,23,25,27,28,K29,K30,32"


def test_play_on_from_an_alerted_attempt_with_an_irregular_ply_of_its_own():
    feed = started(BEFORE_ATTEMPT)
    feed.hand()
    attempt = Position.from_fen("B:W1,K2,K4,5,6,8,11,K19:BK9,23,25,27,28,K29,K30,32")
    alerted = feed.board(attempt, frames=40)
    assert [e.detail.rule for e in alerted if e.kind is EventKind.IRREGULARITY] == [IrregularityKind.MISSED_CAPTURE]
    feed.time += 7.0  # hands over the board
    events = feed.board(Position.from_fen("W:W1,K4,5,8,K11:BK2,25,27,28,K29,K30,32"), frames=10)
    assert moves_of(events) == ["10-19", "23x16x7", "2x11"]  # the attempt stood, then the plies
    (alert,) = [e for e in events if e.kind is EventKind.IRREGULARITY]
    assert alert.detail.rule is IrregularityKind.PARTIAL_CHAIN and alert.move == "9x2"
