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
    assert kinds[:2] == ["camera", "game_started"]  # the recording taken up, then its game
    assert kinds.count("move") >= len(truth.plies)
    assert "plies" in capsys.readouterr().out


def test_record_refuses_a_missing_or_corrupt_video(tmp_path, capsys):
    assert main(["record", str(tmp_path / "none.mp4")]) == 2
    assert "no video" in capsys.readouterr().err
    corrupt = tmp_path / "corrupt.mp4"
    corrupt.write_bytes(b"not a video at all")
    assert main(["record", str(corrupt)]) == 2
    assert "corrupt.mp4" in capsys.readouterr().err


def test_a_killed_record_leaves_every_event_it_made_in_its_log(clip, tmp_path):
    """The log is written as the game goes: killed mid-game, the file holds the events made
    so far, each whole, the same as the uninterrupted run's first ones; ``--resume`` then
    finishes the game from it."""
    import json
    import os
    import signal
    import subprocess
    import sys
    import time

    full = tmp_path / "full.jsonl"
    assert main(["record", str(clip), "-o", str(tmp_path / "full.pdn"), "--events", str(full)]) == 0
    expected = [json.loads(line) for line in full.read_text().splitlines()]
    moves_at = [i for i, e in enumerate(expected) if e["kind"] == "move"]
    assert len(moves_at) >= 4
    killed = tmp_path / "killed.jsonl"
    process = subprocess.Popen([sys.executable, "-m", "makhos.cli.main", "record", str(clip),
                                "-o", str(tmp_path / "killed.pdn"), "--events", str(killed)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and process.poll() is None:
        if killed.exists() and killed.read_text().count('"kind":"move"') >= 2:
            break
        time.sleep(0.05)
    assert process.poll() is None, "the record ended before it could be killed"
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    kept = [json.loads(line) for line in killed.read_text().splitlines()]
    assert 2 <= sum(e["kind"] == "move" for e in kept) < len(moves_at)
    assert kept == expected[:len(kept)]
    assert not (tmp_path / "killed.pdn").exists()
    last = kept[-1]["time"]
    assert main(["record", str(clip), "-o", str(tmp_path / "resumed.pdn"), "--events", str(killed),
                 "--resume", "--start", str(last)]) == 0
    resumed = read_game((tmp_path / "resumed.pdn").read_text()).game
    truth = read_game(clip.with_suffix(".pdn").read_text()).game
    assert resumed.positions() == truth.positions()
