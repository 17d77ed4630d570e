"""Board profiles in a hall: each board of hall.json names its camera's profile (makhos
calibrate's file), and its worker reads the camera with it; a profile that cannot be used
stops the worker before it watches anything, naming the file and the field."""

from __future__ import annotations

import dataclasses
import json

import cv2
import numpy as np
import pytest

from makhos.calibration.intrinsics import LensCalibration
from makhos.calibration.profile import BoardProfile
from makhos.cli.main import main
from makhos.engine import Colour, Rules
from makhos.events import EventKind, SQLiteLog
from lab.render import Renderer, sample_scene
from makhos.vision.lens import Lens
from makhos.worker.inputs import CameraInput, open_input
from makhos.worker.profile import board_plan

BARREL = np.array([-0.3, 0.08, 0.0, 0.0, 0.0])
START = {s: "l" for s in range(1, 9)} | {s: "d" for s in range(25, 33)}
RULES = Rules(count_rule_moves=10)  # the event's rules, as the profile carries them


@pytest.fixture(scope="module")
def hall(tmp_path_factory):
    """A hall folder: hall.json, board 1's profile in boards/, and its camera (a folder of
    two seconds of frames of the start position)."""
    folder = tmp_path_factory.mktemp("hall")
    scene = sample_scene(np.random.default_rng(14), held_out=True)
    scene = dataclasses.replace(scene, camera=dataclasses.replace(scene.camera, dist=BARREL))
    frame = Renderer(scene).render(START, seed=1)
    (folder / "camera").mkdir()
    ok, jpeg = cv2.imencode(".jpg", frame.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    for n in range(60):
        (folder / "camera" / f"{n:03d}.jpg").write_bytes(jpeg.tobytes())
    (folder / "boards").mkdir()
    lens = Lens(scene.camera.K, BARREL, (1280, 720))
    BoardProfile((1280, 720), np.roll(frame.corners, 1, axis=0).astype(float), 1, frame.played,
                 rules=RULES, first_mover=Colour.DARK,
                 camera=LensCalibration(lens, 0.1, 12)).save(folder / "boards" / "table1.json")
    hall_json = {"event": "PEA Open", "boards": [
        {"id": "1", "label": "Table 1", "source": str(folder / "camera"),
         "players": ["Somchai", "Malee"], "profile": "boards/table1.json"},
        {"id": "2", "label": "Table 2", "source": "0", "profile": "boards/missing.json"}]}
    (folder / "hall.json").write_text(json.dumps(hall_json))
    return folder


def test_a_board_profile_is_found_beside_the_hall_profile(hall):
    plan = board_plan(hall / "hall.json", "1")
    assert plan.profile == hall / "boards" / "table1.json" and plan.players == ("Somchai", "Malee")
    assert board_plan(hall / "hall.json", "2").profile == hall / "boards" / "missing.json"
    source = open_input(plan.source, profile=plan.profile)
    assert isinstance(source, CameraInput) and source.profile == plan.profile
    reader = source.reader()  # vision set up from the profile, not found again from the pieces
    assert reader.quarter_turns == 1 and reader.lens is not None
    assert reader.follower.lens is reader.lens


def test_a_board_profile_that_is_not_a_file_name_is_named(tmp_path):
    hall = tmp_path / "hall.json"
    hall.write_text('{"boards": [{"id": "3", "source": "0", "profile": 7}]}')
    with pytest.raises(ValueError, match=r"hall.json: board 3: profile must be"):
        board_plan(hall, "3")


def test_the_worker_reads_its_camera_with_the_board_profile(hall, tmp_path, capsys):
    events = tmp_path / "events.db"
    assert main(["worker", "--hall-profile", str(hall / "hall.json"), "--board", "1",
                 "--events", str(events)]) == 0
    log = SQLiteLog(events)
    started = [e for e in log.read("1", limit=10_000) if e.kind is EventKind.GAME_STARTED]
    log.close()
    assert started, "the start position was never read"
    rules = started[0].detail.rules
    assert rules.count_rule_moves == 10 and rules.first_mover is Colour.DARK  # the profile's


@pytest.mark.parametrize("case", ["missing", "not JSON", "played", "corners", "lens"])
def test_an_unusable_board_profile_stops_the_worker_before_it_starts(hall, tmp_path, capsys, case):
    good = json.loads((hall / "boards" / "table1.json").read_text())
    changes = {"played": (lambda d: d.update(played="green"), "played"),
               "corners": (lambda d: d.update(corners=d["corners"][:3]), "corners"),
               "lens": (lambda d: d["camera"].update(matrix="identity"), "camera.matrix")}
    path = tmp_path / "table1.json"
    if case == "missing":
        field = "file"
    elif case == "not JSON":
        path.write_text('{"version": 1, "image_size": [1280, ')
        field = "file"
    else:
        change, field = changes[case]
        change(good)
        path.write_text(json.dumps(good))
    events = tmp_path / "events.db"
    code = main(["worker", "--hall-profile", str(hall / "hall.json"), "--board", "1",
                 "--board-profile", str(path), "--events", str(events)])
    assert code == 2
    err = capsys.readouterr().err
    assert f"board profile {path}: {field}:" in err
    assert not events.exists()  # nothing was started, nothing logged


def test_a_hall_entry_naming_a_missing_profile_stops_that_worker(hall, tmp_path, capsys):
    events = tmp_path / "events.db"
    assert main(["worker", "--hall-profile", str(hall / "hall.json"), "--board", "2",
                 "--events", str(events)]) == 2
    err = capsys.readouterr().err
    assert f"board profile {hall / 'boards' / 'missing.json'}: file:" in err
    assert not events.exists()
