"""Plies told after a gap, read surely otherwise on a square they leave as it was
(``GameTracker._read_well``): beside plies nobody saw made, that square is a further ply
unseen as often as a misread (kingplay 70118: 8-12 26-30 1-6 made under hands, 12 read
empty throughout, the board read with 8 surely empty was taken for 1-6 26-30 with 8
misread, and 8-12 was then recorded after them: two plies invented)."""

from __future__ import annotations

from makhos.engine import Colour, Piece, Position
from makhos.vision.reading import CLASS_INDEX

from feed import after, started, wavering

BEFORE = "W:W1,8:B25,32"
GONE = {12: None}  # the man on 12 read as gone, a light man within a misread's doubt


def read(feed, position: Position, frames: int, misread: dict | None = None) -> None:
    """``frames`` settled readings of ``position`` (:func:`feed.wavering`), each square of
    ``misread`` read as the piece (or none) it names at 0.88, with 0.1 left to the piece
    that is there."""
    for _ in range(frames):
        feed.time += 1 / 30
        reading = wavering(position, feed.time)
        for square, piece in (misread or {}).items():
            reading.probabilities[square - 1] = 0.005
            reading.probabilities[square - 1, CLASS_INDEX[position.piece_at(square)]] = 0.1
            reading.probabilities[square - 1, CLASS_INDEX[piece]] = 0.88
        feed.log(feed.tracker.observe(feed.time, reading))


def test_two_plies_read_surely_otherwise_beside_them_wait_for_the_readings_after_the_hand() -> None:
    feed = started(BEFORE)
    feed.board(Position.from_fen(BEFORE), 30)
    for line in ("8-12", "8-12 25-21"):  # each under a hand, 12 read as empty: no story fits
        feed.hand(15)
        read(feed, after(BEFORE, line), 60, GONE)
    feed.hand(15)
    three = after(BEFORE, "8-12 25-21 1-6")
    read(feed, three, 9, GONE)  # the board of 1-6 25-21 but for 8, read surely empty
    assert feed.tracker.game is not None and feed.tracker.game.plies == []
    read(feed, three, 90)  # the hand gone: 12 read as it is
    assert [str(p.move) for p in feed.tracker.game.plies] == ["8-12", "25-21", "1-6"]


def test_two_plies_of_one_hand_read_surely_otherwise_beside_them_are_taken_at_once() -> None:
    """Kingplay 70160: a dark king read surely gone beside 30-23 11-8, 3.5 s after the
    last board followed; a ply more fitted the reading, yet held back the game was lost."""
    feed = started(BEFORE)
    feed.board(Position.from_fen(BEFORE), 30)
    feed.hand(15)
    light = Piece.of(Colour.LIGHT, False)
    read(feed, after(BEFORE, "1-6 25-21"), 3, {8: None, 12: light})  # as if 8-12 were made too
    assert [str(p.move) for p in feed.tracker.game.plies] == ["1-6", "25-21"]


def test_two_plies_read_well_everywhere_are_taken_at_once() -> None:
    feed = started(BEFORE)
    feed.hand()
    feed.board(after(BEFORE, "1-6 25-21"), frames=3)
    assert [str(p.move) for p in feed.tracker.game.plies] == ["1-6", "25-21"]
