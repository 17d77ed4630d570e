"""A legal ply read with a doubt is no piece moved against the rules (issue #42, kingplay 70077).

A light king played 3-10; the camera, side-on, still read a king on 3, as either side's by
halves, and the man on 8 in front of it as gone. The board as read was one piece moved
against the rules (the man 8-10, off its diagonal) and was alerted at once, and the game
stopped there. A board that differs from a legal ply on a square the reader cannot tell the
side of is that ply with a misread until the reading says otherwise for sure: a step is
alerted at once only where the squares it changes, and those of the pieces a legal move would
have brought to the square it fills, are read well, as a hand's step is. The two plies that
follow, the king still read on 3, are those plies, not the other side moving twice, and the
board they leave is not then the king going back.
"""

from __future__ import annotations

import numpy as np

from makhos.engine import Move, Piece, Position
from makhos.events import EventKind
from makhos.events.details import IrregularityKind
from makhos.vision.reading import CLASS_INDEX, Reading

from feed import Feed, kinds, started

#: Three kings a side, seven plies in: light to move, 3-10 a king's legal plain move.
BEFORE = "W:W1,K2,K3,K4,6,8,9,14:B15,25,K26,27,28,K29,K30,32"


def play(position: Position, move: str) -> Position:
    chosen: Move = next(m for m in position.legal_moves() if str(m) == move)
    return position.play(chosen)


def read(position: Position, time: float, misread: dict[int, dict[Piece | None, float]]) -> Reading:
    """``position`` read as surely as the network reads a clear square, but for the
    squares of ``misread``, each read as the classes it names with the probabilities it
    gives."""
    p = Reading.certain(position, time, sureness=0.99999).probabilities
    for square, classes in misread.items():
        p[square - 1] = 0.0
        for piece, probability in classes.items():
            p[square - 1, CLASS_INDEX[piece]] = probability
        p[square - 1] /= p[square - 1].sum()
    return Reading(time, p.astype(np.float32))


def held(feed: Feed, position: Position, seconds: float, misread: dict[int, dict[Piece | None, float]]) -> list:
    """``seconds`` of one settled read of ``position`` with ``misread``, after a hand."""
    covered = feed.hand(15)
    seen = []
    for _ in range(round(seconds * 30)):
        feed.time += 1 / 30
        seen += feed.log(feed.tracker.observe(feed.time, read(position, feed.time, misread)))
    feed.events += seen
    return covered + seen


#: The king still read on 3, as either side's by halves; the man on 8 read as gone.
KING_LEFT_BEHIND = {3: {Piece.LIGHT_KING: 0.54, Piece.DARK_KING: 0.42, Piece.LIGHT_MAN: 0.04},
                    8: {None: 0.98, Piece.LIGHT_MAN: 0.02}}
#: The man on 10 read as a man more than a king, as the real reading had it.
MAN_OR_KING = {10: {Piece.LIGHT_MAN: 0.6, Piece.LIGHT_KING: 0.4}}


def test_a_kings_move_read_with_a_doubt_is_not_a_man_off_its_diagonal() -> None:
    before = Position.from_fen(BEFORE)
    feed = started(BEFORE)
    feed.board(before, 10)
    moved = play(before, "3-10")
    events = held(feed, moved, 2.0, KING_LEFT_BEHIND | MAN_OR_KING)
    assert EventKind.IRREGULARITY not in kinds(events)  # no man that left its diagonal
    replied = play(moved, "26-22")
    held(feed, replied, 2.0, {3: {Piece.LIGHT_KING: 0.97, Piece.LIGHT_MAN: 0.03}})
    game = feed.tracker.game
    assert game is not None
    assert [str(p.move) for p in game.plies] == ["3-10", "26-22"]
    assert game.position.board == replied.board
    assert feed.tracker.alert is None


def test_a_step_read_well_is_still_alerted_at_once() -> None:
    """The same squares read for sure (the king on 3 a light king at 0.97): a man that went
    from 8 to 10, alerted at once as a hand's step is."""
    before = Position.from_fen(BEFORE)
    feed = started(BEFORE)
    feed.board(before, 10)
    stepped = Position.from_pieces({s: p for s, p in before.pieces().items() if s != 8}
                                   | {10: Piece.LIGHT_MAN}, before.turn.opponent)
    events = held(feed, stepped, 0.3, {})
    alerts = [e for e in events if e.kind is EventKind.IRREGULARITY]
    assert [e.detail.rule for e in alerts] == [IrregularityKind.SIDEWAYS]


#: The reply 26-22 (a king) read as the real reading had it: the king on 22 and the one it
#: left on 26 both read as dark men, the man on 25 still there, read a hair less surely than
#: 26, and the man on 27 read half gone.
KING_ON_BOTH = {22: {Piece.DARK_MAN: 0.975, Piece.DARK_KING: 0.015, None: 0.01},
                25: {Piece.DARK_MAN: 0.997, None: 0.003},
                26: {Piece.DARK_MAN: 0.98, Piece.DARK_KING: 0.02},
                27: {None: 0.67, Piece.DARK_MAN: 0.33}}


def test_a_kings_move_read_on_both_squares_is_not_the_man_beside_it() -> None:
    """Both 25-22 (the man) and 26-22 (the king) explain that reading with only the square
    they left read as still holding a piece: the reading has not said which moved, and the
    tracker waits for the board to say it, then records the king's move."""
    before = Position.from_fen(BEFORE)
    feed = started(BEFORE)
    feed.board(before, 10)
    moved = play(before, "3-10")
    held(feed, moved, 1.0, {})
    replied = play(moved, "26-22")
    held(feed, replied, 1.0, KING_ON_BOTH)
    game = feed.tracker.game
    assert game is not None
    assert [str(p.move) for p in game.plies] == ["3-10"]  # not 25-22
    held(feed, replied, 2.0, {22: {Piece.DARK_KING: 0.6, Piece.DARK_MAN: 0.4}})
    game = feed.tracker.game
    assert game is not None
    assert [str(p.move) for p in game.plies] == ["3-10", "26-22"]
    assert game.position.board == replied.board
