"""The calibration page: behind the referee token, shows the reading, saves dragged corners."""

import numpy as np
import pytest

from makhos.calibration.desk import ProfileDesk
from makhos.calibration.profile import BoardProfile
from makhos.events import SQLiteLog
from lab.render import Renderer, sample_scene
from makhos.server import create_app
from makhos.server.config import BoardInfo, ServerConfig

from synthetic import START, START_PIECES

TOKEN = "calibrate-me"
AUTH = {"X-Referee-Token": TOKEN}


@pytest.fixture(scope="module")
def start_frame():
    return Renderer(sample_scene(np.random.default_rng(5), held_out=True)).render(START_PIECES, seed=1)


@pytest.fixture
def desk(tmp_path, start_frame):
    path = tmp_path / "board.json"
    BoardProfile((1280, 720), start_frame.corners.astype(float), 0, start_frame.played).save(path)
    desk = ProfileDesk("1", path)
    desk.offer(start_frame.image)
    return desk


@pytest.fixture
def client(desk):
    log = SQLiteLog()
    app = create_app(ServerConfig(events=log, referee_token=TOKEN, calibration=desk,
                                  boards=(BoardInfo("1"), BoardInfo("2"))))
    yield app.test_client()
    app.extensions["makhos"].close()
    log.close()


@pytest.mark.parametrize("url", ["/referee/1/calibration", "/api/referee/1/calibration",
                                 "/referee/1/calibration/frame.jpg", "/referee/1/calibration/board.jpg"])
def test_the_page_needs_the_referee_token(client, url):
    assert client.get(url).status_code == 401
    assert client.get(url, headers={"X-Referee-Token": "wrong"}).status_code == 403
    assert client.get(url, headers=AUTH).status_code == 200


def test_saving_needs_the_token(client, desk):
    body = {"corners": desk.profile.corners.tolist(), "quarter_turns": 1}
    assert client.post("/api/referee/1/calibration", json=body).status_code == 401
    assert client.post("/api/referee/1/calibration", json=body,
                       headers={"X-Referee-Token": "wrong"}).status_code == 403
    assert BoardProfile.load(desk.path).quarter_turns == 0


def test_the_page_shows_the_corners_and_the_reading_of_each_square(client, start_frame):
    page = client.get("/referee/1/calibration", headers=AUTH)
    assert b"calibration.js" in page.data and b"board.json" in page.data
    state = client.get("/api/referee/1/calibration", headers=AUTH).get_json()
    assert np.allclose(state["corners"], start_frame.corners, atol=0.1)
    read = "".join(square["label"] for square in state["squares"])
    assert len(read) == 32 and read.lower() == START  # men may read as kings, never misplaced
    for url in ("/referee/1/calibration/frame.jpg", "/referee/1/calibration/board.jpg?corners="
                + ",".join(str(v) for v in start_frame.corners.ravel()) + "&turns=2"):
        assert client.get(url, headers=AUTH).data[:2] == b"\xff\xd8"  # a JPEG


def test_dragged_corners_are_saved_and_handed_to_the_reader(client, desk, start_frame):
    moved = (start_frame.corners + [3.0, -2.0]).round(1)
    response = client.post("/api/referee/1/calibration", headers=AUTH,
                           json={"corners": moved.tolist(), "quarter_turns": 2})
    assert response.status_code == 200 and response.get_json()["quarter_turns"] == 2
    saved = BoardProfile.load(desk.path)
    assert np.allclose(saved.corners, moved) and saved.quarter_turns == 2
    assert np.allclose(saved.location.corners[0], moved[2])  # square 1's corner moved too
    handed = desk.take_saved()
    assert handed is not None and np.allclose(handed.corners, moved)
    assert desk.take_saved() is None  # once


@pytest.mark.parametrize("body", [{"corners": [[1, 2], [3, 4]]}, {"quarter_turns": 1},
                                  {"corners": [[100, 100], [100, 600], [900, 600], [900, 100]]},
                                  {"corners": [[100, 100], [900, 100], [900, 600], [100, 9999]]},
                                  {"corners": "here", "quarter_turns": 1}])
def test_unusable_corners_are_refused_and_the_profile_is_kept(client, desk, body):
    before = desk.path.read_text()
    response = client.post("/api/referee/1/calibration", headers=AUTH, json=body)
    assert response.status_code == 400 and response.get_json()["message"]
    assert desk.path.read_text() == before and desk.take_saved() is None


def test_a_board_without_a_profile_has_no_calibration_page(client):
    assert client.get("/referee/2/calibration", headers=AUTH).status_code == 404
    assert client.get("/referee/9/calibration", headers=AUTH).status_code == 404
