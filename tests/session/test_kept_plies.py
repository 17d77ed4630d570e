"""A live board's worker keeps one picture per ply of the current game, and no more: a
takeback or a new game deletes what they replace (#45 item 3)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import cv2
import numpy as np

from makhos.engine.game import Game
from makhos.server.diagram import letters
from makhos.session.review import PICTURE_PX, KeptPlies
from makhos.vision.geometry import BoardLocation
from makhos.vision.occlusion import GateState, GateStatus
from makhos.vision.pipeline import FrameResult
from makhos.vision.reading import Reading


def frame(game: Game, time: float) -> SimpleNamespace:
    """A session after a frame that read ``game``'s position on a board 10 px a square."""
    location = BoardLocation(np.float32([[0, 0], [80, 0], [80, 80], [0, 80]]),
                             np.diag([10.0, 10.0, 1.0]), 1.0, "grid")
    result = FrameResult(time, location, GateStatus(GateState.STILL, 0.0, True),
                         Reading.certain(game.position, time), "dark")
    return SimpleNamespace(last=result, image=np.zeros((80, 80, 3), np.uint8),
                           tracker=SimpleNamespace(game=game))


def test_the_pictures_follow_the_current_games_plies(tmp_path):
    kept, game = KeptPlies(tmp_path, "1"), Game()
    kept.observe(frame(game, 0.0))
    for time, move in enumerate(("26-23", "5-9"), start=1):
        game.play_text(move)
        kept.observe(frame(game, float(time)))
    folder = tmp_path / "1.plies"
    assert sorted(p.name for p in folder.iterdir()) == ["ply-001.jpg", "ply-001.json",
                                                        "ply-002.jpg", "ply-002.json"]
    meta = json.loads((folder / "ply-002.json").read_text())
    assert meta["seen"] == letters(game.position) and meta["shows"] == 2 and meta["time"] == 2.0
    assert (tmp_path / "1.board.jpg").read_bytes()[:2] == b"\xff\xd8"
    assert len(kept.pictures) == 2 and kept.pictures[0].jpeg is not None
    picture = cv2.imdecode(np.frombuffer(kept.pictures[1].jpeg or b"", np.uint8), cv2.IMREAD_COLOR)
    assert picture.shape[:2] == (PICTURE_PX, PICTURE_PX)  # the board, rectified
    game.take_back(1)
    kept.observe(frame(game, 3.0))
    assert sorted(p.name for p in folder.iterdir()) == ["ply-001.jpg", "ply-001.json"]
    kept.observe(frame(Game(), 4.0))  # a new game
    assert list(folder.iterdir()) == [] and not (tmp_path / "1.board.jpg").exists()
