"""The tracker's events, folded by the server, give the tracker's own game.

The server never imports the tracker; this test joins the two through the event log's
contract, so a change in what the tracker emits that the view would misread fails here.
"""

from __future__ import annotations

import numpy as np
import pytest

from engine import Colour, Position
from engine.game import Game
from events import EventKind
from server.state import BoardState

tracker = pytest.importorskip("tracker")
reading = pytest.importorskip("vision.reading")


class Board:
    """Shows positions to a tracker as certain readings at 30 fps; folds every event."""

    def __init__(self, start: Position | None = None) -> None:
        config = tracker.TrackerConfig(first_mover=Colour.DARK) if start else None
        self.tracker = tracker.GameTracker("b1", config=config) if config else tracker.GameTracker("b1")
        self.state = BoardState("b1")
        self.time = 0.0
        self.seq = 0
        self.kinds: list[str] = []
        if start is not None:
            self._fold(self.tracker.start_from(start, 0.0) or [])

    def _fold(self, events) -> None:
        for event in events:
            self.seq += 1
            self.kinds.append(event.kind.value)
            self.state.apply(event.with_seq(self.seq))

    def show(self, fen_or_position, frames: int = 5) -> None:
        position = (fen_or_position if isinstance(fen_or_position, Position)
                    else Position.from_fen(fen_or_position))
        for _ in range(frames):
            self.time += 1 / 30
            self._fold(self.tracker.observe(self.time, reading.Reading.certain(position, self.time)))

    def hand(self, frames: int = 10) -> None:
        for _ in range(frames):
            self.time += 1 / 30
            self._fold(self.tracker.observe(self.time, None))

    def agree(self) -> None:
        game = self.tracker.game
        record = self.state.current
        assert record.game.positions() == game.positions()
        assert [m.fen for m in record.moves] == [p.after.fen() for p in game.plies]
        assert [m.irregular for m in record.moves] == [p.irregularity for p in game.plies]


def test_a_random_game_folds_to_the_trackers_game():
    board = Board()
    board.show(Position.start())
    game = Game()
    rng = np.random.default_rng(3)
    while game.result() is None and len(game.plies) < 40:
        moves = game.legal_moves()
        game.play(moves[rng.integers(len(moves))])
        board.hand()
        board.show(game.position)
    board.agree()
    assert board.kinds[0] == "game_started"


def test_an_irregular_move_that_stands_and_its_alert():
    board = Board(Position.from_fen("B:W15,5:B18,22,30"))
    board.show("W:W15,5:B18,22,26")  # dark misses 18x11
    assert [a.kind for a in board.state.alerts.values()] == ["irregularity"]
    board.show("B:W15,9:B18,22,26")  # light plays on: the move stands
    board.agree()
    assert board.state.alerts == {}
    assert board.state.current.moves[0].irregular


def test_mismatch_then_matched_and_takeback():
    board = Board(Position.from_fen("B:W1,5:B25,30"))
    board.show("B:W1:B25,30", frames=8)  # a light man knocked off (a misread would be briefer)
    assert [a.kind for a in board.state.alerts.values()] == ["board_mismatch"]
    board.show("B:W1,5:B25,30")
    assert board.state.alerts == {}
    board.show("W:W1,5:B21,30")
    board.show("B:W1,5:B25,30")  # taken back
    board.agree()
    assert "takeback" in board.kinds and board.state.current.moves == []


def test_chain_shown_jump_by_jump_and_a_late_crowning():
    board = Board(Position.from_fen("B:W15,7,2:B19,30"))
    board.show("W:W15,7,2:B10,30")
    board.show("W:W15,7,2:B3,30", frames=3)
    board.hand(5)
    board.show("W:W2:BK3,30")
    board.agree()
    assert board.state.to_json()["game"]["last_move"] == {"path": [19, 10, 3], "captured": [7, 15]}
    assert EventKind.IRREGULARITY.value not in board.kinds
