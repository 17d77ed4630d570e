"""The calibration page in real headless Chromium: drag a corner, see the board, save.

Skips cleanly without ``playwright`` or Debian's ``chromium``. Saves the page to
``docs/screenshots/calibration.png`` (the README shows it).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from makhos.calibration.desk import ProfileDesk
from makhos.calibration.intrinsics import LensCalibration
from makhos.calibration.profile import BoardProfile
from makhos.events import SQLiteLog
from lab.render import Renderer, sample_scene
from makhos.server import create_app
from makhos.server.config import BoardInfo, ServerConfig
from makhos.vision.lens import Lens

from live_browser import require_browser, served, shot

sync_api = require_browser()

TOKEN = "calibration-token"
START_PIECES = {s: "l" for s in range(1, 9)} | {s: "d" for s in range(25, 33)}
BARREL = np.array([-0.3, 0.08, 0.0, 0.0, 0.0])  # a webcam's bend, so the page shows it undone
SCENE = 14  # black and white squares, yellow and blue men, a board filling most of the frame
OFF = np.array([-30.0, -22.0])  # how far the profile's first corner is off the board's


@pytest.fixture(scope="module")
def start_frame():
    scene = sample_scene(np.random.default_rng(SCENE), held_out=True)
    camera = dataclasses.replace(scene.camera, dist=BARREL)
    return Renderer(dataclasses.replace(scene, camera=camera)).render(START_PIECES, seed=1)


@pytest.fixture
def site(tmp_path, start_frame):
    """A running server with a calibration page over a profile whose first corner is off."""
    path = tmp_path / "board.json"
    camera = dataclasses.replace(sample_scene(np.random.default_rng(SCENE), held_out=True).camera)
    lens = Lens(camera.K, BARREL, (1280, 720))
    corners = start_frame.corners.astype(float)
    corners[0] += OFF
    BoardProfile((1280, 720), corners, 0, start_frame.played,
                 camera=LensCalibration(lens, 0.12, 12)).save(path)
    desk = ProfileDesk("1", path)
    desk.offer(start_frame.image)
    log = SQLiteLog()
    app = create_app(ServerConfig(events=log, referee_token=TOKEN, calibration=desk,
                                  boards=(BoardInfo("1", "Table 1"),), event_name="PEA Open 2026"))
    with served(app) as url:
        yield url, path, desk
    log.close()


def test_drag_a_corner_onto_the_board_and_save_the_profile(site, browser, start_frame):
    url, path, desk = site
    before = path.read_text()
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(f"{url}/referee/1/calibration?token={TOKEN}")
    assert "token=" not in page.url  # swapped for a cookie, out of the address bar
    sync_api.expect(page.locator("circle.corner-handle")).to_have_count(4)
    for image in ("#frame", "#board-view"):
        page.wait_for_function(f"() => document.querySelector('{image}').naturalWidth > 0")

    # Drag the handle from where the profile has it to where the camera sees the corner.
    svg = page.locator("#corners").bounding_box()
    scale = svg["width"] / 1280

    def on_screen(point):
        return svg["x"] + point[0] * scale, svg["y"] + point[1] * svg["height"] / 720

    target = start_frame.corners[0]
    handle = page.locator('circle.corner-handle[data-index="0"]').bounding_box()
    page.mouse.move(handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2)
    page.mouse.down()
    for step in (0.3, 0.7, 1.0):
        x, y = on_screen(target - OFF * (1 - step))
        page.mouse.move(x, y)
    page.mouse.up()
    page.wait_for_function("() => document.querySelector('#board-view').src.includes('corners=')")
    page.wait_for_function("() => document.querySelector('#board-view').complete"
                           " && document.querySelector('#board-view').naturalWidth > 0")

    page.locator("#save").click()
    sync_api.expect(page.locator("#calibration-status")).to_contain_text("board.json")
    saved = BoardProfile.load(path)
    assert path.read_text() != before
    # One screen pixel is 1280 / width camera pixels: the drop lands within about one.
    assert np.linalg.norm(saved.corners[0] - target) <= 1.5 / scale
    assert np.allclose(saved.corners[1:], start_frame.corners[1:], atol=0.1)
    assert desk.take_saved() is not None  # handed to the running board's reader

    # The reading after the save: every square of the start position, none misplaced.
    state = page.evaluate("fetch('/api/referee/1/calibration').then((r) => r.json())")
    read = "".join(square["label"] for square in state["squares"])
    assert read.lower() == "l" * 8 + "." * 16 + "d" * 8
    shot(page, "calibration.png", full_page=True)
    context.close()
