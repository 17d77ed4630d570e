"""The console's new game from a position, clicked in real headless Chromium (#33): from the
board with the side to move, and a FEN the server refuses with its reason shown. Skips
without Playwright or chromium."""

from __future__ import annotations

import time

import pytest

from makhos.engine import Colour
from makhos.events import EventKind, SQLiteLog
from makhos.events import decisions as ra
from makhos.server import create_app
from makhos.server.config import BoardInfo, ServerConfig

from live_browser import require_browser, served
from server_sample import MOVES, game_events

TOKEN = "browser-token"
sync_api = require_browser()


@pytest.fixture
def console(browser, tmp_path):
    """Board 1 with game 1 under way, its console open: the form, the page and the log."""
    log = SQLiteLog(tmp_path / "events.db")
    for event in game_events("1", MOVES[:2], t0=time.time() - 60):
        log.append(event)
    app = create_app(ServerConfig(events=log, referee_token=TOKEN, boards=(BoardInfo("1"),)))
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    with served(app) as url:
        page = context.new_page()
        page.goto(url + f"/referee/1?token={TOKEN}")
        yield page.locator("form[data-from-position]"), page, log
    context.close()
    log.close()


def test_a_new_game_from_the_board_is_posted_with_the_side_to_move(console):
    form, page, log = console
    form.locator('select[name="turn"]').select_option("light")
    form.locator('input[name="fen"]').fill("W:W10:B14")  # not sent: the board is the start
    form.locator('button[value="board"]').click()
    sync_api.expect(page.locator("#ref-status")).to_contain_text("✓")
    decision = [e for e in log.read("1") if e.kind is EventKind.REFEREE][-1]
    assert decision.detail == ra.NewGame({}, from_board=True, turn=Colour.LIGHT) and decision.game == 2
    sync_api.expect(page.locator("#alerts .awaits-board")).to_contain_text("Waiting for the board")


def test_a_fen_the_server_refuses_shows_why_and_nothing_is_stored(console):
    form, page, log = console
    form.locator('input[name="fen"]').fill("W:W29:B14")
    form.locator('button[value="fen"]').click()
    sync_api.expect(page.locator("#ref-status")).to_contain_text(
        "✗ fen: no game reaches W:W29:B14: a light man on 29")
    assert [e for e in log.read("1") if e.kind is EventKind.REFEREE] == []
    form.locator('input[name="fen"]').fill("W:W10,11,K27:B14,19,K31")
    form.locator('button[value="fen"]').click()
    sync_api.expect(page.locator("#ref-status")).to_contain_text("✓")
    [decision] = [e for e in log.read("1") if e.kind is EventKind.REFEREE]
    assert decision.detail == ra.NewGame({}, fen="W:W10,11,K27:B14,19,K31")
