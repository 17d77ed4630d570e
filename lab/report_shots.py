"""The review report's screenshots in docs/screenshots (issue 45): the sample game's, whole
and with the filter on, and the real clip's (alexkassil's, from ../shared; skipped when
absent), each recorded with ``makhos record --report`` into a temporary folder (never
beside the video) and opened in Debian's headless Chromium.

    python -m lab.report_shots
"""

from __future__ import annotations

import contextlib
import io
import tempfile
from pathlib import Path

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


def main() -> int:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as scratch, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--headless"])
        page = browser.new_page(viewport={"width": 1100, "height": 1000})
        sample = Path(scratch) / "sample"
        sample.mkdir()
        page.goto(report(models.path(models.SAMPLE_VIDEO), sample).as_uri())
        page.screenshot(path=str(SHOTS / "report.png"))
        page.check("#only-flagged")
        page.screenshot(path=str(SHOTS / "report-filtered.png"))
        if VIDEO.exists():
            real = Path(scratch) / "real"
            real.mkdir()
            page.goto(report(VIDEO, real, "--men", str(MEN)).as_uri())
            page.screenshot(path=str(SHOTS / "report-real.png"), full_page=True)
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
