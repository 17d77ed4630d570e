"""The review report of a live board: ``makhos worker --frames`` watches the rendered clip
into the hall's log, keeping the rectified board at each ply, and the server's
``GET /api/board/ID/report`` of the finished game shows a picture in every ply row, each
agreeing with the diagram and the PDN's position (issue 45, item 3). Worker and server in
this process, as the hall's board-profile tests run the worker."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from makhos.cli.main import main
from makhos.engine.game import Outcome
from makhos.engine.pdn import read_game
from makhos.events import EventKind, GameEvent, SQLiteLog
from makhos.events.details import GameOver
from makhos.server import create_app
from makhos.server.camera import FolderFrames
from makhos.server.config import BoardInfo, ServerConfig
from makhos.server.diagram import letters
from makhos.session.review import PICTURE_PX

from report_rows import Rows

TOKEN = "live-report"
AUTH = {"X-Referee-Token": TOKEN}


@pytest.fixture(scope="module")
def served(clip, tmp_path_factory):
    """The worker's log and pictures, the referee ending the game, and the server over them."""
    folder = tmp_path_factory.mktemp("hall")
    db, frames = folder / "events.db", folder / "frames"
    assert main(["worker", "--source", str(clip), "--board", "1", "--events", str(db),
                 "--frames", str(frames), "--outbox", str(folder / "outbox.jsonl")]) == 0
    log = SQLiteLog(db)
    last = log.read_board("1")[-1]
    log.append(GameEvent("1", EventKind.RESULT, last.time + 1, game=last.game, reason="referee",
                         detail=GameOver(Outcome.DRAW)))
    app = create_app(ServerConfig(events=log, referee_token=TOKEN, camera=FolderFrames(frames),
                                  boards=(BoardInfo("1", picture=True),)))
    yield app.test_client(), frames
    app.extensions["makhos"].close()
    log.close()


def test_every_ply_row_has_the_workers_picture_of_the_pdns_position(served):
    client, frames = served
    pdn = client.get("/api/board/1/pdn").get_data(as_text=True)
    game = read_game(pdn).game
    page = client.get("/api/board/1/report", headers=AUTH)
    assert page.status_code == 200
    rows = Rows()
    rows.feed(page.get_data(as_text=True))
    assert len(game.plies) >= 6
    assert [int(r["data-ply"]) for r in rows.rows] == list(range(1, len(game.plies) + 1))
    for row, ply in zip(rows.rows, game.plies):
        assert row["data-position"] == letters(ply.after)
        assert "src" in row, f"ply {row['data-ply']}: no picture"
        shown = game.plies[int(row["data-shows"]) - 1].after
        assert row["data-seen"] == letters(shown), f"ply {row['data-ply']}: the camera saw another board"
        jpeg = client.get(f"/api/board/1/{row['src']}", headers=AUTH)
        assert jpeg.status_code == 200 and jpeg.mimetype == "image/jpeg"
        picture = cv2.imdecode(np.frombuffer(jpeg.data, np.uint8), cv2.IMREAD_COLOR)
        assert picture.shape[:2] == (PICTURE_PX, PICTURE_PX)
    assert (frames / "1.jpg").is_file()  # the referee's camera view, from the same folder


def test_the_board_page_picture_is_the_last_plys(served):
    client, frames = served
    game = read_game(client.get("/api/board/1/pdn").get_data(as_text=True)).game
    picture = client.get("/board/1/picture.jpg")
    kept = frames / "1.plies" / "game-1" / f"ply-{len(game.plies):03d}.jpg"
    assert picture.status_code == 200 and picture.data == kept.read_bytes()
