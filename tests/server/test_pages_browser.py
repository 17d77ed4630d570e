"""Issue #32's page fixes in real headless Chromium: a ``#game=N&ply=M`` link opens that
game's position although another game is being played, the overlay's move plate is as tall
as its moves, and "Set result" takes two clicks. Skips without Playwright or chromium."""

from __future__ import annotations

import re
import time

import pytest

from makhos.engine import Position
from makhos.engine.game import Outcome
from makhos.events import SQLiteLog
from makhos.events import decisions as ra
from makhos.server import create_app
from makhos.server.config import BoardInfo, ServerConfig

from live_browser import require_browser, served, shot
from server_sample import MOVES, game_events

TOKEN = "browser-token"
sync_api = require_browser()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """Board 1: game 1 won by dark in 6 plies, game 2 under way (2 plies). Board 2: 2 plies."""
    log = SQLiteLog(tmp_path_factory.mktemp("events") / "events.db")
    now = time.time()
    log.append(ra.SetPlayers("Somchai", "Malee", "1", 2).to_event("1", 1, now))
    for event in game_events("1", MOVES[:6], t0=now - 300):
        log.append(event)
    log.append(ra.SetResult(Outcome.DARK_WINS, "resignation").to_event("1", 1, now))
    log.append(ra.NewGame({}).to_event("1", 2, now))
    for event in game_events("1", ("26-22", "7-11"), game=2, t0=now - 60)[1:]:
        log.append(event)
    for event in game_events("2", MOVES[:2], t0=now - 60):
        log.append(event)
    app = create_app(ServerConfig(events=log, referee_token=TOKEN,
                                  boards=(BoardInfo("1"), BoardInfo("2"))))
    with served(app) as url:
        yield url, log
    log.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    yield context.new_page()
    context.close()


def squares_of(page) -> set[int]:
    return {int(s) for s in page.locator("#board .piece").evaluate_all(
        "(pieces) => pieces.map((p) => p.dataset.square)")}


def test_a_link_to_a_ply_of_an_earlier_game_opens_that_game(site, page):
    url, _ = site
    fens = [e.fen for e in game_events("1", MOVES[:6])]
    page.goto(url + "/board/1#game=1&ply=3")
    badge = page.locator("#live-badge")
    sync_api.expect(badge).to_have_text(re.compile(r"1 · 3 / 6$"))
    sync_api.expect(page.locator("#moves .mv")).to_have_count(6)  # game 1's moves, not game 2's
    sync_api.expect(page.locator("#moves .mv.active")).to_have_attribute("data-ply", "3")
    assert squares_of(page) == set(Position.from_fen(fens[3]).pieces())
    page.keyboard.press("ArrowRight")
    assert page.url.endswith("/board/1#game=1&ply=4")
    page.keyboard.press("End")
    page.keyboard.press("End")  # past game 1's end: the game being played, live
    sync_api.expect(badge).to_have_text("Live")
    sync_api.expect(page.locator("#moves .mv")).to_have_count(2)
    page.go_back()
    sync_api.expect(page.locator("#moves .mv")).to_have_count(6)
    # The current game named in the link, and an old-style #ply= link, still work.
    page.goto(url + "/board/1#game=2&ply=1")
    sync_api.expect(page.locator("#moves .mv.active")).to_have_attribute("data-ply", "1")
    sync_api.expect(page.locator("#moves .mv")).to_have_count(2)


def test_the_overlay_move_plate_is_as_tall_as_its_moves(site, page):
    url, _ = site
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(url + "/board/2/overlay")
    sync_api.expect(page.locator("#moves .mv")).to_have_count(2)
    plate = page.locator("#moves").bounding_box()
    rows = page.locator("#moves li").evaluate_all("(li) => li.reduce((h, e) => h + e.offsetHeight, 0)")
    assert plate["height"] <= rows + 40  # a head and one row, not the 920 px column
    bottom = page.locator(".player-bar.bottom").bounding_box()
    # The bottom player follows the plates, no empty gap above it (issue #43).
    assert bottom["y"] - (plate["y"] + plate["height"]) < 200
    shot(page, "overlay-short.png")


def test_set_result_takes_a_second_click(site, page):
    url, log = site
    page.goto(url + f"/referee/2?token={TOKEN}")
    form = page.locator('form[data-action="set_result"]')
    form.locator("select").select_option("draw")
    before = len(log.read(after=0))
    form.locator("button").click()
    sync_api.expect(form.locator("button")).to_have_class(re.compile("confirming"))
    sync_api.expect(form.locator("button")).to_contain_text("Draw")
    time.sleep(0.5)
    assert len(log.read(after=0)) == before  # one click decided nothing
    form.locator("button").click()
    sync_api.expect(page.locator("#ref-status, .ref-status").first).to_contain_text("✓")
    assert log.read(after=0)[-1].detail.to_dict()["outcome"] == "draw"


def test_thai_is_drawn_with_the_font_the_pages_ship(site, page):
    """No CDN and no font of the machine needed: the Thai toggle and Thai pages load the
    shipped Waree (static/waree.woff) for the Thai script."""
    url, _ = site
    page.goto(url + "/board/1?lang=th")
    sync_api.expect(page.locator(".lang-toggle")).to_have_text("English")
    loaded = page.evaluate("""async () => {
        await document.fonts.ready;
        return [...document.fonts].filter((f) => f.family.includes("Makhos Thai"))
                                  .map((f) => f.status);
    }""")
    assert "loaded" in loaded, loaded
    assert page.evaluate("document.fonts.check('16px \"Makhos Thai\"', 'ภาษาไทย')")
    shot(page, "board-thai-font.png")
    page.goto(url + "/board/1")  # English: the Thai toggle's own word needs the font too
    sync_api.expect(page.locator(".lang-toggle")).to_have_text("ภาษาไทย")
    assert "loaded" in page.evaluate("""async () => {
        await document.fonts.ready;
        return [...document.fonts].filter((f) => f.family.includes("Makhos Thai")).map((f) => f.status);
    }""")
