"""The console shows the camera's rectified board once a move is accepted, fetched again
with each ply, in real headless Chromium (#45 item 2). Skips without Playwright or chromium."""

from __future__ import annotations

import time

import cv2
import numpy as np

from makhos.events import SQLiteLog
from makhos.server import create_app
from makhos.server.camera import FolderFrames
from makhos.server.config import BoardInfo, ServerConfig

from live_browser import require_browser, served
from server_sample import MOVES, game_events, move_event

TOKEN = "browser-token"
sync_api = require_browser()


def test_the_consoles_board_picture_appears_after_a_move(browser, tmp_path):
    log = SQLiteLog(tmp_path / "events.db")
    t0 = time.time() - 60
    for event in game_events("1", MOVES[:2], t0=t0):
        log.append(event)
    app = create_app(ServerConfig(events=log, referee_token=TOKEN, boards=(BoardInfo("1"),),
                                  camera=FolderFrames(tmp_path)))
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        with served(app) as url:
            page = context.new_page()
            page.goto(url + f"/referee/1?token={TOKEN}")
            sync_api.expect(page.locator("#moves .mv")).to_have_count(2)
            assert page.locator("figure.board-picture").is_hidden()  # no picture kept yet
            # The worker keeps the picture of the move it accepts, then logs the move.
            _, jpeg = cv2.imencode(".jpg", np.full((240, 240, 3), 128, np.uint8))
            (tmp_path / "1.board.jpg").write_bytes(jpeg.tobytes())
            log.append(move_event("1", MOVES[:3], time.time()))
            picture = page.locator("#board-picture")
            sync_api.expect(page.locator("figure.board-picture")).to_be_visible()
            sync_api.expect(picture).to_have_attribute("data-ply", "3")
            assert picture.evaluate("img => img.naturalWidth") == 240
    finally:
        context.close()
        log.close()
