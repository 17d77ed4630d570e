"""A rare irregular kind is no story for a board the reader lost half of (issue #42, item 3:
"irregular position change is the last resort").

The kingplay render 70098: dark's navy men on the black squares read as empty, with
confidence, over most of the dark camp, while light played 7-10 and, two plies on, its
king's 3-7. The light camp was read right (the king gone from 3, pieces on 7 and 10), and
with five dark pieces read as gone the board was named "light king jumped over its own
piece on 7 (3x10)", the five counted as taken by it: one hand's step, alerted at once, and
a gap's line played on from it recorded five plies nobody played.
"""

from __future__ import annotations

from makhos.engine import Position
from makhos.events import EventKind

from feed import started

#: After dark's 25-21, light to move (light's men on 1-8, its kings on 3 and 4).
GAME = "W:W1,2,K3,K4,5,6,7,8:B21,26,27,28,K29,K30,31,32"
#: Light's king gone from 3 and a man on 10, and dark's pieces on 21, 28, 29, 30 and 32
#: read as empty.
LOST_HALF = "B:W1,2,K4,5,6,7,8,K10:B26,27,31"


def test_a_step_beside_pieces_gone_all_over_the_board_is_no_step_alerted_at_once() -> None:
    feed = started(GAME)
    feed.hand()
    assert feed.seen(Position.from_fen(LOST_HALF), 0.5) == []  # a misread until it lasts
    events = feed.seen(Position.from_fen(LOST_HALF), 5.0)
    assert [e.kind for e in events] == [EventKind.BOARD_MISMATCH]  # the board changed: no ply
    assert "light king removed from 3" in (events[0].reason or "")
    assert feed.tracker.game.plies == []


def test_a_step_that_took_one_man_it_did_not_jump_is_still_alerted_at_once() -> None:
    """The wrong man lifted is one hand's slip, as a referee names it."""
    feed = started(GAME)
    feed.hand()
    events = feed.seen(Position.from_fen("B:W1,2,K4,5,6,7,8,K10:B21,26,27,28,K29,K30,31"), 0.5)
    assert [(e.kind, e.reason) for e in events] == [
        (EventKind.IRREGULARITY, "light king jumped over its own piece on 7 (3x10)")]

