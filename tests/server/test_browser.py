"""The pages in real headless Chromium (Playwright): live updates, alerts, keyboard, the
address of a position, the overlay's transparency by pixel, the embed on a phone.

Skips cleanly without the ``playwright`` package or Debian's ``chromium``. Screenshots of
every page at 1280x800 and 390x844 go to a temporary folder, or to ``docs/screenshots/``
with ``MAKHOS_REFRESH_SCREENSHOTS=1`` (live_browser.shots_folder).
"""

from __future__ import annotations

import re
import time

import cv2
import numpy as np
import pytest

from makhos.engine import Colour, Position
from makhos.engine.game import Outcome
from makhos.events import EventKind, GameEvent, SQLiteLog
from makhos.events import decisions as ra
from makhos.events.details import CameraNotice, CameraStatus, Crowned, CrowningPending
from makhos.session.annotate import write_health, write_snapshot
from makhos.session.health import VisionHealth
from makhos.server import create_app
from makhos.server.camera import FolderFrames
from makhos.server.config import BoardInfo, ServerConfig
from makhos.vision.occlusion import GateState

from live_browser import require_browser, served, shot
from server_sample import MOVES, game_events

TOKEN = "browser-token"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

sync_api = require_browser()


def referee(board: str, action: ra.RefereeAction, time: float, game: int = 1) -> GameEvent:
    return action.to_event(board, game, time)


def fill_hall(log: SQLiteLog, now: float) -> None:
    """Four boards in the states a hall shows: playing, alert open, finished, just set up
    (light moves first there)."""
    log.append(referee("1", ra.SetPlayers("สมชาย ใจดี", "Malee Wong", "2", 6), now))
    for event in game_events("1", MOVES[:13], t0=now - 300):
        log.append(event)
    log.append(referee("2", ra.SetPlayers("Anan K.", "ประยุทธ ศรี", "2", 6), now))
    for event in game_events("2", MOVES[:6], t0=now - 100):
        log.append(event)
    log.append(GameEvent("2", EventKind.IRREGULARITY, now, side=Colour.LIGHT,
                         reason="missed capture: 16x23 was compulsory"))
    log.append(referee("3", ra.SetPlayers("Niran P.", "Somsak T.", "1", 6), now))
    for event in game_events("3", MOVES, t0=now - 400):
        log.append(event)
    log.append(referee("3", ra.SetResult(Outcome.LIGHT_WINS, "resignation"), now))
    log.append(referee("4", ra.SetPlayers("Wichai", "Dao", "1", 2), now))
    log.append(referee("4", ra.NewGame({"setup": "golden", "golden_board": 2,  # kings
                                        "first_mover": "light"}), now))


BOARDS = (BoardInfo("1", "Table 1"), BoardInfo("2", "Table 2"), BoardInfo("3", "Table 3"),
          BoardInfo("4"))


def camera_of_board_2(folder) -> FolderFrames:
    """Board 2's camera, as a recorder leaves it: the annotated frame and the vision health."""
    frame = np.full((360, 480, 3), 90, np.uint8)
    cv2.rectangle(frame, (120, 60), (360, 300), (40, 120, 200), -1)
    write_snapshot(folder, "2", frame)
    write_health(folder, "2", VisionHealth(GateState.MOVING, 1.0, 2.4, 12.0))
    return FolderFrames(folder)


@pytest.fixture(scope="module")
def camera_folder(tmp_path_factory):
    return tmp_path_factory.mktemp("camera")


@pytest.fixture(scope="module")
def site(tmp_path_factory, camera_folder):
    log = SQLiteLog(tmp_path_factory.mktemp("events") / "events.db")
    fill_hall(log, time.time())
    app = create_app(ServerConfig(events=log, referee_token=TOKEN, boards=BOARDS,
                                  event_name="PEA Open 2026", poll_seconds=0.05,
                                  camera=camera_of_board_2(camera_folder)))
    with served(app) as url:
        yield url, log
    log.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport=DESKTOP)
    yield context.new_page()
    context.close()


def squares_of(page) -> set[int]:
    return {int(s) for s in page.locator("#board .piece").evaluate_all(
        "(pieces) => pieces.map((p) => p.dataset.square)")}


def test_hall_shows_every_board_with_alert_marker(site, page):
    url, _ = site
    page.goto(url + "/")
    cards = page.locator(".card")
    sync_api.expect(cards).to_have_count(4)
    sync_api.expect(page.locator('.card[data-board="2"] .alert-dot')).to_be_visible()
    sync_api.expect(page.locator('.card[data-board="3"] .card-result')).to_have_text("Light wins")


def test_a_move_appended_to_the_log_shows_within_a_second(site, page):
    url, log = site
    page.goto(url + "/board/1")
    sync_api.expect(page.locator("#moves .mv")).to_have_count(13)
    # played 95 s ago: the clock of the next move shows its first yellow warning
    next_move = game_events("1", MOVES[:14], t0=time.time() - 95 - 140)[-1]
    log.append(next_move)  # as the recorder would, from another writer
    sync_api.expect(page.locator("#moves .mv .mv-text").nth(13)).to_have_text(MOVES[13], timeout=1000)
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


def test_a_link_to_a_position_opens_it_and_the_back_button_walks_the_moves(site, page):
    url, _ = site
    fens = [e.fen for e in game_events("1", MOVES)]  # fens[n]: after ply n
    page.goto(url + "/board/1#ply=4")
    active = page.locator("#moves .mv.active")
    sync_api.expect(active).to_have_attribute("data-ply", "4")
    assert squares_of(page) == set(Position.from_fen(fens[4]).pieces())
    sync_api.expect(page.locator("#live-badge")).to_have_text(re.compile(r"^4 / 1[34]$"))  # not live
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.url.endswith("/board/1#game=1&ply=6")
    page.go_back()
    sync_api.expect(active).to_have_attribute("data-ply", "5")
    assert page.url.endswith("#game=1&ply=5")
    page.go_back()
    sync_api.expect(active).to_have_attribute("data-ply", "4")
    assert squares_of(page) == set(Position.from_fen(fens[4]).pieces())
    page.go_forward()
    sync_api.expect(active).to_have_attribute("data-ply", "5")
    page.locator('[data-nav="last"]').click()  # the end: live again, and the address says so
    assert page.url.endswith("/board/1")
    sync_api.expect(page.locator("#live-badge")).to_have_text("Live")


def test_a_query_ply_opens_the_start_and_clicking_a_move_puts_it_in_the_address(site, page):
    url, _ = site
    page.goto(url + "/board/1?ply=0")
    assert page.locator("#board .piece").count() == 16
    sync_api.expect(page.locator("#moves .mv.active")).to_have_count(0)
    page.locator('#moves .mv[data-ply="3"]').click()
    assert page.url.endswith("/board/1#game=1&ply=3")  # ?ply= gives way to the hash
    page.go_back()
    assert page.locator("#board .piece").count() == 16


def test_the_move_list_names_the_side_of_each_column(site, page):
    url, _ = site
    page.goto(url + "/board/1")
    heads = page.locator("#moves .move-head .move-side")
    sync_api.expect(heads).to_have_text(["Dark", "Light"])
    page.goto(url + "/board/4?lang=th")  # light moves first in this game: its column comes first
    sync_api.expect(heads).to_have_text(["ฝ่ายขาว", "ฝ่ายดำ"])


def test_the_move_list_shows_the_time_spent_on_each_move(site, page):
    url, _ = site
    page.goto(url + "/board/3")  # the sample game: a move every 10 s
    times = page.locator("#moves .mv .mv-time")
    sync_api.expect(times).to_have_count(len(MOVES))
    sync_api.expect(times.first).to_have_text("0:10")
    pdn = page.request.get(url + "/api/board/3/pdn").text()
    assert '[TimeControl "1/120"]' in pdn and pdn.count("{[%emt 0:00:10]}") == len(MOVES)


def test_referee_console_needs_the_token_and_shows_alerts(site, page, camera_folder):
    url, log = site
    assert page.goto(url + "/referee/2").status == 401
    assert page.goto(url + "/referee/2?token=wrong").status == 403
    camera_of_board_2(camera_folder)  # a recorder at work: its vision health is fresh
    page.goto(url + f"/referee/2?token={TOKEN}")
    sync_api.expect(page.locator("#alerts .alert")).to_have_count(1)
    sync_api.expect(page.locator("#vision")).to_contain_text(
        "Vision: moving · found in 100 % · camera shake 2.4 px · last read 12 s")
    log.append(GameEvent("2", EventKind.BOARD_MISMATCH, time.time(),
                         reason="no move explains the board: square 14 changed"))
    sync_api.expect(page.locator("#alerts .alert")).to_have_count(2, timeout=1000)
    first = page.locator("#alerts .alert").first
    first.get_by_role("button", name="Acknowledge").click()
    sync_api.expect(first).to_have_class("alert irregularity acknowledged")
    moves = page.locator("#moves .mv")
    sync_api.expect(moves).to_have_count(6)
    page.locator('form[data-action="take_back"] button').click()  # a decision, through the log
    sync_api.expect(moves).to_have_count(5, timeout=1000)
    sync_api.expect(page.locator("#ref-status")).to_have_class("ref-status ok")


def overlay_pixels(browser, url: str) -> np.ndarray:
    """The overlay at OBS's 1920x1080, as RGBA, with no background painted behind the page."""
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    page.goto(url)
    sync_api.expect(page.locator("#board .piece").first).to_be_visible()
    png = page.screenshot(omit_background=True)
    context.close()
    return cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_UNCHANGED)


def test_the_transparent_overlay_is_transparent_outside_the_board_by_pixel(site, browser):
    url, _ = site
    keyed = overlay_pixels(browser, url + "/board/1/overlay?bg=transparent")
    assert keyed.shape == (1080, 1920, 4)
    alpha = keyed[:, :, 3]
    # The margins beyond the board's shadow (it reaches about 45 px), the gap between the board
    # and the plates, the bottom and the right of the stage.
    for y, x in ((20, 20), (540, 20), (1066, 500), (540, 1052), (540, 1800), (1066, 1900)):
        assert alpha[y, x] == 0, (y, x)
    assert (alpha[100:990, 100:990] == 255).all()  # the board itself stays opaque
    plain = overlay_pixels(browser, url + "/board/1/overlay")
    # Without the option the page paints its background: no pixel is see-through (the PNG
    # then has no alpha channel at all).
    assert plain.shape[2] == 3 or (plain[:, :, 3] == 255).all()


def test_thai_page_speaks_thai_even_for_a_board_without_a_label(site, page):
    url, _ = site
    page.goto(url + "/board/3?lang=th")
    sync_api.expect(page.locator("#result strong")).to_have_text("ฝ่ายขาวชนะ")
    page.locator(".lang-toggle").click()
    sync_api.expect(page.locator("#result strong")).to_have_text("Light wins")
    page.goto(url + "/board/4?lang=th")
    sync_api.expect(page.locator("h1")).to_have_text("กระดาน 4")
    assert "Board" not in page.locator("body").inner_text()
    page.goto(url + "/?lang=th")
    sync_api.expect(page.locator('.card[data-board="4"] .title')).to_have_text("กระดาน 4")


def test_embed_flips_on_request(site, page):
    url, _ = site
    page.set_viewport_size({"width": 900, "height": 560})
    page.goto(url + "/board/4/embed?flip=1")
    # golden board 2: dark kings on 30 and 31; flipped, dark sits at the top
    king = page.locator('#board .piece.dark.king[data-square="31"]')
    sync_api.expect(king).to_have_count(1)
    assert float(king.locator("circle").first.get_attribute("cy")) < 400  # top half of 800


def test_the_embed_on_a_phone_gives_the_board_the_width_and_moves_one_line(site, browser):
    url, _ = site
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(url + "/board/3/embed")
    board = page.locator("#board").bounding_box()
    assert board["width"] >= 360  # the frame's width less its padding (it was 160 px)
    heights = page.locator("#moves .mv").evaluate_all("(b) => b.map((e) => e.getBoundingClientRect().height)")
    assert len(heights) == len(MOVES) and max(heights) < 1.5 * min(heights)  # none wraps
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    context.close()


def test_embed_options_size_theme_and_no_moves(site, page):
    url, _ = site
    page.goto(url + "/board/1/embed?size=300&theme=light&moves=0")
    assert round(page.locator("#board").bounding_box()["width"]) == 300
    assert not page.locator("#moves").is_visible()
    background = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(242, 240, 236)"  # the light theme's page colour


def test_a_browser_reconnecting_to_a_restarted_server_with_a_fresh_log_misses_nothing(browser, tmp_path):
    """The page last read seq 14 of the old log; the new log holds 4 events: it is told to
    start again and shows the new game, not what it had."""
    old_log, new_log = SQLiteLog(tmp_path / "old.db"), SQLiteLog(tmp_path / "new.db")
    for event in game_events("1", MOVES[:13]):
        old_log.append(event)
    for event in game_events("1", MOVES[:3]):
        new_log.append(event)
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    boards = (BoardInfo("1"),)
    with served(create_app(ServerConfig(events=old_log, boards=boards))) as url:
        page.goto(url + "/board/1")
        sync_api.expect(page.locator("#moves .mv")).to_have_count(13)
        page.wait_for_function("() => document.querySelector('#live-badge').textContent === 'Live'")
        port = int(url.rsplit(":", 1)[1])
    sync_api.expect(page.locator("#live-badge")).to_have_text("Reconnecting…")
    with served(create_app(ServerConfig(events=new_log, boards=boards)), port=port):
        sync_api.expect(page.locator("#moves .mv")).to_have_count(3, timeout=10_000)
        sync_api.expect(page.locator("#live-badge")).to_have_text("Live")
        assert squares_of(page) == set(Position.from_fen(game_events("1", MOVES[:3])[-1].fen).pieces())
    context.close()
    old_log.close()
    new_log.close()


def test_the_standings_page_follows_the_results_live(site, page):
    url, log = site
    page.goto(url + "/standings")
    rows = page.locator("table.standings tbody tr")
    sync_api.expect(rows).to_have_count(8)  # every named player of the four matches
    sync_api.expect(rows.first.locator(".player")).to_have_text("Somsak T.")  # board 3's win
    sync_api.expect(page.locator(".round-head")).to_have_text(["Round 2", "Round 1"])
    # Board 4: Wichai moves first (light) in game 1 and wins it.
    log.append(referee("4", ra.SetResult(Outcome.LIGHT_WINS, "resignation"), time.time()))
    wichai = page.locator("table.standings tr", has_text="Wichai")
    sync_api.expect(wichai.locator(".points")).to_have_text("2", timeout=5000)
    sync_api.expect(page.locator('.match-line[data-board="4"] .match-score')).to_have_text("2 – 0")
    page.locator('.match-line[data-board="4"] a').click()
    sync_api.expect(page.locator("#result strong")).to_have_text("Light wins")


@pytest.fixture
def one_board(tmp_path):
    """A board of its own, its game under way with wall-clock times: (url, log)."""
    log = SQLiteLog(tmp_path / "events.db")
    log.append(referee("1", ra.SetPlayers("Somchai", "Malee", "1", 2), time.time()))
    for event in game_events("1", MOVES[:8], t0=time.time() - 85):
        log.append(event)
    with served(create_app(ServerConfig(events=log, boards=(BoardInfo("1"),)))) as url:
        yield url, log
    log.close()


def crowning(square: int) -> GameEvent:
    return GameEvent("1", EventKind.CROWNING_PENDING, time.time(), side=Colour.DARK,
                     detail=CrowningPending(square))


def test_a_game_that_ends_looks_ended_on_the_board_page_the_embed_and_the_overlay(one_board, browser):
    url, log = one_board
    log.append(crowning(31))
    pages = []
    for path, viewport in (("/board/1", DESKTOP), ("/board/1/embed", PHONE),
                           ("/board/1/overlay", {"width": 1920, "height": 1080})):
        context = browser.new_context(viewport=viewport)
        pages.append(context.new_page())
        pages[-1].goto(url + path)
    board = pages[0]
    notice = board.locator("#alerts .alert.notice")
    sync_api.expect(notice).to_have_text("Crowning pending on 31")
    log.append(GameEvent("1", EventKind.CROWNED, time.time(), side=Colour.DARK, detail=Crowned(31)))
    sync_api.expect(notice).to_have_count(0)  # stacked on the camera: no longer pending
    log.append(crowning(30))
    sync_api.expect(notice).to_have_count(1)
    log.append(referee("1", ra.SetResult(Outcome.DARK_WINS, "resignation"), time.time()))
    for page in pages:  # the result ends the notice, the clock and LIVE everywhere
        sync_api.expect(page.locator("#result strong")).to_have_text("Dark wins")
        sync_api.expect(page.locator("#live-badge")).to_have_text("Finished")
        sync_api.expect(page.locator("#alerts .alert")).to_have_count(0)
        sync_api.expect(page.locator("#clock")).to_be_hidden()
    shot(board, "board-ended.png")
    for page in pages:
        page.context.close()


def test_when_the_recording_ends_the_clock_stops_and_the_page_says_so(one_board, page):
    url, log = one_board
    log.append(crowning(31))
    page.goto(url + "/board/1")
    sync_api.expect(page.locator("#live-badge")).to_have_text("Live")
    pending = page.locator("#alerts .alert", has_text="Crowning pending on 31")
    sync_api.expect(pending).to_have_count(1)
    log.append(GameEvent("1", EventKind.CAMERA, time.time(), detail=CameraNotice(CameraStatus.ENDED)))
    sync_api.expect(page.locator("#live-badge")).to_have_text("Camera ended")
    sync_api.expect(pending).to_have_count(0)  # no camera will see it stacked now
    sync_api.expect(page.locator("#alerts .camera-ended")).to_contain_text("no more moves are recorded")
    clock = page.locator("#clock .clock-time")
    stopped = clock.text_content()
    page.wait_for_timeout(1500)
    assert clock.text_content() == stopped  # it runs no more
    assert stopped not in ("—", "0:00")


PAGES = {  # screenshot name: (address, what must be on it)
    "hall": ("/", ".card"),
    "board": ("/board/1", "#moves .mv"),
    "board-finished": ("/board/3", "#result strong"),
    "board-thai": ("/board/3?lang=th", "#result strong"),
    "embed": ("/board/1/embed", "#moves .mv"),
    "standings": ("/standings", "table.standings"),
    "referee": (f"/referee/2?token={TOKEN}", "#alerts .alert"),
}


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280x800", "390x844"])
def test_every_page_loads_clean_and_fits_the_screen(site, browser, viewport):
    """No console error (no 404 favicon, nothing the CSP refused), no sideways scrolling,
    and a screenshot of each page at this size."""
    url, _ = site
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    suffix = "" if viewport is DESKTOP else "-phone"
    for name, (path, needed) in PAGES.items():
        page.goto(url + path)
        sync_api.expect(page.locator(needed).first).to_be_visible()
        page.wait_for_timeout(300)  # the stream's first burst
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= viewport["width"], (name, width)
        shot(page, f"{name}{suffix}.png", full_page=name in ("referee", "hall"))
    assert errors == []
    context.close()


def test_overlay_screenshot(site, browser):
    url, _ = site
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    page.goto(url + "/board/1/overlay")
    sync_api.expect(page.locator("#board .piece").first).to_be_visible()
    shot(page, "overlay.png")
    context.close()
