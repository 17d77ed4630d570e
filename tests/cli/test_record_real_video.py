"""A real game video nobody rendered: `makhos record` on alexkassil's overhead clip (three
moves by real hands, ../shared/realdata, never in the repository) records the positions its
labelled frames show, in their order, with the sides named as the labels name them; and so
does the same clip filmed again from the other sides of the table, and by hostile cameras
(``lab.realclip``). Skipped where ../shared is absent."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from lab.realclip import MEN, VIDEO, follows, hostile_clip, labelled_positions
from makhos.cli.main import main
from makhos.engine.pdn import read_game
from makhos.engine.position import Position

pytestmark = pytest.mark.skipif(not VIDEO.is_file(), reason="../shared/realdata is not here")


def turned_clip(quarter_turns: int, folder: Path) -> Path:
    """The clip as a camera at another side of the table would have filmed it."""
    source = cv2.VideoCapture(str(VIDEO))
    frames = []
    while (got := source.read())[0]:
        frames.append(np.ascontiguousarray(np.rot90(got[1], quarter_turns)))
    path = folder / f"clip-{quarter_turns}.mp4"
    height, width = frames[0].shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"mp4v"),
                             source.get(cv2.CAP_PROP_FPS), (width, height))
    for frame in frames:
        writer.write(frame)
    writer.release()
    return path


def recorded(video: Path) -> list[Position]:
    pdn = video.with_suffix(".pdn")
    assert main(["record", "--source", str(video), "--men", str(MEN), "-o", str(pdn)]) == 0
    return read_game(pdn.read_text(encoding="utf-8")).game.positions()


@pytest.mark.parametrize("quarter_turns", range(4))
def test_record_follows_a_real_clip_move_by_move(tmp_path, quarter_turns):
    video = VIDEO if quarter_turns == 0 else turned_clip(quarter_turns, tmp_path)
    positions = recorded(video)
    truth = labelled_positions()
    assert len(positions) == len(truth), f"{len(positions) - 1} plies recorded, {len(truth) - 1} played"
    assert follows(positions, truth)


@pytest.mark.parametrize("seed", [1, 3])
def test_record_follows_the_real_clip_through_a_hostile_side_on_camera(tmp_path, seed):
    """Seeds 1 and 3: the camera at either side of the table, slanted, rolled, wobbling,
    noisy and compressed at a low bit rate."""
    video, _ = hostile_clip(seed, tmp_path)
    assert follows(recorded(video), labelled_positions())
