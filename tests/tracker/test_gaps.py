"""Plies played while the board was unseen (issue #25): found, asked about, or a mismatch."""

import pytest

from makhos.engine import Colour, Position
from makhos.engine.game import Game
from makhos.events import EventKind
from makhos.events.decisions import ChooseLine
from makhos.events.details import IrregularityKind, MovePlayed
from makhos.events.game import replay
from makhos.tracker import GameTracker, TrackerConfig

from test_tracker import Feed, kinds

#: Lines with captures, crownings and a flying king, from positions where they are the only
#: legal lines to their boards: (start FEN, line).
LINES = [
    ("B:W7,20,28:B10,22,32", "10x3"),
    ("B:W7,20,28:B10,22,32", "10x3 20-24"),
    ("B:W7,20,28:B10,22,32", "10x3 20-24 3-7"),
    ("B:W7,20,28:B10,22,32", "10x3 20-24 3-7 24-27"),
    ("B:W7,20,28:B10,22,32", "10x3 20-24 3-7 24-27 32x23"),
    ("B:W5,6,9,11,14,15:B18,21,23,26,27,30", "30-25 15x22x31 21-17 31x24 17x10x1 11-15"),
]


def played(position: Position, line: str) -> Position:
    for text in line.split():
        (move,) = [m for m in position.legal_moves() if str(m) == text]
        position = position.play(move)
    return position


def started(fen: str, config: TrackerConfig | None = None) -> Feed:
    tracker = GameTracker("1", config=config or TrackerConfig(first_mover=Colour.DARK))
    feed = Feed(tracker)
    feed.log(tracker.start_from(Position.from_fen(fen), 0.0))
    feed.board(Position.from_fen(fen))
    return feed


def moves_of(events) -> list[str]:
    return [e.move for e in events if e.kind is EventKind.MOVE]


@pytest.mark.parametrize("fen, line", LINES)
def test_the_plies_of_a_gap_are_recorded_as_seen_after_it(fen, line):
    feed = started(fen)
    feed.time += 15.0  # the camera away
    events = feed.board(played(Position.from_fen(fen), line), frames=10)
    assert moves_of(events) == line.split()
    gaps = [e.detail.gap for e in events if isinstance(e.detail, MovePlayed)]
    assert all(g is not None and 15.0 <= g < 15.5 for g in gaps)
    record = feed.tracker.logged_game.current
    assert all(m.spent is None and m.gap == gaps[0] for m in record.moves)
    assert "{after a gap of 15 s}" in record.pdn()
    crowned = [m for m in feed.tracker.game.plies if m.move is not None and m.move.crowns]
    assert len(crowned) == sum(1 for t in line.split() if t in ("10x3", "17x10x1", "15x22x31"))


def test_without_a_gap_a_board_three_plies_on_is_no_move_at_all():
    fen, line = LINES[2]
    feed = started(fen)
    feed.hand(30)  # a second of hands is no gap: nobody plays three plies in it
    # Two plies with two squares misread would tell it too, until it lasts past a misread.
    events = feed.board(played(Position.from_fen(fen), line), frames=100)
    assert kinds(events) == ["board_mismatch"]


def test_a_ply_after_a_hand_that_stayed_long_keeps_its_time_but_three_plies_are_a_gap():
    fen, line = LINES[2]
    feed = started(fen)
    feed.hand(150)  # five seconds of frames without a settled board: no camera gap
    first = feed.board(played(Position.from_fen(fen), "10x3"), frames=10)
    assert moves_of(first) == ["10x3"] and first[0].detail.gap is None
    assert feed.tracker.logged_game.current.moves[0].spent is not None
    feed.hand(150)
    rest = feed.board(played(Position.from_fen(fen), line + " 24-27"), frames=10)
    assert moves_of(rest) == ["20-24", "3-7", "24-27"]
    assert all(e.detail.gap is not None for e in rest)


def test_a_gap_longer_than_its_plies_can_fill_is_searched_no_further():
    fen, line = LINES[4]  # five plies
    config = TrackerConfig(first_mover=Colour.DARK, shortest_ply=3.0)
    feed = started(fen, config)
    feed.time += 12.0  # four plies of three seconds at most
    events = feed.board(played(Position.from_fen(fen), line), frames=100)  # past a misread's time
    assert kinds(events) == ["board_mismatch"]


def test_several_lines_are_a_notice_for_the_referee_who_chooses_one():
    feed = started(Position.start().fen())
    feed.time += 10.0
    seen = played(Position.start(), "25-21 5-9 21-17")
    events = feed.board(seen, frames=10)
    (notice,) = events
    assert notice.kind is EventKind.IRREGULARITY and notice.detail.rule is IrregularityKind.GAP
    assert notice.detail.lines == ("25-21 5-9 21-17", "25-22 5-9 22-17")
    assert not feed.tracker.game.plies  # nothing recorded until the referee decides
    assert feed.board(seen, frames=10) == []  # the same board: still waiting
    decision = ChooseLine(notice.seq, "25-22 5-9 22-17").to_event("1", 1, 20.0)
    feed.log([decision])
    assert [str(p.move) for p in feed.tracker.game.plies] == ["25-22", "5-9", "22-17"]
    assert feed.tracker.alert is None
    reply = played(seen, "9-13")
    feed.hand()
    assert moves_of(feed.board(reply)) == ["9-13"]


def test_offline_the_likeliest_line_is_recorded_unconfirmed():
    config = TrackerConfig(first_mover=Colour.DARK, offline=True)
    feed = started(Position.start().fen(), config)
    feed.time += 10.0
    events = feed.board(played(Position.start(), "25-21 5-9 21-17"), frames=10)
    assert moves_of(events) == ["25-21", "5-9", "21-17"]
    assert all(e.detail.unconfirmed for e in events)
    assert "after a gap of 10 s, unconfirmed" in feed.tracker.logged_game.current.pdn()


def test_a_board_no_line_reaches_after_a_gap_is_a_mismatch_and_the_game_goes_on():
    """The "none" case ends as a board no move explains (issue #21 makes it stand when the
    game goes on); the tracker neither freezes nor guesses, and the referee can accept it."""
    start = Position.start()
    feed = started(start.fen())
    feed.time += 10.0
    impossible = Position.from_pieces({**start.pieces(), 20: start.piece_at(25)}, Colour.LIGHT)
    events = feed.board(impossible, frames=100)  # one square off: it must outlast a misread
    assert kinds(events) == ["board_mismatch"]
    assert not feed.tracker.game.plies
    back = feed.board(start, frames=10)  # the board put right: the game is where it was
    assert kinds(back) == ["board_matched"]
    feed.hand()
    assert moves_of(feed.board(played(start, "26-22"))) == ["26-22"]


def test_a_tracker_restored_from_its_log_finds_the_plies_played_while_it_was_down():
    rng_game = Game()
    for text in "25-22 7-11 26-23 8-12 31-26 11-15 22-18".split():
        rng_game.play_text(text)
    first = GameTracker("1")
    feed = Feed(first)
    feed.board(Position.start())
    for ply in rng_game.plies:
        feed.hand()
        feed.board(ply.after)
    assert len(first.game.plies) == 7
    resumed = GameTracker("1")
    assert resumed.restore(feed.events) == feed.events[-1].seq
    assert resumed.resumed == feed.events[-1].time
    later = played(rng_game.position, "15x22x31 30-26 31x24 28x19")  # a king made and taken
    feed.tracker, feed.time = resumed, feed.time + 20.0
    events = feed.board(later, frames=10)
    assert moves_of(events) == "15x22x31 30-26 31x24 28x19".split()
    record = replay(feed.events)
    assert [m.move for m in record.current.moves][7:] == moves_of(events)
    assert all(m.gap is not None for m in record.current.moves[7:])


def test_played_on_before_the_referee_chose_the_likeliest_line_stands_unconfirmed():
    feed = started(Position.start().fen())
    feed.time += 10.0
    seen = played(Position.start(), "25-21 5-9 21-17")
    (notice,) = feed.board(seen, frames=10)
    feed.hand()
    events = feed.board(played(seen, "9-13"))
    assert moves_of(events) == ["25-21", "5-9", "21-17", "9-13"]
    assert [e.detail.unconfirmed for e in events if e.kind is EventKind.MOVE] == [True] * 3 + [False]
    assert feed.tracker.alert is None and not any(p.is_irregular for p in feed.tracker.game.plies)
    late = ChooseLine(notice.seq, "25-22 5-9 22-17").to_event("1", 1, 30.0)
    feed.log([late])  # too late: the notice closed when play went on
    assert len(feed.tracker.game.plies) == 4


def test_a_line_chosen_while_the_tracker_let_the_likeliest_stand_is_the_record():
    """The referee's choice reaches the log before the tracker, which reads it back a moment
    later, lets the likeliest line stand as play goes on: every reader of the log (the
    pages, a restarted tracker) keeps the referee's line, not both."""
    feed = started(Position.start().fen())
    feed.time += 10.0
    seen = played(Position.start(), "25-21 5-9 21-17")
    (notice,) = feed.board(seen, frames=10)
    chosen = ChooseLine(notice.seq, "25-22 5-9 22-17").to_event("1", 1, 20.0)
    feed.seq += 1
    feed.events.append(chosen.with_seq(feed.seq))  # logged, not read back yet
    feed.hand()
    feed.board(played(seen, "9-13"))
    assert [m.unconfirmed for m in feed.tracker.logged_game.current.moves] == [True] * 3 + [False]
    pages = replay(feed.events).current
    assert [m.move for m in pages.moves] == ["25-22", "5-9", "22-17", "9-13"]
    assert not any(m.unconfirmed or m.irregular for m in pages.moves)
