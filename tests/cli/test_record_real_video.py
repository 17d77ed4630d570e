"""A real game video nobody rendered: `makhos record` on alexkassil's overhead clip (three
moves by real hands, ../shared/realdata, never in the repository) records the positions its
labelled frames show, in their order, with the sides named as the labels name them; and so
does the same clip in every other quarter turn (a camera at another side of the table).
Skipped where ../shared is absent."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from lab.realdata import ROOT
from makhos.cli.main import main
from makhos.engine.pdn import read_game
from makhos.engine.position import Position
from makhos.engine.squares import row_col

CLIP = ROOT / "alexkassil-playing-the-computer"
pytestmark = pytest.mark.skipif(not (CLIP / "checkers.mp4").is_file(),
                                reason="../shared/realdata is not here")


def grid_of(position: Position) -> np.ndarray:
    cells = np.full((8, 8), ".")
    for square in range(1, 33):
        piece = position.piece_at(square)
        if piece is not None:
            cells[row_col(square)] = piece.value
    return cells


def symmetries(cells: np.ndarray) -> list[np.ndarray]:
    """The eight ways a camera can see one board: four quarter turns, each mirrored."""
    turns = [np.rot90(cells, k) for k in range(4)]
    return turns + [t[:, ::-1] for t in turns]


def labelled_positions() -> list[np.ndarray]:
    """The clip's labelled frames in time order, each position once."""
    images = json.loads((CLIP / "labels.json").read_text(encoding="utf-8"))["images"]
    frames = sorted((i["frame"], np.array([list(r) for r in i["grid"]]))
                    for i in images if i["file"].startswith("checkers_f"))
    distinct: list[np.ndarray] = []
    for _, cells in frames:
        if not distinct or not np.array_equal(distinct[-1], cells):
            distinct.append(cells)
    return distinct


def turned_clip(quarter_turns: int, folder: Path) -> Path:
    """The clip as a camera at another side of the table would have filmed it."""
    source = cv2.VideoCapture(str(CLIP / "checkers.mp4"))
    frames = []
    while (ok := source.read())[0]:
        frames.append(np.ascontiguousarray(np.rot90(ok[1], quarter_turns)))
    path = folder / f"clip-{quarter_turns}.mp4"
    height, width = frames[0].shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"),
                             source.get(cv2.CAP_PROP_FPS), (width, height))
    for frame in frames:
        writer.write(frame)
    writer.release()
    return path


@pytest.mark.parametrize("quarter_turns", range(4))
def test_record_follows_a_real_clip_move_by_move(tmp_path, quarter_turns):
    clip = CLIP / "checkers.mp4" if quarter_turns == 0 else turned_clip(quarter_turns, tmp_path)
    pdn = tmp_path / "clip.pdn"
    assert main(["record", str(clip), "--men", "12", "-o", str(pdn)]) == 0
    recorded = [grid_of(p) for p in read_game(pdn.read_text(encoding="utf-8")).game.positions()]
    truth = labelled_positions()
    assert len(recorded) == len(truth), f"{len(recorded) - 1} plies recorded, {len(truth) - 1} played"
    # One view of the board (the camera did not move) must turn every recorded position into
    # the labelled one: squares, sides and the order of the moves.
    seen = [symmetries(cells) for cells in recorded]
    assert any(all(np.array_equal(views[k], t) for views, t in zip(seen, truth)) for k in range(8))
