"""The console links each finished game's review report once the game is over, and the
link, carrying only the console's cookie, opens the report, in real headless Chromium
(#45). Skips without Playwright or chromium."""

from __future__ import annotations

import re
import time

import cv2
import numpy as np

from makhos.engine.game import Outcome
from makhos.events import EventKind, GameEvent, SQLiteLog
from makhos.events.details import GameOver
from makhos.server import create_app
from makhos.server.camera import FolderFrames
from makhos.server.config import BoardInfo, ServerConfig

from live_browser import fresh_page, require_browser, served
from server_sample import MOVES, game_events, keep_pictures

TOKEN = "browser-token"
sync_api = require_browser()


def test_the_console_links_the_report_of_a_game_over_and_the_link_opens_it(browser, tmp_path):
    log = SQLiteLog(tmp_path / "events.db")
    events = game_events("1", MOVES[:4], t0=time.time() - 60)
    for event in events:
        log.append(event)
    _, jpeg = cv2.imencode(".jpg", np.full((240, 240, 3), 128, np.uint8))
    keep_pictures(tmp_path, jpeg.tobytes(), MOVES[:4])
    app = create_app(ServerConfig(events=log, referee_token=TOKEN, boards=(BoardInfo("1"),),
                                  camera=FolderFrames(tmp_path)))
    try:
        with served(app) as url, fresh_page(browser, height=900) as page:
            page.goto(url + f"/referee/1?token={TOKEN}&lang=th")
            sync_api.expect(page.locator("#moves .mv")).to_have_count(4)
            links = page.locator("#review-reports a")
            assert page.locator("#review-reports").is_hidden()  # the game goes on: no report yet
            log.append(GameEvent("1", EventKind.RESULT, events[-1].time + 5, reason="resignation",
                                 detail=GameOver(Outcome.DARK_WINS)))
            sync_api.expect(links).to_have_count(1)
            sync_api.expect(links).to_have_text("รายงานตรวจทานเกม · เกม 1")
            with page.context.expect_page() as opened:
                links.click()
            report = opened.value
            report.wait_for_load_state()
            sync_api.expect(report).to_have_title(re.compile(r": review$"))
            sync_api.expect(report.locator("tr.ply")).to_have_count(4)
            first = report.locator("tr.ply img").first  # its pictures come with the cookie too
            sync_api.expect(first).to_be_visible()
            assert first.evaluate("img => img.complete && img.naturalWidth") > 0
    finally:
        log.close()
