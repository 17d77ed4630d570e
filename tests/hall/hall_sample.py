"""Recorded games for the hall tests, and the PDN a log folds to (as the server shows it)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from makhos.engine.game import Game
from makhos.engine.pdn import write_game
from makhos.events import EventLog
from makhos.server.state import BoardState

ROOT = Path(__file__).resolve().parents[2]  # the repository, where ``python -m makhos.cli.main`` runs


def random_game(seed: int, plies: int = 30) -> Game:
    rng = np.random.default_rng(seed)
    game = Game()
    while game.result() is None and len(game.plies) < plies:
        moves = game.legal_moves()
        game.play(moves[rng.integers(len(moves))])
    return game


def recorded(folder: Path, seed: int, plies: int = 30) -> tuple[Game, Path]:
    game = random_game(seed, plies)
    path = folder / f"game-{seed}.pdn"
    path.write_text(write_game(game), encoding="utf-8")
    return game, path


def folded_pdn(log: EventLog, board: str) -> str:
    """The board's current game as the server's view state folds it from the log."""
    state = BoardState(board)
    for event in log.read_board(board):
        state.apply(event)
    return write_game(state.current.game)
