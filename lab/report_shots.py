"""The review report's screenshots in docs/screenshots (issue 45): the sample game's, whole
and with the filter on, and the real clip's (alexkassil's, from ../shared; skipped when
absent), each recorded with ``makhos record --report`` into a temporary folder (never
beside the video) and opened in Debian's headless Chromium. Then a live board's: a hall's
worker watches the sample game with ``--frames``, and the server shows the board page with
the camera's picture on (``board-picture.png``) and, once the referee ends the game, its
report (``report-live.png``).

    python -m lab.report_shots [--only recorded|live]
"""

from __future__ import annotations

import contextlib
import io
import tempfile
from pathlib import Path
from typing import Any

from makhos import models
from makhos.cli.main import main as makhos

from .realclip import MEN, VIDEO

SHOTS = Path(__file__).resolve().parents[1] / "docs" / "screenshots"
CHROMIUM = "/usr/bin/chromium"


def report(video: Path, folder: Path, *extra: str) -> Path:
    """The report of ``video``, written in ``folder``."""
    page = folder / "report.html"
    with contextlib.redirect_stdout(io.StringIO()):
        code = makhos(["record", "--source", str(video), "-o", str(folder / "game.pdn"),
                       "--report", str(page), *extra])
    if code != 0:
        raise SystemExit(f"no game found in {video}")
    return page


def main(argv: list[str] | None = None) -> int:
    import argparse

    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("recorded", "live"),
                        help="only the recordings' reports, or only the live board's shots")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--headless"])
        page = browser.new_page(viewport={"width": 1100, "height": 1000})
        if args.only != "live":
            recorded(page, Path(scratch))
        if args.only != "recorded":
            live(page, Path(scratch) / "live")
        browser.close()
    return 0


def recorded(page: Any, scratch: Path) -> None:
    """The sample game's report, whole and filtered, and the real clip's."""
    sample = scratch / "sample"
    sample.mkdir()
    page.goto(report(models.path(models.SAMPLE_VIDEO), sample).as_uri())
    page.screenshot(path=str(SHOTS / "report.png"))
    page.check("#only-flagged")
    page.screenshot(path=str(SHOTS / "report-filtered.png"))
    if VIDEO.exists():
        real = scratch / "real"
        real.mkdir()
        page.goto(report(VIDEO, real, "--men", str(MEN)).as_uri())
        page.screenshot(path=str(SHOTS / "report-real.png"), full_page=True)


def live(page: Any, folder: Path) -> None:
    """The sample game watched by a hall's worker and served with the picture on."""
    from makhos.engine.game import Outcome
    from makhos.events import EventKind, GameEvent, SQLiteLog
    from makhos.events.details import GameOver
    from makhos.server import create_app
    from makhos.server.camera import FolderFrames
    from makhos.server.config import BoardInfo, ServerConfig
    from makhos.server.serving import Server

    folder.mkdir()
    db, frames = folder / "events.db", folder / "frames"
    with contextlib.redirect_stdout(io.StringIO()):
        code = makhos(["worker", "--source", str(models.path(models.SAMPLE_VIDEO)), "--board", "1",
                       "--events", str(db), "--frames", str(frames), "--outbox", str(folder / "outbox.jsonl")])
    if code != 0:
        raise SystemExit("the worker did not watch the sample game to its end")
    log = SQLiteLog(db)
    token = "shots-token"
    app = create_app(ServerConfig(events=log, referee_token=token, camera=FolderFrames(frames),
                                  boards=(BoardInfo("1", "Table 1", picture=True),)))
    server = Server(app, "127.0.0.1", 0, threads=8)
    server.start()
    try:
        page.set_viewport_size({"width": 1280, "height": 860})
        page.goto(server.url + "/board/1")
        page.wait_for_selector("#board-picture[data-ply]", state="visible")
        page.screenshot(path=str(SHOTS / "board-picture.png"))
        last = log.read_board("1")[-1]
        log.append(GameEvent("1", EventKind.RESULT, last.time + 1, game=last.game, reason="referee",
                             detail=GameOver(Outcome.DRAW)))
        page.goto(server.url + f"/referee/1?token={token}")  # the console's cookie: the pictures' key
        page.set_viewport_size({"width": 1100, "height": 1000})
        page.goto(server.url + "/api/board/1/report")
        page.screenshot(path=str(SHOTS / "report-live.png"))
    finally:
        server.close()
        log.close()


if __name__ == "__main__":
    raise SystemExit(main())
