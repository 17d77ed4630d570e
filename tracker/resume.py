"""resume: a fresh tracker brought to where a board's log leaves the game.

A worker killed mid-game (SIGKILL, power cut) restarts with an empty tracker; the log
holds everything it had said. Folding those events back in (starts, moves legal or
irregular, takebacks, open alerts, results, referee decisions) puts the tracker where it
was, so the next reading is explained against the right position: nothing already
logged is said again, and what happened meanwhile is explained as if no one had left.

What the log does not hold is lost and harmless: captured men not yet lifted (the
board shows them; the tracker reads them as the move's pending removals again only
until they are lifted) and the path of an irregular change still under alert.
"""

from __future__ import annotations

from typing import Iterable

from engine import Colour, Move, MoveText, Piece, Position, Rules
from engine.game import Game, Outcome, Result
from events import EventKind, GameEvent

from .tracker import Alert, GameTracker


def resume(tracker: GameTracker, events: Iterable[GameEvent]) -> int:
    """Fold a board's logged events, oldest first, into ``tracker``; returns the last seq."""
    last = 0
    for event in events:
        last = event.seq or last
        _HANDLERS.get(event.kind, _ignore)(tracker, event)
    return last


def _ignore(tracker: GameTracker, event: GameEvent) -> None:
    """Camera notices change nothing in the game."""


def _game_started(tracker: GameTracker, event: GameEvent) -> None:
    rules = Rules.from_dict(event.detail["rules"]) if "rules" in event.detail else tracker.rules
    start = Position.from_fen(event.fen) if event.fen else Position.start(rules)
    tracker.game = Game(rules, start)
    tracker.game_number = event.game
    tracker.alert, tracker.mismatch, tracker.overlay = None, False, {}
    tracker.clock.start(event.time)


def _move(tracker: GameTracker, event: GameEvent) -> None:
    game = tracker.game
    if game is None:
        return
    if not game.plies and event.side and event.side != game.position.turn.value:
        # The other side made the first move: it moves first (the tracker decided so).
        rules = game.rules.with_(first_mover=Colour(event.side))
        tracker.game = game = Game(rules, game.start.with_turn(rules.first_mover))
    after = Position.from_fen(event.fen) if event.fen else None
    move = game.move_named(event.move)
    stands = move is not None and (after is None or game.position.play(move) == after)
    if stands and not event.detail.get("irregular"):
        game.play(move)
    else:
        game.play_irregular(after or game.position, event.reason or "irregular", move or _path(event.move))
    tracker.clock.start(event.time)


def _irregularity(tracker: GameTracker, event: GameEvent) -> None:
    if event.detail.get("open", True) and event.fen:
        tracker.alert = Alert(event.reason or "irregular", str(event.detail.get("rule", "")),
                              Position.from_fen(event.fen), None)


def _alert_closed(tracker: GameTracker, event: GameEvent) -> None:
    tracker.alert = None


def _takeback(tracker: GameTracker, event: GameEvent) -> None:
    if tracker.game is not None:
        tracker.game.take_back(min(int(event.detail.get("plies", 1)), len(tracker.game.plies)))
    tracker.alert = None
    tracker.clock.start(event.time)


def _mismatch(tracker: GameTracker, event: GameEvent) -> None:
    if event.fen:
        tracker.mismatch = True
        tracker.alert = Alert(event.reason or "board mismatch", "illegal", Position.from_fen(event.fen), None)


def _matched(tracker: GameTracker, event: GameEvent) -> None:
    tracker.mismatch = False


def _crowning_pending(tracker: GameTracker, event: GameEvent) -> None:
    # The new king still shows as a man until the opponent stacks it.
    if event.side and "square" in event.detail:
        tracker.overlay[int(event.detail["square"])] = Piece.of(Colour(event.side), False)


def _clock(tracker: GameTracker, event: GameEvent) -> None:
    tracker.clock.tick(event.time)  # marks the signals given, so none is given twice


def _result(tracker: GameTracker, event: GameEvent) -> None:
    game = tracker.game
    outcome = event.detail.get("outcome")
    if game is not None and game.result() is None and outcome in {o.value for o in Outcome}:
        game.declare(Result(Outcome(outcome), event.reason or "declared"))


def _referee(tracker: GameTracker, event: GameEvent) -> None:
    tracker.decide(event)



def _path(text: str | None) -> Move | None:
    """The squares of an irregular ply's path, not checked against the rules."""
    try:
        return Move(MoveText.parse(text).squares) if text else None
    except ValueError:
        return None


_HANDLERS = {
    EventKind.GAME_STARTED: _game_started,
    EventKind.MOVE: _move,
    EventKind.IRREGULARITY: _irregularity,
    EventKind.ALERT_CLOSED: _alert_closed,
    EventKind.TAKEBACK: _takeback,
    EventKind.BOARD_MISMATCH: _mismatch,
    EventKind.BOARD_MATCHED: _matched,
    EventKind.CROWNING_PENDING: _crowning_pending,
    EventKind.CLOCK: _clock,
    EventKind.RESULT: _result,
    EventKind.REFEREE: _referee,
}
