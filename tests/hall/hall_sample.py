"""Recorded games for the hall tests, and the PDN a log folds to (as the server shows it)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from makhos.engine.game import Game
from makhos.engine.pdn import write_game
from makhos.events import EventLog
from makhos.server.state import BoardState

ROOT = Path(__file__).resolve().parents[2]  # the repository, where ``python -m makhos.cli.main`` runs


def makhos(*args: str, token: str | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """A ``makhos`` command run as a user runs it, with the hall token in the environment
    only when given."""
    env = {k: v for k, v in os.environ.items() if k != "MAKHOS_HALL_TOKEN"}
    if token:
        env["MAKHOS_HALL_TOKEN"] = token
    return subprocess.run([sys.executable, "-m", "makhos.cli.main", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60)


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
