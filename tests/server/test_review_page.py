"""`GET /api/board/ID/report`: a finished game's review report from the log and the
pictures its worker kept, behind the referee token (issue 45, item 3)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from makhos.engine.game import Game, Outcome
from makhos.events import EventKind, GameEvent
from makhos.events.details import GameOver
from makhos.server.camera import FolderFrames

from server_sample import MOVES, T0, TOKEN, game_events, keep_pictures

AUTH = {"X-Referee-Token": TOKEN}
JPEG = b"\xff\xd8kept\xff\xd9"


def keep(folder: Path, plies: int, game: int = 1) -> Path:
    return keep_pictures(folder, JPEG, MOVES[:plies], game=game)


def test_a_finished_games_report_shows_its_kept_pictures(make_app, log, tmp_path):
    events = game_events(moves=MOVES[:4])
    for event in events:
        log.append(event)
    keep(tmp_path, 3)  # the worker kept none of the last ply
    client = make_app(camera=FolderFrames(tmp_path)).test_client()
    assert client.get("/api/board/1/report").status_code == 401
    assert client.get("/api/board/1/report", headers=AUTH).status_code == 409  # not over yet
    log.append(GameEvent("1", EventKind.RESULT, T0 + 60, reason="resignation",
                         detail=GameOver(Outcome.DARK_WINS)))
    page = client.get("/api/board/1/report", headers=AUTH)
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert text.count('<tr class="ply') == 4 and text.count("report/ply-") == 3
    assert "no picture kept" in text
    assert '<tr class="ply flagged" data-ply="2">' in text  # 80 %: below the filter's line
    assert ">00:10<" in text  # times from the game's start, not the epoch
    policy = page.headers["Content-Security-Policy"]  # its own style and filter by hash, no other
    assert "style-src 'self' 'sha256-" in policy and "script-src 'self' 'sha256-" in policy
    assert "frame-ancestors 'none'" in policy and "unsafe-inline" not in policy
    picture = client.get("/api/board/1/report/ply-001.jpg", headers=AUTH)
    assert picture.status_code == 200 and picture.data == JPEG
    assert client.get("/api/board/1/report/ply-004.jpg", headers=AUTH).status_code == 404


def over(log, events: list[GameEvent], game: int = 1) -> None:
    for event in events:
        log.append(event)
    log.append(GameEvent("1", EventKind.RESULT, events[-1].time + 5, game=game, reason="resignation",
                         detail=GameOver(Outcome.DARK_WINS)))


def test_a_missing_corrupt_or_stale_picture_is_a_row_with_a_note_not_an_error(make_app, log, tmp_path):
    over(log, game_events(moves=MOVES[:5]))
    kept = keep(tmp_path, 5)
    (kept / "ply-001.jpg").write_bytes(JPEG[:5])  # cut short
    (kept / "ply-002.json").write_text("{not json")
    (kept / "ply-003.jpg").unlink()
    stale = json.loads((kept / "ply-004.json").read_text())
    (kept / "ply-004.json").write_text(json.dumps({**stale, "fen": Game().position.fen()}))
    page = make_app(camera=FolderFrames(tmp_path)).test_client().get("/api/board/1/report", headers=AUTH)
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and text.count('<tr class="ply') == 5
    assert text.count("report/ply-") == 1 and "report/ply-005.jpg" in text
    assert text.count("the picture kept cannot be read") == 2  # cut short, and gone
    assert "no picture kept" in text and "the picture kept is of another position" in text


def test_an_earlier_games_report_is_asked_by_its_number(make_app, log, tmp_path):
    first = game_events(moves=MOVES[:4])
    over(log, first)
    over(log, game_events(moves=MOVES[:2], game=2, t0=first[-1].time + 60), game=2)
    keep(tmp_path, 4, game=1)
    client = make_app(camera=FolderFrames(tmp_path)).test_client()
    text = client.get("/api/board/1/report?game=1", headers=AUTH).get_data(as_text=True)
    assert text.count('<tr class="ply') == 4 and text.count("report/ply-") == 4
    assert client.get("/api/board/1/report/ply-004.jpg?game=1", headers=AUTH).data == JPEG
    current = client.get("/api/board/1/report", headers=AUTH).get_data(as_text=True)
    assert current.count('<tr class="ply') == 2 and "report/ply-" not in current
    assert client.get("/api/board/1/report?game=3", headers=AUTH).status_code == 404
    assert client.get("/api/board/1/report?game=x", headers=AUTH).status_code == 400


def script_data(page: str, name: str) -> dict[str, str]:
    found = re.search(rf'<script id="{name}" type="application/json">(.*?)</script>', page)
    assert found is not None, f"no #{name} in the page"
    return json.loads(found.group(1))


def test_the_consoles_report_link_opens_with_the_consoles_cookie_alone(make_app, log):
    over(log, game_events(moves=MOVES[:3]))
    client = make_app().test_client()
    client.get(f"/referee/1?token={TOKEN}")  # the console swaps the token for its cookie
    console = client.get("/referee/1?lang=th").get_data(as_text=True)
    address = script_data(console, "page")["report"]
    assert script_data(console, "strings")["review_report"] == "รายงานตรวจทานเกม"
    report = client.get(f"{address}?game=1")  # no header: what a plain link sends
    assert report.status_code == 200 and "<title>" in report.get_data(as_text=True)
    assert report.get_data(as_text=True).count('<tr class="ply') == 3
    client.delete_cookie("makhos_referee")
    assert client.get(f"{address}?game=1").status_code == 401
