"""The live pages, the referee console and the broadcast API (Flask).

The server only reads the event log (and appends referee decisions to it); it never
imports OpenCV. :func:`create_app` is the application factory, as in Flask's tutorial.
"""

from __future__ import annotations

from flask import Flask
from flask.json.provider import DefaultJSONProvider

from .config import ServerConfig
from .feed import EventFeed
from .hall import Hall


def create_app(config: ServerConfig) -> Flask:
    """A Flask app over ``config.events``; its :class:`Hall` is ``app.extensions["makhos"]``."""
    from . import api, calibration, errors, pages, referee

    app = Flask(__name__)
    if isinstance(app.json, DefaultJSONProvider):
        app.json.ensure_ascii = False  # Thai names stay readable in the JSON
    hall = Hall(config, EventFeed(config.events, config.poll_seconds))
    hall.feed.start()
    app.extensions["makhos"] = hall
    # A request sees the log as it is now, not as of the poller's last look.
    app.before_request(hall.feed.refresh)
    errors.register(app)
    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(referee.bp)
    app.register_blueprint(calibration.bp)
    return app
