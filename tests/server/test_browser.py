"""The pages in real headless Chromium (Playwright): live updates, alerts, keyboard.

Skips cleanly without the ``playwright`` package or Debian's ``chromium``. The run saves
screenshots of the hall, a board, the referee console and the OBS overlay to
``docs/screenshots/`` (the README shows them).
"""

from __future__ import annotations

import pytest

from engine import Colour
from engine.game import Outcome
from events import EventKind, GameEvent, SQLiteLog
from server import create_app
from events import decisions as ra
from server.config import BoardInfo, ServerConfig

from live_browser import chromium, require_browser, served, shot
from server_sample import MOVES, game_events

TOKEN = "browser-token"

sync_api = require_browser()


def referee(board: str, action: ra.RefereeAction, time: float, game: int = 1) -> GameEvent:
    return action.to_event(board, game, time)


def fill_hall(log: SQLiteLog, now: float) -> None:
    """Four boards in the states a hall shows: playing, alert open, finished, just set up."""
    log.append(referee("1", ra.SetPlayers("สมชาย ใจดี", "Malee Wong", "Quarter-final", 6), now))
    for event in game_events("1", MOVES[:13], t0=now - 200):
        log.append(event)
    log.append(referee("2", ra.SetPlayers("Anan K.", "ประยุทธ ศรี", "Quarter-final", 6), now))
    for event in game_events("2", MOVES[:6], t0=now - 100):
        log.append(event)
    log.append(GameEvent("2", EventKind.IRREGULARITY, now, side=Colour.LIGHT,
                         reason="missed capture: 16x23 was compulsory"))
    log.append(referee("3", ra.SetPlayers("Niran P.", "Somsak T.", "Quarter-final", 6), now))
    for event in game_events("3", MOVES, t0=now - 400):
        log.append(event)
    log.append(referee("3", ra.SetResult(Outcome.LIGHT_WINS, "resignation"), now))
    log.append(referee("4", ra.SetPlayers("Wichai", "Dao", "Tie-break", 2), now))
    log.append(referee("4", ra.NewGame({"setup": "golden", "golden_board": 2}), now))  # kings


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    import time

    log = SQLiteLog(tmp_path_factory.mktemp("events") / "events.db")
    fill_hall(log, time.time())
    boards = tuple(BoardInfo(str(n), f"Table {n}") for n in range(1, 5))
    app = create_app(ServerConfig(events=log, referee_token=TOKEN, boards=boards,
                                  event_name="PEA Open 2026", poll_seconds=0.05))
    with served(app) as url:
        yield url, log
    log.close()


@pytest.fixture(scope="module")
def browser():
    with chromium(sync_api) as launched:
        yield launched


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 860})
    yield context.new_page()
    context.close()


def test_hall_shows_every_board_with_alert_marker(site, page):
    url, _ = site
    page.goto(url + "/")
    cards = page.locator(".card")
    sync_api.expect(cards).to_have_count(4)
    sync_api.expect(page.locator('.card[data-board="2"] .alert-dot')).to_be_visible()
    sync_api.expect(page.locator('.card[data-board="3"] .card-result')).to_have_text("Light wins")
    shot(page, "hall.png")


def test_a_move_appended_to_the_log_shows_within_a_second(site, page):
    url, log = site
    page.goto(url + "/board/1")
    sync_api.expect(page.locator("#moves .mv")).to_have_count(13)
    import time

    # played 95 s ago: the clock of the next move shows its first yellow warning
    next_move = game_events("1", MOVES[:14], t0=time.time() - 95 - 140)[-1]
    log.append(next_move)  # as the recorder would, from another writer
    sync_api.expect(page.locator("#moves .mv").nth(13)).to_have_text(MOVES[13], timeout=1000)
    sync_api.expect(page.locator("#moves .mv.active")).to_have_attribute("data-ply", "14")
    sync_api.expect(page.locator("#clock")).to_have_attribute("data-level", "yellow")  # past 1:30


def test_keyboard_walks_through_the_game(site, page):
    url, _ = site
    page.goto(url + "/board/1")
    last = page.locator("#moves .mv").count()
    active = page.locator("#moves .mv.active")
    page.keyboard.press("ArrowLeft")
    sync_api.expect(active).to_have_attribute("data-ply", str(last - 1))
    page.keyboard.press("Home")
    sync_api.expect(active).to_have_count(0)
    assert page.locator("#board .piece").count() == 16  # the start
    page.keyboard.press("ArrowRight")
    sync_api.expect(active).to_have_attribute("data-ply", "1")
    page.keyboard.press("End")
    sync_api.expect(active).to_have_attribute("data-ply", str(last))
    page.locator("#numbers").check()
    shot(page, "board.png")


def test_referee_console_needs_the_token_and_shows_alerts(site, page):
    url, log = site
    assert page.goto(url + "/referee/2").status == 401
    assert page.goto(url + "/referee/2?token=wrong").status == 403
    page.goto(url + f"/referee/2?token={TOKEN}")
    sync_api.expect(page.locator("#alerts .alert")).to_have_count(1)
    import time

    log.append(GameEvent("2", EventKind.BOARD_MISMATCH, time.time(),
                         reason="no move explains the board: square 14 changed"))
    sync_api.expect(page.locator("#alerts .alert")).to_have_count(2, timeout=1000)
    first = page.locator("#alerts .alert").first
    first.get_by_role("button", name="Acknowledge").click()
    sync_api.expect(first).to_have_class("alert irregularity acknowledged")
    shot(page, "referee.png", full_page=True)
    moves = page.locator("#moves .mv")
    sync_api.expect(moves).to_have_count(6)
    page.locator('form[data-action="take_back"] button').click()  # a decision, through the log
    sync_api.expect(moves).to_have_count(5, timeout=1000)
    sync_api.expect(page.locator("#ref-status")).to_have_class("ref-status ok")


def test_overlay_is_1920_by_1080_and_transparent_on_request(site, browser):
    url, _ = site
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    page.goto(url + "/board/1/overlay")
    sync_api.expect(page.locator("#board .piece").first).to_be_visible()
    shot(page, "overlay.png")
    page.goto(url + "/board/1/overlay?bg=transparent")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgba(0, 0, 0, 0)"
    context.close()


def test_thai_language_toggle(site, page):
    url, _ = site
    page.goto(url + "/board/3?lang=th")
    sync_api.expect(page.locator("#result strong")).to_have_text("ฝ่ายขาวชนะ")
    shot(page, "board-thai.png")
    page.locator(".lang-toggle").click()
    sync_api.expect(page.locator("#result strong")).to_have_text("Light wins")


def test_embed_flips_on_request(site, page):
    url, _ = site
    page.set_viewport_size({"width": 900, "height": 560})
    page.goto(url + "/board/4/embed?flip=1")
    # golden board 2: dark kings on 30 and 31; flipped, dark sits at the top
    king = page.locator('#board .piece.dark.king[data-square="31"]')
    sync_api.expect(king).to_have_count(1)
    assert float(king.locator("circle").first.get_attribute("cy")) < 400  # top half of 800
    shot(page, "embed.png")
