"""Errors as JSON under ``/api`` (with the reason), as a short page elsewhere."""

from __future__ import annotations

from flask import Flask, Response, jsonify, render_template, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge, ServiceUnavailable

from makhos.events import LogUnavailable


def register(app: Flask) -> None:
    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[str, int] | Response:
        code = error.code or 500
        if not (request.path.startswith("/api/") or request.is_json):
            return render_template("error.html", error=error), code
        response = jsonify(error=error.name, message=error.description, status=code)
        response.status_code = code
        return response

    @app.errorhandler(RequestEntityTooLarge)
    def too_large(error: RequestEntityTooLarge) -> tuple[str, int] | Response:
        limit = app.config["MAX_CONTENT_LENGTH"]
        return http_error(RequestEntityTooLarge(
            f"the body is too large: at most {limit // 1024} KiB (an action is a few hundred bytes)"))

    @app.errorhandler(LogUnavailable)
    def log_away(error: LogUnavailable) -> tuple[str, int] | Response:
        # Redis restarting: the request may be sent again in a moment; nothing was lost.
        return http_error(ServiceUnavailable("the event log is unreachable; try again shortly"))
