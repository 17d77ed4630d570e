"""A tracker restored from the log goes on exactly as the one that wrote it (GameTracker.restore)."""

from __future__ import annotations

import numpy as np

from makhos.engine import Position
from makhos.engine.game import Game
from makhos.events import EventKind, GameEvent
from makhos.events.decisions import TakeBack
from makhos.tracker import GameTracker
from makhos.vision.reading import Reading


def script(seed: int = 3) -> list[tuple[float, Position]]:
    """Settled boards of a random game with a two-ply takeback, 5 frames each."""
    rng = np.random.default_rng(seed)
    game, boards, taken_back = Game(), [Position.start()], False
    while game.result() is None and len(game.plies) < 40:
        moves = game.legal_moves()
        game.play(moves[rng.integers(len(moves))])
        boards.append(game.position)
        if len(game.plies) == 12 and not taken_back:
            game.take_back(2)
            boards.append(game.position)
            taken_back = True
    frames = [board for board in boards for _ in range(5)]
    return [(0.1 * i, board) for i, board in enumerate(frames)]


def run(tracker: GameTracker, frames) -> list[list[GameEvent]]:
    return [tracker.observe(t, Reading.certain(board, t)) for t, board in frames]


def test_resumed_at_any_frame_the_game_ends_as_the_uninterrupted_one():
    frames = script()
    whole = GameTracker("1")
    batches = run(whole, frames)
    assert any(e.kind is EventKind.TAKEBACK for b in batches for e in b)
    for cut in range(0, len(frames), 13):
        logged = [e.with_seq(n + 1) for n, e in enumerate(e for b in batches[:cut] for e in b)]
        again = GameTracker("1")
        again.restore(logged)
        rest = [e for b in run(again, frames[cut:]) for e in b]
        assert again.game.positions() == whole.game.positions(), cut
        said = [(e.kind, e.move, e.fen) for b in batches[cut:] for e in b if e.kind is not EventKind.CLOCK]
        assert [(e.kind, e.move, e.fen) for e in rest if e.kind is not EventKind.CLOCK] == said, cut


def test_referee_decisions_in_the_log_are_applied_once_on_resume():
    frames = script()[:40]
    whole = GameTracker("1")
    logged = [e for b in run(whole, frames) for e in b]
    plies = len(whole.game.plies)
    logged.append(TakeBack(plies=1).to_event("1", game=1, time=99.0))
    again = GameTracker("1")
    assert again.restore([e.with_seq(n + 1) for n, e in enumerate(logged)]) == len(logged)
    assert len(again.game.plies) == plies - 1
