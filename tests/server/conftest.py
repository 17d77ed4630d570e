"""An app over an in-memory log, and its test client."""

from __future__ import annotations

import pytest

from makhos.events import SQLiteLog
from makhos.server import create_app
from makhos.server.config import BoardInfo, ServerConfig

from server_sample import TOKEN


@pytest.fixture
def log():
    store = SQLiteLog()
    yield store
    store.close()


@pytest.fixture
def make_app(log):
    apps = []

    def make(**settings):
        settings.setdefault("referee_token", TOKEN)
        settings.setdefault("boards", (BoardInfo("1", "Table 1"), BoardInfo("2")))
        app = create_app(ServerConfig(events=log, **settings))
        app.config["TESTING"] = True
        apps.append(app)
        return app

    yield make
    for app in apps:
        app.extensions["makhos"].close()


@pytest.fixture
def app(make_app):
    return make_app()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium for a module's browser tests (they skip without it)."""
    from live_browser import chromium, require_browser

    with chromium(require_browser()) as launched:
        yield launched
