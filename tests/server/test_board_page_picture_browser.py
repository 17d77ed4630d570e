"""The board page shows the camera's rectified board beside the diagram where the hall
profile turns it on, fetched again when a move is accepted, and nowhere else: not on a
board without it, not on the overlay unless asked (#45 item 2); and a live board's review
report keeps its style and filter under the server's policy; in real headless Chromium.
Skips without Playwright or chromium."""

from __future__ import annotations

import time

import cv2
import numpy as np

from makhos.engine.game import Outcome
from makhos.events import EventKind, GameEvent, SQLiteLog
from makhos.events.details import GameOver
from makhos.server import create_app
from makhos.server.camera import FolderFrames
from makhos.server.config import BoardInfo, ServerConfig

from live_browser import fresh_page, require_browser, served, shot
from server_sample import MOVES, game_events, keep_pictures, move_event

TOKEN = "browser-token"
sync_api = require_browser()


def test_the_picture_appears_after_a_move_where_it_is_on_and_nowhere_else(browser, tmp_path):
    log = SQLiteLog(tmp_path / "events.db")
    t0 = time.time() - 60
    for board in ("1", "2"):
        for event in game_events(board, MOVES[:2], t0=t0):
            log.append(event)
    _, grey = cv2.imencode(".jpg", np.full((240, 240, 3), 128, np.uint8))
    for board in ("1", "2"):
        keep_pictures(tmp_path, grey.tobytes(), MOVES[:2], board=board, t0=t0)
    app = create_app(ServerConfig(events=log, camera=FolderFrames(tmp_path),
                                  boards=(BoardInfo("1", "Table 1", picture=True), BoardInfo("2"))))
    try:
        with served(app) as url, fresh_page(browser, 1280, 900) as page:
            page.goto(url + "/board/1")
            picture = page.locator("#board-picture")
            sync_api.expect(picture).to_have_attribute("data-ply", "2")
            sync_api.expect(page.locator("figure.board-picture")).to_be_visible()
            # The worker keeps the picture of the move it accepts, then logs the move.
            _, light = cv2.imencode(".jpg", np.full((240, 240, 3), 230, np.uint8))
            keep_pictures(tmp_path, light.tobytes(), MOVES[:3], t0=t0)
            log.append(move_event("1", MOVES[:3], time.time()))
            sync_api.expect(page.locator("#moves .mv")).to_have_count(3)
            sync_api.expect(picture).to_have_attribute("data-ply", "3")
            assert picture.evaluate("img => img.naturalWidth") == 240
            shot(page, "board-picture-test.png")
            page.goto(url + "/board/2")  # kept by its worker, but not turned on
            sync_api.expect(page.locator("#moves .mv")).to_have_count(2)
            assert page.locator("figure.board-picture").count() == 0
            assert page.request.get(url + "/board/2/picture.jpg").status == 404
            page.goto(url + "/board/1/overlay")
            sync_api.expect(page.locator("#moves .mv")).to_have_count(3)
            assert page.locator("figure.board-picture").count() == 0
            page.goto(url + "/board/1/overlay?picture=1")
            sync_api.expect(page.locator("#board-picture")).to_have_attribute("data-ply", "3")
    finally:
        log.close()


def test_the_live_report_keeps_its_style_and_filter_under_the_pages_policy(browser, tmp_path):
    log = SQLiteLog(tmp_path / "events.db")
    events = game_events("1", MOVES[:4], t0=time.time() - 60)
    for event in events:
        log.append(event)
    log.append(GameEvent("1", EventKind.RESULT, events[-1].time + 1, reason="resignation",
                         detail=GameOver(Outcome.DARK_WINS)))
    _, grey = cv2.imencode(".jpg", np.full((240, 240, 3), 128, np.uint8))
    keep_pictures(tmp_path, grey.tobytes(), MOVES[:4], t0=events[0].time)  # ply 2 read at 80 %
    app = create_app(ServerConfig(events=log, referee_token=TOKEN, camera=FolderFrames(tmp_path),
                                  boards=(BoardInfo("1"),)))
    try:
        with served(app) as url, fresh_page(browser) as page:
            page.goto(url + f"/referee/1?token={TOKEN}")  # the console's cookie opens the pictures
            page.goto(url + "/api/board/1/report")
            assert page.locator("header dl").evaluate("dl => getComputedStyle(dl).display") == "grid"
            assert page.locator("tr.ply img").first.evaluate("img => img.naturalWidth") == 240
            page.check("#only-flagged")
            sync_api.expect(page.locator("tr.ply:visible")).to_have_count(1)
    finally:
        log.close()
