"""The commentators' analysis in real headless Chromium (issue #24's acceptance): the
evaluation bar, the best move's arrow and the line appear on the board page and the overlay,
follow a walk back through the game (#ply=N), and a public page never shows analysis of a
position newer than the broadcast delay (the referee's console, live, shows none at all).

Skips cleanly without the ``playwright`` package or Debian's ``chromium``. Screenshots go to
a temporary folder, or to ``docs/screenshots/`` with ``MAKHOS_REFRESH_SCREENSHOTS=1``.
"""

from __future__ import annotations

import re
import time
from dataclasses import replace

import pytest

from makhos.engine import Position, Rules
from makhos.events import EventKind, GameEvent, SQLiteLog
from makhos.events import decisions as ra
from makhos.events.details import GameStarted
from makhos.server import create_app
from makhos.server.config import AnalysisSettings, BoardInfo, ServerConfig

from live_browser import require_browser, served, shot
from server_sample import MOVES, game_events

sync_api = require_browser()

TOKEN = "browser-token"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
OVERLAY = {"width": 1920, "height": 1080}
QUICK = AnalysisSettings(seconds=5.0, depth=6)  # a fraction of a second a position
FENS = [e.fen for e in game_events("1", MOVES)]  # FENS[n]: the position after ply n
DELAY = 60.0
SHOWN, PLAYED = 12, 16  # plies the public sees (older than the delay), plies played
FORCED = "B:W10,11:BK18,26"  # board 2: dark to move wins in 5 plies (18x8 first)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """Board 1: 16 plies played, the last 4 within the broadcast delay (the public sees 12)."""
    log = SQLiteLog(tmp_path_factory.mktemp("events") / "events.db")
    t0 = time.time() - DELAY - 10 * SHOWN - 25  # the public's last move: 25 s ago, to it
    log.append(ra.SetPlayers("สมชาย ใจดี", "Malee Wong", "2", 6).to_event("1", 1, t0))
    events = game_events("1", MOVES[:PLAYED], t0=t0)
    for event in events[: SHOWN + 1]:
        log.append(event)  # long past: public at once
    log.append(GameEvent("2", EventKind.GAME_STARTED, t0, game=1, ply=0, fen=FORCED,
                         detail=GameStarted(Rules())))
    app = create_app(ServerConfig(events=log, referee_token=TOKEN,
                                  boards=(BoardInfo("1", "Table 1"), BoardInfo("2", "Table 2")),
                                  event_name="PEA Open 2026", broadcast_delay=DELAY, analysis=QUICK))
    with served(app) as url:
        for event in events[SHOWN + 1:]:
            log.append(replace(event, time=time.time()))  # played now: public in a minute
        yield url
    log.close()


def open_page(browser, url: str, viewport: dict):
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    return page, errors


def analysed(page, timeout: float = 20_000) -> None:
    """Wait until the analysis of the position on the page is drawn."""
    sync_api.expect(page.locator("#analysis")).not_to_have_class(re.compile("pending"), timeout=timeout)
    sync_api.expect(page.locator("#eval-bar")).not_to_have_class(re.compile("pending"))


def api_analysis(page, url: str, ply: int | None = None) -> dict:
    query = "" if ply is None else f"?ply={ply}"
    return page.request.get(f"{url}/api/board/1/analysis{query}").json()


def test_the_bar_the_best_move_and_the_line_appear_on_the_board_page(site, browser):
    page, errors = open_page(browser, site + "/board/1", DESKTOP)
    analysed(page)
    found = api_analysis(page, site)
    assert found["status"] == "ready" and found["fen"] == FENS[SHOWN]
    line = page.locator("#analysis .analysis-line")
    sync_api.expect(line).to_have_text(found["line"])
    assert re.match(r"^7\. \d+[-x]\d+", found["line"])  # ply 13 is dark's 7th move
    sync_api.expect(page.locator("#analysis .analysis-best")).to_have_text(f"best {found['best']['move']}")
    score = page.locator("#analysis .analysis-score").text_content()
    assert re.fullmatch(r"[+−]\d+\.\d\d|0\.00.*|(Dark|Light) wins in \d+ plies", score), score
    # The arrow starts on the best move's first square, where a piece of the side to move stands.
    arrow = page.locator("#board .best-move polyline")
    sync_api.expect(arrow).to_have_count(1)
    start = tuple(float(v) for v in arrow.get_attribute("points").split()[0].split(","))
    piece = page.locator(f'#board .piece[data-square="{found["best"]["path"][0]}"]')
    assert piece.get_attribute("class").startswith(f"piece {Position.from_fen(FENS[SHOWN]).turn.value}")
    centre = piece.locator("circle").first
    assert abs(float(centre.get_attribute("cx")) - start[0]) < 1
    # The bar is dark's share, from dark's side (the bottom): as the score says.
    share = page.evaluate("() => parseFloat(document.querySelector('#eval-bar .eval-fill').style.height)")
    assert (share > 50) == (found["score"]["dark"] > 0) or found["score"]["dark"] == 0
    bar, board = page.locator("#eval-bar").bounding_box(), page.locator("#board").bounding_box()
    assert bar["x"] + bar["width"] <= board["x"] and abs(bar["height"] - board["height"]) < 2
    assert page.evaluate("() => document.documentElement.scrollWidth") <= DESKTOP["width"]
    shot(page, "board-analysis.png")
    assert errors == []
    page.context.close()


def test_on_a_phone_the_bar_sits_beside_the_board_and_the_line_under_it(site, browser):
    page, errors = open_page(browser, site + "/board/1", PHONE)
    analysed(page)
    bar, board = page.locator("#eval-bar").bounding_box(), page.locator("#board").bounding_box()
    assert bar["x"] < board["x"] and board["width"] >= 300
    assert page.locator("#analysis").bounding_box()["y"] > board["y"] + board["height"]
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "board-analysis-phone.png")
    assert errors == []
    page.context.close()


def test_a_forced_win_is_said_as_such_and_fills_the_bar_from_the_winners_side(site, browser):
    page, errors = open_page(browser, site + "/board/2?flip=1", DESKTOP)  # dark at the top
    analysed(page)
    sync_api.expect(page.locator("#analysis .analysis-score")).to_have_text("Dark wins in 5 plies")
    sync_api.expect(page.locator("#analysis .analysis-best")).to_have_text("best 18x8")
    sync_api.expect(page.locator("#eval-bar .eval-label")).to_have_text("#5")
    # All dark, filled from dark's side (the top here), once the bar's transition has run.
    page.wait_for_function("""() => {
        const fill = document.querySelector('#eval-bar .eval-fill').getBoundingClientRect();
        const bar = document.querySelector('#eval-bar').getBoundingClientRect();
        return Math.abs(fill.height - bar.height) < 1 && Math.abs(fill.top - bar.top) < 1;
    }""", timeout=5000)
    page.goto(site + "/board/2?flip=1&lang=th")
    analysed(page)
    sync_api.expect(page.locator("#analysis .analysis-score")).to_have_text("ฝ่ายดำชนะใน 5 ตา")
    shot(page, "board-analysis-win.png")
    assert errors == []
    page.context.close()


def test_walking_back_shows_the_analysis_of_the_position_walked_to(site, browser):
    page, errors = open_page(browser, site + "/board/1#ply=4", DESKTOP)
    analysed(page)
    found = api_analysis(page, site, 4)
    assert found["fen"] == FENS[4]
    sync_api.expect(page.locator("#analysis .analysis-line")).to_have_text(found["line"])
    assert found["line"].startswith("3. ")  # ply 5 is dark's 3rd move
    page.keyboard.press("End")  # live again: the shown position's analysis comes back
    analysed(page)
    sync_api.expect(page.locator("#analysis .analysis-line")).to_have_text(api_analysis(page, site)["line"])
    assert errors == []
    page.context.close()


def test_no_public_page_shows_analysis_of_a_position_newer_than_the_delay(site, browser):
    pages = [open_page(browser, site + path, viewport)[0]
             for path, viewport in (("/board/1", DESKTOP), ("/board/1/overlay", OVERLAY))]
    shown = api_analysis(pages[0], site)
    assert shown["fen"] == FENS[SHOWN] and shown["ply"] == SHOWN
    for page in pages:
        analysed(page)
        sync_api.expect(page.locator("#moves .mv")).to_have_count(SHOWN)
        sync_api.expect(page.locator("#analysis .analysis-line")).to_have_text(shown["line"])
    # Nothing newer is analysed for anyone who asks, and the live state lies beyond.
    for ply in range(SHOWN + 1, PLAYED + 1):
        assert pages[0].request.get(f"{site}/api/board/1/analysis?ply={ply}").status == 404
    live = pages[0].request.get(f"{site}/api/referee/1", headers={"X-Referee-Token": TOKEN}).json()
    assert len(live["game"]["moves"]) == PLAYED and "analysis" not in live
    # The referee's console is live and shows no analysis at all.
    referee = pages[0].context.new_page()
    referee.goto(f"{site}/referee/1?token={TOKEN}")
    sync_api.expect(referee.locator("#moves .mv")).to_have_count(PLAYED)
    assert referee.locator("#eval-bar, #analysis, #board .best-move").count() == 0
    for page in pages:
        page.context.close()


def test_the_overlay_shows_the_bar_and_the_line_readable_over_video(site, browser):
    page, errors = open_page(browser, site + "/board/1/overlay?bg=transparent", OVERLAY)
    analysed(page)
    bar = page.locator("#eval-bar").bounding_box()
    assert bar["x"] >= 1000 and bar["x"] + bar["width"] <= 1060 and bar["height"] > 900  # in the gap
    text = page.locator(".ov-analysis .analysis")
    sync_api.expect(text.locator(".analysis-line")).to_have_text(api_analysis(page, site)["line"])
    assert text.bounding_box()["x"] >= 1060  # on the side column, on its own plate
    background = page.evaluate("() => getComputedStyle(document.querySelector('.ov-analysis .analysis')).backgroundColor")
    assert background.startswith("rgba(38, 36, 33")  # the plates' colour: readable over any video
    page.goto(site + "/board/1/overlay")  # the picture with its own background, as overlay.png
    analysed(page)
    shot(page, "overlay-analysis.png")
    assert errors == []
    page.context.close()
