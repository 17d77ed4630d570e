"""Events of a real game, made with the engine, as the tracker would append them."""

from __future__ import annotations

import json
from pathlib import Path

from makhos.engine import Rules
from makhos.engine.game import Game
from makhos.events import EventKind, GameEvent
from makhos.events.details import GameStarted

#: A legal game with captures, a chain-free crowning on 2 and a king at the end.
MOVES = ("25-21", "8-11", "26-23", "11-16", "23-19", "16x23", "27x18", "3-8", "18-14", "7-10",
         "14x7", "2x11", "30-26", "11-16", "21-17", "16-19", "17-13", "6-9", "13x6", "1x10")

TOKEN = "s3cret-token"  # the referee token of the test apps
T0 = 1_700_000_000.0  # a wall-clock time base, as a live camera gives


def game_events(board: str = "1", moves: tuple[str, ...] = MOVES, game: int = 1,
                t0: float = T0) -> list[GameEvent]:
    """game_started, then one move event per ply with the FEN after it."""
    played = Game()
    events = [GameEvent(board, EventKind.GAME_STARTED, t0, game=game, ply=0,
                        fen=played.position.fen(), detail=GameStarted(Rules()))]
    for index, text in enumerate(moves, start=1):
        side = played.position.turn
        ply = played.play_text(text)
        events.append(GameEvent(board, EventKind.MOVE, t0 + 10 * index, game=game, ply=index,
                                move=str(ply.move), fen=ply.after.fen(), side=side))
    return events


def keep_pictures(folder: Path, jpeg: bytes, moves: tuple[str, ...] = MOVES, board: str = "1",
                  game: int = 1, t0: float = T0) -> Path:
    """The rectified board at each ply of ``moves`` as a worker keeps it
    (``session.kept.KeptPlies``: ``<board>.plies/game-N/ply-NNN.jpg`` and ``.json``), each
    picture ``jpeg``; returns the game's folder."""
    from makhos.server.diagram import letters

    kept = folder / f"{board}.plies" / f"game-{game}"
    kept.mkdir(parents=True, exist_ok=True)
    played = Game()
    for ply, text in enumerate(moves, start=1):
        after = played.play_text(text).after
        (kept / f"ply-{ply:03d}.jpg").write_bytes(jpeg)
        meta = {"time": t0 + 10 * ply, "shows": ply, "seen": letters(after),
                "doubt": [5, 0.8 if ply == 2 else 0.99], "fen": after.fen()}
        (kept / f"ply-{ply:03d}.json").write_text(json.dumps(meta))
    return kept


def move_event(board: str, moves: tuple[str, ...], time: float) -> GameEvent:
    """The move event of the last of ``moves``, played from the start, at ``time``."""
    played = Game()
    for text in moves[:-1]:
        played.play_text(text)
    side, ply = played.position.turn, played.play_text(moves[-1])
    return GameEvent(board, EventKind.MOVE, time, game=1, ply=len(moves), move=str(ply.move),
                     fen=ply.after.fen(), side=side)
