"""One truth: after every event, the live tracker's game is the game its log replays to,
through moves, takebacks, gaps with plies nobody saw, and restarts from the log."""

from __future__ import annotations

import time

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from makhos.engine import Colour, Position
from makhos.engine.game import Game
from makhos.events import SQLiteLog
from makhos.events.decisions import NewGame
from makhos.session import BoardSession
from makhos.session.session import DECISION_POLL
from makhos.tracker import GameTracker
from makhos.vision.reading import Reading

FPS = 30


class Table:
    """A board whose readings a session takes at 30 fps, as a camera would give them."""

    def __init__(self) -> None:
        self.log = SQLiteLog()
        self.time = 0.0
        self.session = self._session(GameTracker("1"))

    def _session(self, tracker: GameTracker) -> BoardSession:
        session = BoardSession(None, tracker, self.log)  # readings come made
        session.check_replay = True  # every event: the tracker's game against the log's replay
        return session

    def show(self, position: Position, seconds: float = 0.5) -> None:
        for _ in range(int(seconds * FPS)):
            self.time += 1 / FPS
            self.session.observe(self.time, Reading.certain(position, self.time))

    def hand(self, seconds: float = 0.4) -> None:
        for _ in range(int(seconds * FPS)):
            self.time += 1 / FPS
            self.session.observe(self.time, None)

    def restart(self) -> None:
        """A worker killed and started again: a fresh tracker restored from the log."""
        tracker = GameTracker("1")
        seen = tracker.restore(self.log.read_board("1"))
        self.session = self._session(tracker)
        self.session._seen = seen


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.lists(st.sampled_from(["move", "takeback", "gap", "restart"]),
                                                   min_size=4, max_size=10))
def test_the_live_game_is_the_log_replayed_after_every_event(seed: int, steps: list[str]) -> None:
    rng = np.random.default_rng(seed)
    game = Game()
    table = Table()
    table.show(game.position, 1.5)
    for step in steps:
        if game.result() is not None:
            break
        if step == "takeback" and game.plies:
            table.hand()
            table.show(game.positions()[-2], 1.0)
            game.take_back()
        elif step == "restart":
            table.restart()
            table.show(game.position, 0.5)
        else:
            plies = 2 if step == "gap" else 1
            for _ in range(plies):
                if game.result() is None:
                    moves = game.legal_moves()
                    game.play(moves[rng.integers(len(moves))])
            table.hand(3.0 if step == "gap" else 0.4)
            table.show(game.position, 1.0)
    table.session.assert_one_truth()
    live = table.session.tracker.game
    assert live is not None and live.positions() == game.positions()  # and it is the game played


def test_a_game_from_the_board_is_started_by_the_session_that_reads_the_decision_back() -> None:
    """The referee's decision comes through the log, as in a worker or the demo; the session
    reads it back, and its tracker starts the game from the board it reads next."""
    table = Table()
    table.show(Game().position, 1.0)
    table.log.append(NewGame({}, from_board=True, turn=Colour.LIGHT).to_event("1", 2, table.time))
    time.sleep(DECISION_POLL)  # the session looks at the log at most this often
    composed = Position.from_fen("W:W10,11,K27:B14,19,K31")
    table.show(composed, 0.5)
    live = table.session.tracker.logged_game.current
    assert live.number == 2 and live.game.start == composed and live.turn_named
    table.session.assert_one_truth()
