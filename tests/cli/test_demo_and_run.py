"""The one-process commands: `makhos demo --check` and `makhos run` on a recording."""

import json
import socket
import urllib.request

import numpy as np

from makhos.cli.live import LiveBoard, LiveRun
from makhos.cli.main import main
from makhos.engine.pdn import read_game
from makhos.vision.sources import Frame, paced

SAMPLE_PDN = "models/sample/sample.pdn"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_demo_check_records_the_sample_game_and_serves_it(capsys):
    assert main(["demo", "--check", "--port", str(free_port())]) == 0
    out = capsys.readouterr().out
    assert "the same game" in out and "served event 'camera'" in out  # the source taken up comes first


def test_run_on_a_recording_serves_the_game_and_the_camera_view_to_the_referee():
    live = LiveRun(LiveBoard(source="models/sample/sample.mp4", port=free_port(), token="t0k3n"))
    try:
        live.start()
        assert live.wait_recorded(timeout=300)
        state = json.loads(urllib.request.urlopen(f"{live.url}/api/board/1", timeout=10).read())
        truth = read_game(open(SAMPLE_PDN, encoding="utf-8").read()).game
        assert read_game(live.pdn()).game.positions() == truth.positions()
        assert "alerts" in state
        request = urllib.request.Request(f"{live.url}/referee/1/snapshot.jpg",
                                         headers={"X-Referee-Token": "t0k3n"})
        assert urllib.request.urlopen(request, timeout=10).read()[:2] == b"\xff\xd8"  # a JPEG
        kept = urllib.request.Request(f"{live.url}/api/board/1/report/ply-010.jpg",
                                      headers={"X-Referee-Token": "t0k3n"})
        assert urllib.request.urlopen(kept, timeout=10).read()[:2] == b"\xff\xd8"  # for its report
        try:
            urllib.request.urlopen(f"{live.url}/referee/1/snapshot.jpg", timeout=10)
            raise AssertionError("the camera view must need the token")
        except urllib.error.HTTPError as error:
            assert error.code == 401
    finally:
        live.close()


def test_a_taken_port_is_a_clear_error(capsys):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["demo", "--check", "--port", str(port)]) == 2
    assert "choose another --port" in capsys.readouterr().err


def test_paced_hands_frames_on_at_their_own_time_stamped_with_the_wall_clock():
    now = [100.0]
    slept = []

    def sleep(seconds):
        slept.append(round(seconds, 6))
        now[0] += seconds

    image = np.zeros((2, 2, 3), np.uint8)
    frames = [Frame(image, t, i) for i, t in enumerate((0.0, 0.5, 1.0))]
    out = list(paced(frames, sleep=sleep, clock=lambda: now[0]))
    assert [f.timestamp for f in out] == [100.0, 100.5, 101.0]
    assert slept == [0.5, 0.5]
