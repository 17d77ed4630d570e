"""The board profile: a round trip keeps everything; a bad file is a clear error, never defaults."""

import dataclasses
import json

import numpy as np
import pytest

from makhos.calibration.adaptation import SetAdaptation
from makhos.calibration.intrinsics import LensCalibration
from makhos.calibration.profile import VERSION, BoardProfile, ProfileError
from makhos.cli.main import main
from makhos.engine import Colour, Rules
from makhos.vision.lens import Lens


def a_profile() -> BoardProfile:
    lens = Lens(np.array([[900.0, 0, 639.5], [0, 900.0, 359.5], [0, 0, 1]]),
                np.array([-0.31, 0.08, 0, 0, 0]), (1280, 720))
    return BoardProfile(
        image_size=(1280, 720), corners=np.array([[400.5, 150.0], [880.0, 160.0], [900.0, 600.0],
                                                  [380.0, 590.0]]),
        quarter_turns=3, played="light", rules=Rules(men_per_side=12, count_rule_moves=10),
        first_mover=Colour.LIGHT, camera=LensCalibration(lens, 0.21, 9),
        adaptation=SetAdaptation("0123456789abcdef", np.array([200.0, 130, 140]),
                                 np.array([40.0, 128, 125]), -0.4, 2.75))


def test_a_profile_round_trips(tmp_path):
    path = tmp_path / "board.json"
    profile = a_profile()
    profile.save(path)
    back = BoardProfile.load(path)
    assert back.image_size == (1280, 720) and back.quarter_turns == 3 and back.played == "light"
    assert back.rules == profile.rules and back.first_mover is Colour.LIGHT
    assert np.allclose(back.corners, profile.corners)
    assert np.allclose(back.camera.lens.matrix, profile.camera.lens.matrix)
    assert np.allclose(back.camera.lens.distortion, profile.camera.lens.distortion)
    assert (back.camera.rms, back.camera.views) == (0.21, 9)
    assert back.adaptation.model == "0123456789abcdef"
    assert np.allclose(back.adaptation.reference_colours, profile.adaptation.reference_colours)
    assert (back.adaptation.piece_bias, back.adaptation.king_threshold) == (-0.4, 2.75)
    # The numbering: square 1's corner is the stored corner the quarter turns point at.
    assert np.allclose(back.location.corners[0], profile.corners[3])


def test_a_division_lens_round_trips_and_the_polynomial_five_still_read(tmp_path):
    """Profiles hold OpenCV's eight rational coefficients (the division term is k4); one
    written with the five polynomial ones reads as the same lens."""
    path = tmp_path / "board.json"
    profile = a_profile()
    division = Lens(profile.camera.lens.matrix, [0, 0, 0, 0, 0, 0.33, 0, 0], (1280, 720))
    dataclasses.replace(profile, camera=LensCalibration(division, 0.1, 12)).save(path)
    assert len(json.loads(path.read_text())["camera"]["distortion"]) == 8
    assert BoardProfile.load(path).camera.lens.bend == pytest.approx(-0.33)
    data = profile.to_json()
    data["camera"]["distortion"] = [-0.31, 0.08, 0, 0, 0]
    path.write_text(json.dumps(data))
    assert np.allclose(BoardProfile.load(path).camera.lens.distortion, [-0.31, 0.08, 0, 0, 0, 0, 0, 0])


def test_a_profile_without_lens_or_adaptation_round_trips(tmp_path):
    path = tmp_path / "board.json"
    bare = BoardProfile((640, 360), a_profile().corners / 2, 0, "dark")
    bare.save(path)
    back = BoardProfile.load(path)
    assert back.camera is None and back.adaptation is None and back.first_mover is None
    assert back.rules == Rules()


def _write(tmp_path, change) -> str:
    data = a_profile().to_json()
    change(data)
    path = tmp_path / "board.json"
    path.write_text(json.dumps(data))
    return path


BAD = {
    "version": (lambda d: d.update(version=VERSION + 1), "version"),
    "no version": (lambda d: d.pop("version"), "version"),
    "corners shape": (lambda d: d.update(corners=[[1, 2], [3, 4]]), "corners"),
    "corners anticlockwise": (lambda d: d.update(corners=d["corners"][::-1]), "corners"),
    "played": (lambda d: d.update(played="red"), "played"),
    "quarter turns": (lambda d: d.update(quarter_turns=5), "quarter_turns"),
    "first mover": (lambda d: d.update(first_mover="white"), "first_mover"),
    "rules": (lambda d: d["rules"].update(men_per_side=10), "rules"),
    "camera matrix": (lambda d: d["camera"].update(matrix=[[0, 0, 0]] * 3), "camera.matrix"),
    "distortion missing": (lambda d: d["camera"].pop("distortion"), "camera.distortion"),
    "distortion length": (lambda d: d["camera"].update(distortion=[-0.3, 0.1, 0]), "camera.distortion"),
    "distortion text": (lambda d: d["camera"].update(distortion=["a"] * 8), "camera.distortion"),
    "king threshold": (lambda d: d["adaptation"].update(king_threshold="high"),
                       "adaptation.king_threshold"),
    "colour": (lambda d: d["adaptation"].update(light_colour=[1, 2]), "adaptation.light_colour"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_a_malformed_field_is_named(tmp_path, case):
    change, field = BAD[case]
    path = _write(tmp_path, change)
    with pytest.raises(ProfileError) as error:
        BoardProfile.load(path)
    assert error.value.field == field
    assert str(path) in str(error.value) and field in str(error.value)


@pytest.mark.parametrize("text", ["", "{", '{"version": 1, "image_size": [12', "[1, 2]", "\x00\xff"])
def test_a_truncated_or_corrupt_file_is_an_error(tmp_path, text):
    path = tmp_path / "board.json"
    path.write_bytes(text.encode("latin-1"))
    with pytest.raises(ProfileError) as error:
        BoardProfile.load(path)
    assert error.value.field == "file" and str(path) in str(error.value)


def test_a_missing_file_is_an_error(tmp_path):
    with pytest.raises(ProfileError, match="missing.json"):
        BoardProfile.load(tmp_path / "missing.json")


def test_run_refuses_a_bad_profile_before_watching_anything(tmp_path, capsys):
    path = _write(tmp_path, lambda d: d.update(version=0))
    assert main(["run", "--source", str(tmp_path / "no-such-video.mp4"), "--board-profile", str(path)]) == 2
    err = capsys.readouterr().err
    assert "board profile" in err and "version" in err and str(path) in err
