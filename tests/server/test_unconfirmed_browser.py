"""Plies the tracker recorded after a gap in an order the camera could not tell
(``MovePlayed.unconfirmed``) are marked on the live page for the referee to check, in
real headless Chromium; the PDN says the same in its comment. Skips cleanly without the
``playwright`` package or Debian's ``chromium``."""

from __future__ import annotations

import dataclasses

import pytest

from makhos.events import EventKind, SQLiteLog
from makhos.events.details import MovePlayed
from makhos.server import create_app
from makhos.server.config import BoardInfo, ServerConfig

from live_browser import require_browser, served
from server_sample import MOVES, game_events

sync_api = require_browser()
GAP_PLIES = (3, 4)  # plies 3 and 4 made while an arm hid the board, their order a guess


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    log = SQLiteLog(tmp_path_factory.mktemp("events") / "events.db")
    for event in game_events("1", MOVES[:6]):
        if event.kind is EventKind.MOVE and event.ply in GAP_PLIES:
            event = dataclasses.replace(event, detail=MovePlayed(gap=12.0, unconfirmed=True))
        log.append(event)
    with served(create_app(ServerConfig(events=log, boards=(BoardInfo("1"),), poll_seconds=0.05))) as url:
        yield url
    log.close()


@pytest.mark.parametrize("lang", ["en", "th"])
def test_unconfirmed_plies_are_marked_in_the_move_list(site, browser, lang):
    page = browser.new_page()
    page.goto(f"{site}/board/1?lang={lang}")
    sync_api.expect(page.locator("#moves .mv")).to_have_count(6)
    marked = page.locator("#moves .mv.unconfirmed")
    sync_api.expect(marked).to_have_count(len(GAP_PLIES))
    assert [int(p) for p in marked.evaluate_all("(b) => b.map((x) => x.dataset.ply)")] == list(GAP_PLIES)
    sync_api.expect(marked.first.locator(".mv-mark")).to_have_text("?")
    title = marked.first.get_attribute("title")
    assert title and title == ("unconfirmed: played while the board was hidden, in an order the camera could not tell"
                               if lang == "en" else "ยังไม่ยืนยัน: เดินขณะกระดานถูกบัง กล้องบอกลำดับการเดินไม่ได้")
    pdn = page.request.get(f"{site}/api/board/1/pdn").text()
    assert pdn.count("after a gap of 12 s, unconfirmed") == len(GAP_PLIES)
    page.close()
