"""A side that seems to have moved twice over a gap, its opponent's ply between glimpsed (#42).

Kingplay 70070: under a sleeve, dark's king went 30-25, light's king 4-15, and dark's king
back 25-30 with a capture due. The board after the sleeve is light's 4-15 alone, so the
tracker alerted "light moved twice" and, when light took 15x24 after it, "light moved out
of turn": the game stopped being followed with three plies played. The reads through the
sleeve saw the king on 25: the line they witness is the game.
"""

from __future__ import annotations

from makhos.engine import Colour, Piece, Position
from makhos.engine.position import place
from makhos.events import EventKind
from makhos.events.details import IrregularityKind
from makhos.tracker import GameTracker, TrackerConfig

from feed import Feed, flickering
from test_gaps import played
from test_glimpses import glimpsed_then_seen

#: Kingplay 70070 after its 6th ply (8-12): dark to move.
BEFORE = "B:W2,K3,K4,5,6,7,9,12:B19,22,26,28,K29,K30,31,32"


def boards() -> list[Position]:
    """After 30-25, after 4-15, and after dark's king back 25-30 while 19x10x1 was due."""
    out = played(Position.from_fen(BEFORE), "30-25")
    light = played(out, "4-15")
    home = Position(*place(place(light.board, 25, None), 30, Piece.DARK_KING), turn=Colour.LIGHT)
    return [out, light, home]


def followed() -> Feed:
    start = Position.from_fen(BEFORE)
    feed = Feed(GameTracker("b1", config=TrackerConfig(first_mover=Colour.DARK)))
    feed.log(feed.tracker.start_from(start, 0.0))
    flickering(feed, start, [10])
    return feed


def test_the_opponents_ply_glimpsed_between_is_recorded_not_a_side_moving_twice() -> None:
    feed = followed()
    glimpsed_then_seen(feed, boards())
    assert [m.move for m in feed.tracker.logged_game.current.moves] == ["30-25", "4-15"]
    (alert,) = [e for e in feed.events if e.kind is EventKind.IRREGULARITY]
    assert alert.detail.rule is IrregularityKind.MISSED_CAPTURE and alert.move == "25-30"
    # Light's 15x24 is then its own turn's capture: the capture missed stands, played on.
    feed.hand(45)
    flickering(feed, played(boards()[-1], "15x24"), [3, 1, 2, 1, 4, 3, 2, 5, 3, 4])
    assert [m.move for m in feed.tracker.logged_game.current.moves] == ["30-25", "4-15", "25-30", "15x24"]
    assert feed.tracker.alert is None


def test_with_the_king_never_seen_away_light_moved_twice() -> None:
    """Nothing glimpsed between: the king's out and home leaves no trace, and inventing it
    would be recording plies nobody saw; the board is light moving twice, alerted."""
    feed = followed()
    feed.hand(150)
    flickering(feed, boards()[-1], [3, 1, 2, 1, 4, 3, 2, 5, 3, 4])
    assert [m.move for m in feed.tracker.logged_game.current.moves] == []
    (alert,) = [e for e in feed.events if e.kind is EventKind.IRREGULARITY]
    assert alert.detail.rule is IrregularityKind.WRONG_SIDE and alert.move == "4-15"
