"""A game the referee starts from a position (#33): from the board as the camera reads it
next, the side to move named, or from a FEN. The decision is in the log; the camera's
tracker logs the start it leads to, and the log replays to the live tracker's game."""

from __future__ import annotations

from makhos.engine import Colour, Position
from makhos.engine.pdn import read_game
from makhos.events import EventKind
from makhos.events.details import GameStarted, Irregularity, IrregularityKind
from makhos.events.game import AlertKind, replay
from makhos.tracker import GameTracker, TrackerConfig

from feed import Feed, decision, kinds, started

COMPOSED = "W:W10,11,K27:B14,19,K31"  # light to move: 10x17 is due


def from_the_board(turn: str = "light") -> Feed:
    """Game 1 under way, then the referee's new game from the board."""
    feed = started("B:W1,5:B25,30")
    feed.board("W:W1,5:B21,30")
    decision(feed, game=2, action="new_game", rules={}, from_board=True, turn=turn)
    return feed


def test_a_game_from_the_board_starts_from_the_next_reading_with_the_named_side_to_move():
    feed = from_the_board()
    assert feed.tracker.game is None and feed.tracker.logged_game.current.awaits_board
    board = Position.from_fen(COMPOSED).with_turn(Colour.DARK)  # the board as it stands
    [start] = feed.board(board)
    assert start.kind is EventKind.GAME_STARTED and start.game == 2
    assert start.fen == COMPOSED and start.side is Colour.LIGHT  # the referee's side, not the reading's
    assert isinstance(start.detail, GameStarted) and start.detail.turn_named
    assert feed.tracker.game.start.fen() == COMPOSED
    assert not feed.tracker.logged_game.current.awaits_board


def test_the_log_replays_to_the_live_game_and_its_pdn_opens_at_the_board():
    feed = from_the_board()
    start = Position.from_fen(COMPOSED)
    feed.board(start)
    capture = next(m for m in start.legal_moves() if str(m) == "10x17")
    feed.hand()
    feed.board(start.play(capture), frames=10)
    logged = replay(feed.stored, "b1").current
    assert logged.game.positions() == feed.tracker.game.positions()
    assert [str(p.move) for p in logged.game.plies] == ["10x17"]
    pdn = read_game(logged.pdn())
    assert pdn.tags["SetUp"] == "1" and pdn.tags["FEN"] == COMPOSED
    assert [str(p.move) for p in pdn.game.plies] == ["10x17"]


def test_the_side_not_named_moving_first_is_irregular():
    feed = Feed(GameTracker("b1"))  # no first mover configured: the referee's side stands
    decision(feed, action="new_game", rules={}, from_board=True, turn="light")
    feed.board("W:W5,6:B22,23")
    feed.hand()
    events = feed.board("B:W5,6:B18,23", frames=10)  # dark's 22-18, light to move
    assert kinds(events) == ["irregularity"] and events[0].reason == "dark moved out of turn (22-18)"
    assert feed.tracker.game.plies == []
    assert replay(feed.stored, "b1").current.game.positions() == feed.tracker.game.positions()


def test_a_board_no_game_reaches_is_refused_once_with_the_reason_and_nothing_starts():
    feed = from_the_board()
    events = feed.board("W:W29:B14")  # a light man on its crowning row
    [notice] = events
    assert notice.kind is EventKind.IRREGULARITY and isinstance(notice.detail, Irregularity)
    assert notice.detail.rule is IrregularityKind.IMPOSSIBLE and not notice.detail.open
    assert notice.reason == ("no game starts from the board read: no game reaches W:W29:B14: "
                             "a light man on 29, the row where it would have been crowned")
    [alert] = feed.tracker.logged_game.alerts.values()
    assert alert.kind is AlertKind.NOTICE and alert.fen == "W:W29:B14"
    feed.hand()
    assert feed.board("W:W29:B14") == []  # said once
    assert feed.tracker.game is None
    assert kinds(feed.board(COMPOSED)) == ["game_started"]  # a sane board: the game starts
    assert feed.tracker.logged_game.alerts == {}


def test_a_board_where_the_game_would_be_over_is_refused():
    feed = from_the_board(turn="dark")
    [notice] = feed.board("B:W1,2,3:B")  # the players have not set dark's men out yet
    assert "dark has no pieces" in notice.reason and feed.tracker.game is None
    [notice] = feed.board("B:W22,25:B29")
    assert "dark has no move" in notice.reason and feed.tracker.game is None


def test_a_worker_restarted_before_the_reading_still_waits_for_the_board():
    feed = from_the_board()
    tracker = GameTracker("b1", config=TrackerConfig(first_mover=Colour.DARK))
    tracker.restore(feed.stored)
    assert tracker.logged_game.current.awaits_board
    restarted = Feed(tracker)
    restarted.time, restarted.seq, restarted.stored = feed.time, feed.seq, list(feed.stored)
    [start] = restarted.board(COMPOSED)
    assert start.fen == COMPOSED and start.game == 2


def test_a_game_from_a_fen_begins_when_the_camera_sees_that_board():
    feed = started("B:W1,5:B25,30")
    decision(feed, game=2, action="new_game", rules={}, fen=COMPOSED)
    assert feed.board("B:W1,5:B25,30") == []  # the old board: no game yet
    [start] = feed.board(COMPOSED)
    assert start.kind is EventKind.GAME_STARTED and start.fen == COMPOSED
    assert start.detail.turn_named
    start_position = Position.from_fen(COMPOSED)
    feed.hand()
    feed.board(start_position.play(start_position.legal_moves()[0]), frames=10)
    assert len(feed.tracker.game.plies) == 1
    assert replay(feed.stored, "b1").current.game.positions() == feed.tracker.game.positions()
