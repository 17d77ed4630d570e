"""The side to move after plies seen as one change (#42, item 3): a king's two steps read as
one flight, then a reply that only the other parity makes legal; and a gap's lines from the
board of an open irregular alert."""

from makhos.engine import Colour, Position
from makhos.events import EventKind
from makhos.events.details import AlertEnding, IrregularityKind, MovePlayed, Takeback

from test_gaps import moves_of, played, started

#: Dark's king on 30 steps 30-25, light answers 5-9, the king steps on 25-21: one change to
#: a camera whose hand covered all three, and the fewest plies to it are 30-21 5-9.
KING_STEPS = "B:W5,12:BK30,28"

#: Kingplay 70058 before light's 8-18, played while 9x18 was due.
BEFORE_ATTEMPT = "W:W1,2,K4,5,7,K8,9,12:B14,22,25,28,K29,K30,31,32"


def test_a_kings_two_steps_read_as_one_flight_are_both_recorded_once_the_reply_tells():
    start = Position.from_fen(KING_STEPS)
    feed = started(KING_STEPS)
    feed.hand()
    assert moves_of(feed.board(played(start, "30-25 5-9 25-21"), frames=10)) == ["30-21", "5-9"]
    feed.hand()
    events = feed.board(played(start, "30-25 5-9 25-21 9-13"), frames=10)
    # 9-13 is light moving twice after 30-21 5-9, and light's own ply after 30-25 5-9 25-21.
    (takeback,) = [e for e in events if e.kind is EventKind.TAKEBACK]
    assert takeback.detail == Takeback(2) and "9-13" in (takeback.reason or "")
    assert moves_of(events) == ["30-25", "5-9", "25-21", "9-13"]
    assert not [e for e in events if e.kind is EventKind.IRREGULARITY]
    record = feed.tracker.logged_game.current
    assert [m.move for m in record.moves] == ["30-25", "5-9", "25-21", "9-13"]
    assert [m.side for m in record.moves] == [Colour.DARK, Colour.LIGHT] * 2
    assert record.game.position.turn is Colour.DARK and feed.tracker.alert is None


def test_a_reply_legal_after_the_fewest_plies_keeps_them():
    start = Position.from_fen(KING_STEPS)
    feed = started(KING_STEPS)
    feed.hand()
    feed.board(played(start, "30-25 5-9 25-21"), frames=10)
    feed.hand()
    events = feed.board(played(start, "30-21 5-9 21-17"), frames=10)
    assert moves_of(events) == ["21-17"]
    assert not [e for e in events if e.kind is EventKind.TAKEBACK]
    assert [m.move for m in feed.tracker.logged_game.current.moves] == ["30-21", "5-9", "21-17"]


def test_a_gap_while_an_irregular_alert_is_open_goes_on_from_the_alerts_board():
    before = Position.from_fen(BEFORE_ATTEMPT)
    feed = started(BEFORE_ATTEMPT)
    feed.hand()
    (step,) = [m for m in before.plain_moves() if str(m) == "8-18"]
    attempt = before.play(step)
    events = feed.board(attempt, frames=10)
    (alert,) = [e for e in events if e.kind is EventKind.IRREGULARITY]
    assert alert.detail.rule is IrregularityKind.MISSED_CAPTURE
    feed.hand(frames=8 * 30)  # an arm rests on the board while four plies are played on
    events = feed.board(played(attempt, "22x15 9x18 30-19 5-9"), frames=10)
    assert moves_of(events) == ["8-18", "22x15", "9x18", "30-19", "5-9"]
    played_events = [e.detail for e in events if e.kind is EventKind.MOVE]
    assert isinstance(played_events[0], MovePlayed) and played_events[0].irregular
    assert all(d.gap is not None for d in played_events[1:])
    assert any(e.kind is EventKind.ALERT_CLOSED and e.detail.how is AlertEnding.STOOD for e in events)
    record = feed.tracker.logged_game.current
    assert len(record.moves) == 5 and record.game.position.turn is Colour.DARK
    assert feed.tracker.alert is None
