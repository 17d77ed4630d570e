"""A tracker restored from the log goes on exactly as the one that wrote it (GameTracker.restore)."""

from __future__ import annotations

import numpy as np
import pytest

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


def captured_men_left(seed: int = 5) -> tuple[list[tuple[float, Position]], int]:
    """Settled boards of a random game up to its first capture and two plies after it, the
    captured man left standing for a while before a hand lifts it (5 frames each); the
    index of the first frame that shows the capture."""
    rng = np.random.default_rng(seed)
    game, boards = Game(), [Position.start()]
    capture = None
    while capture is None or len(game.plies) < capture + 2:
        moves = game.legal_moves()
        move = moves[rng.integers(len(moves))]
        if capture is None and move.is_capture:
            capture = len(game.plies) + 1
            before = game.position
            game.play(move)
            left = {s: before.piece_at(s) if s in move.captured else game.position.piece_at(s)
                    for s in range(1, 33)}
            boards.append(Position.from_pieces({s: p for s, p in left.items() if p is not None},
                                               game.position.turn))
        else:
            game.play(move)
        boards.append(game.position)
    frames = [board for board in boards for _ in range(5)]
    return [(0.1 * i, board) for i, board in enumerate(frames)], 5 * capture


@pytest.mark.parametrize("seed", [2, 13])
def test_a_tracker_restored_just_after_a_capture_waits_for_the_captured_man_to_be_lifted(seed):
    """Killed just after a capture was logged, with the captured man still on the board: the
    restored tracker reads it as the capture's pending removal, as the one that logged it
    did, not as the captured side's next move onto that square (seed 2: a wrong move logged,
    then taken back) or as one moved against the rules (seed 13: a false alert)."""
    frames, shown = captured_men_left(seed)
    whole = GameTracker("1")
    batches = run(whole, frames)
    assert any(e.kind is EventKind.MOVE and e.detail.captured for e in batches[shown + 1])
    for cut in range(shown + 2, shown + 5):  # the captured man still stands
        logged = [e.with_seq(n + 1) for n, e in enumerate(e for b in batches[:cut] for e in b)]
        again = GameTracker("1")
        again.restore(logged)
        rest = [e for b in run(again, frames[cut:]) for e in b]
        assert [(e.kind, e.move) for e in rest if e.kind is not EventKind.CLOCK] == \
            [(e.kind, e.move) for b in batches[cut:] for e in b if e.kind is not EventKind.CLOCK], cut
        assert again.game.positions() == whole.game.positions()
