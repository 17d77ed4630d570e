"""A rendered game video through the whole pipeline: `makhos record` gives the true PDN."""

from pathlib import Path

import numpy as np
import pytest

from makhos.cli.main import main
from makhos.engine.pdn import read_game
from lab.render import sample_scene
from lab.videos import script_game
from lab.videos.render import write_video


@pytest.fixture(scope="module")
def clip(tmp_path_factory) -> Path:
    """A short game with one injected irregularity, 640x360, held-out palettes."""
    script = script_game(24, plies=8, irregularities=1)
    scene = sample_scene(np.random.default_rng(24), held_out=True, elevation=(50.0, 80.0),
                         size=(640, 360))
    return write_video(script, scene, tmp_path_factory.mktemp("clip") / "game.mp4", seed=24)


def test_record_writes_the_true_game_and_its_events(clip, tmp_path, capsys):
    pdn, events = tmp_path / "game.pdn", tmp_path / "events.jsonl"
    assert main(["record", str(clip), "-o", str(pdn), "--events", str(events)]) == 0
    recorded = read_game(pdn.read_text()).game
    truth = read_game(clip.with_suffix(".pdn").read_text()).game
    assert recorded.positions() == truth.positions()
    kinds = [line.split('"kind":"')[1].split('"')[0] for line in events.read_text().splitlines()]
    assert kinds[0] == "game_started"
    assert kinds.count("move") >= len(truth.plies)
    assert "plies" in capsys.readouterr().out


def test_record_refuses_a_missing_or_corrupt_video(tmp_path, capsys):
    assert main(["record", str(tmp_path / "none.mp4")]) == 2
    assert "no video" in capsys.readouterr().err
    corrupt = tmp_path / "corrupt.mp4"
    corrupt.write_bytes(b"not a video at all")
    assert main(["record", str(corrupt)]) == 2
    assert "corrupt.mp4" in capsys.readouterr().err
