"""`makhos calibrate` on a small folder of synthetic frames."""

import cv2
import numpy as np
import pytest

from makhos.calibration.adaptation import model_fingerprint
from makhos.calibration.profile import BoardProfile
from makhos.cli.main import main
from lab.render import Renderer
from makhos.vision.classifier import DEFAULT_MODEL

from synthetic import START_PIECES, distorted_scene, empty_views


@pytest.fixture(scope="module")
def frames(tmp_path_factory):
    """Three empty-board views, a hand setting up, then the start position."""
    scene = distorted_scene(seed=6)
    folder = tmp_path_factory.mktemp("calib")
    for k, image in enumerate(empty_views(scene, 3)):
        cv2.imwrite(str(folder / f"{k:02d}.png"), image)
    half = {s: p for s, p in START_PIECES.items() if s > 20}
    cv2.imwrite(str(folder / "03.png"), Renderer(scene).render(half, seed=3).image)
    start = Renderer(scene).render(START_PIECES, seed=4)
    cv2.imwrite(str(folder / "04.png"), start.image)
    return folder, start


def test_calibrate_writes_a_profile_that_numbers_the_board(frames, tmp_path, capsys):
    folder, start = frames
    out = tmp_path / "board.json"
    assert main(["calibrate", "--source", str(folder), "-o", str(out), "--views", "3",
                 "--first-mover", "light"]) == 0
    captured = capsys.readouterr()
    assert "5/5 frames" in captured.err  # the progress bar
    assert "empty board 3" in captured.out and "start position 1" in captured.out
    profile = BoardProfile.load(out)
    assert profile.played == start.played and profile.image_size == (1280, 720)
    assert np.abs(profile.location.corners - start.corners).max() < 2.0  # square 1's corner first
    assert profile.camera is not None and profile.camera.views == 3
    assert profile.camera.lens.bend == pytest.approx(-0.35, abs=0.05)
    assert profile.adaptation.model == model_fingerprint(DEFAULT_MODEL)
    assert profile.first_mover.value == "light"


def test_calibrate_without_a_start_position_says_so(frames, tmp_path, capsys):
    folder, _ = frames
    only_empty = tmp_path / "empty"
    only_empty.mkdir()
    for name in ("00.png", "01.png"):
        (only_empty / name).write_bytes((folder / name).read_bytes())
    assert main(["calibrate", "--source", str(only_empty), "-o", str(tmp_path / "p.json")]) == 2
    assert "start position was never seen" in capsys.readouterr().err
    assert not (tmp_path / "p.json").exists()
