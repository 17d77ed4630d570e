"""A Flask app served for real (the product's server, a free port) and headless Chromium to open it.

Shared by the browser tests (the public pages, the calibration page). Each test module
skips itself cleanly without the ``playwright`` package or Debian's ``chromium``:
``sync_api = require_browser()`` at the top.

Screenshots go to a temporary folder, so a test run leaves the tracked PNGs alone;
``MAKHOS_REFRESH_SCREENSHOTS=1`` writes them into ``docs/screenshots/`` instead (after a
change to the pages; look at them before committing).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from makhos.server.serving import Server

CHROMIUM = Path("/usr/bin/chromium")
DOCS_SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
REFRESH_ENV = "MAKHOS_REFRESH_SCREENSHOTS"
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def require_browser():
    """Playwright's sync API, or skip the calling module."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed (/usr/bin/chromium)", allow_module_level=True)
    return sync_api


@contextmanager
def served(app, port: int = 0, threads: int = 16) -> Iterator[str]:
    """Serve ``app`` on 127.0.0.1 and ``port`` (0: a free one) with the product's server
    (:class:`makhos.server.serving.Server`); yields its base URL. Closing it closes the
    hall (the open streams end) and every socket, as when a server process ends: a client
    that connects meanwhile (an EventSource reconnecting) tries again later."""
    server = Server(app, "127.0.0.1", port, threads=threads)
    server.start()
    try:
        yield server.url
    finally:
        server.close()


@contextmanager
def chromium(sync_api, env: dict[str, str] | None = None) -> Iterator[object]:
    """Debian's chromium, headless; ``env`` its environment (e.g. a FONTCONFIG_FILE that
    hides fonts from it), else this process's."""
    with sync_api.sync_playwright() as playwright:
        options = {"env": env} if env is not None else {}
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, **options)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def fresh_page(browser, width: int = 1280, height: int = 800) -> Iterator[object]:
    """A page in a browser context of its own: no cache, cookies or storage of another test."""
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        yield context.new_page()
    finally:
        context.close()


def shots_folder() -> Path:
    """``docs/screenshots`` when asked to refresh them, else a folder under the temp dir."""
    if os.environ.get(REFRESH_ENV) == "1":
        return DOCS_SHOTS
    return Path(tempfile.gettempdir()) / "makhos-screenshots"


def shot(page, name: str, full_page: bool = False) -> Path:
    folder = shots_folder()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    page.screenshot(path=str(path), full_page=full_page)
    return path
