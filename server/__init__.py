"""The live pages, the referee console and the broadcast API (Flask).

The server only reads the event log (and appends referee decisions to it); it never
imports OpenCV. :func:`create_app` is the application factory, as in Flask's tutorial.
"""

from __future__ import annotations

from flask import Flask
from flask.json.provider import DefaultJSONProvider
from werkzeug.middleware.proxy_fix import ProxyFix

from .body import MAX_BODY_BYTES
from .config import ServerConfig
from .feed import EventFeed
from .hall import Hall


def create_app(config: ServerConfig) -> Flask:
    """A Flask app over ``config.events``; its :class:`Hall` is ``app.extensions["makhos"]``."""
    from . import access, api, calibration, errors, headers, pages, picture, referee, review_page

    app = Flask(__name__)
    if isinstance(app.json, DefaultJSONProvider):
        app.json.ensure_ascii = False  # Thai names stay readable in the JSON
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
    if config.trusted_proxies:
        # Only the scheme: the host and the client's address are not ours to take on trust.
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=0, x_proto=config.trusted_proxies,  # type: ignore[method-assign]
                                x_host=0, x_port=0, x_prefix=0)
    hall = Hall(config, EventFeed(config.events, config.poll_seconds, config.clock))
    hall.feed.start()
    app.extensions["makhos"] = hall
    # A request sees the log as it is now, not as of the poller's last look.
    app.before_request(hall.feed.refresh)
    app.before_request(access.same_origin)  # CSRF: no other site's page changes anything
    app.after_request(headers.secure)
    errors.register(app)
    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(referee.bp)
    app.register_blueprint(calibration.bp)
    app.register_blueprint(review_page.bp)
    app.register_blueprint(picture.bp)
    return app
