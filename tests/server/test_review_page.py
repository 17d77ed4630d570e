"""`GET /api/board/ID/report`: a finished game's review report from the log and the
pictures its worker kept, behind the referee token (issue 45, item 3)."""

from __future__ import annotations

import json
from pathlib import Path

from makhos.engine.game import Game, Outcome
from makhos.events import EventKind, GameEvent
from makhos.events.details import GameOver
from makhos.server.camera import FolderFrames
from makhos.server.diagram import letters

from server_sample import MOVES, T0, TOKEN, game_events

AUTH = {"X-Referee-Token": TOKEN}
JPEG = b"\xff\xd8kept\xff\xd9"


def keep(folder: Path, plies: int) -> None:
    """Pictures as ``session.review.KeptPlies`` leaves them, for the first ``plies`` plies."""
    kept = folder / "1.plies"
    kept.mkdir(parents=True)
    game = Game()
    for ply in range(1, plies + 1):
        after = game.play_text(MOVES[ply - 1]).after
        (kept / f"ply-{ply:03d}.jpg").write_bytes(JPEG)
        meta = {"time": T0 + 10 * ply, "shows": ply, "seen": letters(after), "doubt": [5, 0.8 if ply == 2 else 0.99]}
        (kept / f"ply-{ply:03d}.json").write_text(json.dumps(meta))


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
    assert '<tr class="ply flagged" data-ply="2">' in text  # 80 %: below the filter's line
    assert ">00:10<" in text  # times from the game's start, not the epoch
    picture = client.get("/api/board/1/report/ply-001.jpg", headers=AUTH)
    assert picture.status_code == 200 and picture.data == JPEG
    assert client.get("/api/board/1/report/ply-004.jpg", headers=AUTH).status_code == 404
