"""A live board's worker keeps one picture per ply of each game, and no more: a takeback
takes its plies' pictures with it, a game the log does not hold loses its folder, a
restarted worker keeps what it kept, and whole games go, the oldest first, beyond the
board's budget (#45 item 3)."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import cv2
import numpy as np

from makhos.engine.game import Game
from makhos.server.diagram import letters
from makhos.session.kept import KeptPlies
from makhos.session.review import PICTURE_PX
from makhos.vision.geometry import BoardLocation
from makhos.vision.occlusion import GateState, GateStatus
from makhos.vision.pipeline import FrameResult
from makhos.vision.reading import Reading


def frame(game: Game, time: float, number: int = 1, shade: int = 0) -> SimpleNamespace:
    """A session after a frame that read ``game``'s position on a board 10 px a square,
    game ``number`` of the board's log (games 1 to ``number``)."""
    location = BoardLocation(np.float32([[0, 0], [80, 0], [80, 80], [0, 80]]),
                             np.diag([10.0, 10.0, 1.0]), 1.0, "grid")
    result = FrameResult(time, location, GateStatus(GateState.STILL, 0.0, True),
                         Reading.certain(game.position, time), "dark")
    games = [SimpleNamespace(number=n) for n in range(1, number + 1)]
    logged = SimpleNamespace(current=games[-1], games=games)
    image = np.random.default_rng(int(time)).integers(0, 255, (80, 80, 3), np.uint8) if shade else np.zeros((80, 80, 3), np.uint8)
    return SimpleNamespace(last=result, image=image, tracker=SimpleNamespace(game=game, logged_game=logged))


def play(kept: KeptPlies, moves: tuple[str, ...], number: int = 1, shade: int = 0) -> Game:
    game = Game()
    kept.observe(frame(game, 0.0, number, shade))
    for time, move in enumerate(moves, start=1):
        game.play_text(move)
        kept.observe(frame(game, float(time), number, shade))
    return game


def names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_the_pictures_follow_the_current_games_plies(tmp_path):
    kept = KeptPlies(tmp_path, "1")
    game = play(kept, ("26-23", "5-9"))
    folder = tmp_path / "1.plies" / "game-1"
    assert names(folder) == ["ply-001.jpg", "ply-001.json", "ply-002.jpg", "ply-002.json"]
    meta = json.loads((folder / "ply-002.json").read_text())
    assert meta["seen"] == letters(game.position) and meta["shows"] == 2 and meta["time"] == 2.0
    assert meta["fen"] == game.position.fen()
    assert (tmp_path / "1.board.jpg").read_bytes()[:2] == b"\xff\xd8"
    picture = cv2.imdecode(np.frombuffer((folder / "ply-002.jpg").read_bytes(), np.uint8), cv2.IMREAD_COLOR)
    assert picture.shape[:2] == (PICTURE_PX, PICTURE_PX)  # the board, rectified
    game.take_back(1)
    kept.observe(frame(game, 3.0))
    assert names(folder) == ["ply-001.jpg", "ply-001.json"]


def test_a_new_game_keeps_the_last_ones_pictures_and_a_game_the_log_lost_goes(tmp_path):
    kept = KeptPlies(tmp_path, "1")
    play(kept, ("26-23", "5-9"))
    kept.observe(frame(Game(), 4.0, number=2))  # game 2 begins
    assert not (tmp_path / "1.board.jpg").exists()  # game 1's board is not game 2's
    play(kept, ("26-23",), number=2)
    assert names(tmp_path / "1.plies") == ["game-1", "game-2"]
    assert len(names(tmp_path / "1.plies" / "game-1")) == 4
    # A worker started on a log begun afresh (game 1 again): the old games are not its.
    fresh = KeptPlies(tmp_path, "1")
    fresh.observe(frame(Game(), 0.0, number=1))
    assert names(tmp_path / "1.plies") == ["game-1"]
    assert names(tmp_path / "1.plies" / "game-1") == []  # no ply yet: what was there is another game's


def test_a_restarted_worker_keeps_the_pictures_of_the_plies_it_resumes(tmp_path):
    play(KeptPlies(tmp_path, "1"), ("26-23", "5-9"), shade=1)
    folder = tmp_path / "1.plies" / "game-1"
    before = (folder / "ply-001.jpg").read_bytes()
    game = Game()
    for move in ("26-23", "5-9"):
        game.play_text(move)
    resumed = KeptPlies(tmp_path, "1")
    resumed.observe(frame(game, 9.0, shade=1))  # another frame: it must not stand for plies 1 and 2
    assert (folder / "ply-001.jpg").read_bytes() == before
    assert json.loads((folder / "ply-002.json").read_text())["time"] == 2.0
    game.play_text("23-18")
    resumed.observe(frame(game, 10.0, shade=1))
    assert json.loads((folder / "ply-003.json").read_text())["time"] == 10.0


def test_whole_games_go_the_oldest_first_beyond_the_budget(tmp_path):
    moves = ("26-23", "5-9", "23-18")
    first = KeptPlies(tmp_path, "1")
    play(first, moves, shade=1)
    one_game = sum(f.stat().st_size for f in (tmp_path / "1.plies" / "game-1").iterdir())
    kept = KeptPlies(tmp_path, "1", budget=int(2.5 * one_game))
    for number in (2, 3, 4):
        play(kept, moves, number=number, shade=1)
    assert names(tmp_path / "1.plies") == ["game-3", "game-4"]
    total = sum(f.stat().st_size for f in (tmp_path / "1.plies").rglob("*") if f.is_file())
    assert total <= kept.budget
