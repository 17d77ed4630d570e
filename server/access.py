"""Looking up the hall and the board of a request, and the referee token check."""

from __future__ import annotations

import hmac

from flask import abort, current_app, request

from .config import BoardInfo
from .hall import Hall

COOKIE = "makhos_referee"


def hall() -> Hall:
    return current_app.extensions["makhos"]


def board_or_404(board: str) -> BoardInfo:
    info = hall().info(board)
    if info is None:
        abort(404, description=f"no board {board!r} in this hall")
    return info


def presented_token() -> str | None:
    """The token from ``?token=``, ``Authorization: Bearer``, ``X-Referee-Token`` or the cookie."""
    auth = request.headers.get("Authorization", "")
    if auth.startswith("Bearer "):
        return auth[7:].strip()
    return (request.args.get("token") or request.headers.get("X-Referee-Token")
            or request.cookies.get(COOKIE))


def require_referee() -> str:
    """Abort with 401 without a token, 403 with a wrong one (or when the console is off)."""
    expected = hall().config.referee_token
    if expected is None:
        abort(403, description="the referee console is off: start the server with --token")
    given = presented_token()
    if not given:
        abort(401, description="referee token required (?token=, Authorization: Bearer, "
                               "or X-Referee-Token)")
    if not hmac.compare_digest(given.encode(), expected.encode()):
        abort(403, description="wrong referee token")
    return given
