"""A tracker taken up from the log holds the last capture's men as possibly still standing
(``Acts.captured_may_stand``). A piece that then lands on such a square shows it was lifted:
the square is the piece's, not a captured man's (julie-log1 filmed in two files: a dark king
landed where light's capture had taken a man; read as a man, it was taken for a new king
not stacked, and "crowning not done on 11" was raised when light moved on)."""

from __future__ import annotations

from makhos.engine import Colour, Position
from makhos.events import EventKind, GameEvent
from makhos.tracker import GameTracker

from feed import started

#: Light to move: 8x15 takes the dark man on 11; then dark's king on 2 may fly to 11.
FEN = "W:W1,8:BK2,11,29"


def test_a_piece_landing_where_a_captured_man_may_stand_takes_the_square_after_a_take_up():
    feed = started(FEN)
    start = Position.from_fen(FEN)
    capture = next(m for m in start.legal_moves() if m.captured == (11,))
    after = start.play(capture)
    feed.board(start, 30)
    feed.hand()
    feed.board(after, 30)
    assert [e.move for e in feed.events if e.kind is EventKind.MOVE] == [str(capture)]

    again = GameTracker("b1", config=feed.tracker.config)
    again.restore(feed.stored)
    assert 11 in again.overlay  # the captured man may still stand, as far as the log says
    landing = next(m for m in after.legal_moves() if m.end == 11)
    again.acts.apply(GameEvent("b1", EventKind.MOVE, feed.time + 2, game=1, move=str(landing),
                           fen=after.play(landing).fen(), side=Colour.DARK, seq=feed.seq + 1))
    assert again.game is not None and again.game.position == after.play(landing)
    assert 11 not in again.overlay
