"""A man washed out of the reading while a legal ply is made is a misread, not a capture of
a man nobody jumped (issue #42, item 3).

The kingplay render 70001, once its reader learnt the start: the light man on 5, read as a
man on the start frame, read as empty a minute on (the exposure washed the near corner's
men into their squares), just as dark played 28-24. The tracker explained the two together
as "dark man took 5, which it did not jump", a man missing for the rest of the game, and
invented every ply after it.
"""

from __future__ import annotations

from makhos.engine import Position
from makhos.events import EventKind

from feed import started

#: Light's man on 5 cannot move (its own man stands on 9): no light ply empties 5.
START = "B:W1,5,9:B22,28,30"


def test_a_legal_ply_read_with_a_man_washed_out_is_the_ply() -> None:
    feed = started(START)
    feed.hand()
    feed.seen(Position.from_fen("W:W1,5,9:B22,24,30"), 2.0, misread={5: None})
    feed.hand()
    feed.seen(Position.from_fen("B:W1,5,13:B22,24,30"), 2.0)  # light plays on: the man was there
    record = feed.tracker.logged_game.current
    assert [(m.move, m.irregular is not None) for m in record.moves] == [("28-24", False), ("9-13", False)]
    assert not [e for e in feed.events if e.kind in (EventKind.IRREGULARITY, EventKind.BOARD_MISMATCH)]
    assert feed.tracker.game.position == Position.from_fen("B:W1,5,13:B22,24,30")


def test_a_man_that_stays_gone_is_said_once_the_board_insists() -> None:
    """Over several settled readings the board is believed: the ply stands, and the man gone
    is said."""
    feed = started(START)
    feed.hand()
    events = feed.seen(Position.from_fen("W:W1,9:B22,24,30"), 5.0)
    assert [e.kind for e in events] == [EventKind.MOVE, EventKind.BOARD_MISMATCH]
    assert events[0].move == "28-24" and events[1].reason == "light man removed from 5"


def test_a_step_against_the_rules_that_took_a_man_it_did_not_jump_is_said_at_once() -> None:
    """No legal ply is within a misread of it: a hand made it, and it is alerted as it comes."""
    feed = started("B:W1,10:B22,30")
    feed.hand()
    events = feed.seen(Position.from_fen("W:W1:B15,30"), 0.3)
    assert [(e.kind, e.reason) for e in events] == [
        (EventKind.IRREGULARITY, "dark man took 10, which it did not jump (22x15)")]
