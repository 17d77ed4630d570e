"""A gap of the camera's after readings no story was confirmed on: its plies are counted
from the board the game last followed (``GameTracker._gap_stretch``, kingplay 70150)."""

from makhos.engine import Colour, Position
from makhos.events import EventKind
from makhos.tracker import GameTracker, TrackerConfig

from test_tracker import Feed, kinds

#: Five plies, the only legal line from the position to its board (``test_gaps.LINES``).
FEN, LINE = "B:W7,20,28:B10,22,32", "10x3 20-24 3-7 24-27 32x23"


def played(position: Position, line: str) -> Position:
    for text in line.split():
        (move,) = [m for m in position.legal_moves() if str(m) == text]
        position = position.play(move)
    return position


def followed_then_misread(config: TrackerConfig) -> Feed:
    """A game followed on its position, then for about three seconds boards read too far
    off any story to be taken (two readings at a time between hands: an empty board, as a
    dim frame reads), then the camera away for 4.1 s: a gap that fits four plies alone."""
    tracker = GameTracker("1", config=config)
    feed = Feed(tracker)
    feed.log(tracker.start_from(Position.from_fen(FEN), 0.0))
    feed.board(Position.from_fen(FEN), frames=10)
    nothing = Position.from_pieces({}, Colour.DARK)
    for _ in range(2):
        feed.hand(30)
        assert feed.board(nothing, frames=2) == []  # too brief for a mismatch: not followed
    feed.time += 4.1
    return feed


def test_plies_made_while_readings_were_not_followed_fit_the_gap_after_them():
    feed = followed_then_misread(TrackerConfig(first_mover=Colour.DARK, offline=True))
    events = feed.board(played(Position.from_fen(FEN), LINE), frames=10)
    assert [e.move for e in events if e.kind is EventKind.MOVE] == LINE.split()
    assert feed.tracker.game.position == played(Position.from_fen(FEN), LINE)


def test_the_gap_still_fits_no_more_plies_than_the_time_since_the_game_was_followed():
    # Plies of 2 s at least: the 7.4 s since the board was followed fit three, not five.
    config = TrackerConfig(first_mover=Colour.DARK, offline=True, shortest_ply=2.0)
    feed = followed_then_misread(config)
    events = feed.board(played(Position.from_fen(FEN), LINE), frames=100)  # past a misread's time
    assert kinds(events) == ["board_mismatch"]
    assert not feed.tracker.game.plies
