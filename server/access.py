"""Looking up the hall and the board of a request, and the referee token check."""

from __future__ import annotations

import hmac
from typing import Any, cast
from urllib.parse import urlsplit

from flask import Response, abort, current_app, redirect, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from .config import BoardInfo
from .hall import Hall
from .headers import PRIVATE_FRAMING, content_security_policy

COOKIE = "makhos_referee"


def hall() -> Hall:
    return cast(Hall, current_app.extensions["makhos"])  # create_app puts it there


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


def private(response: Response) -> Response:
    """Referee pages (decisions, camera frames showing hands and faces) are never framed by
    another site, cached, or named in a Referer. A page that sets its own policy (the
    review report's, which allows its inline style by hash) keeps it; it frames as this."""
    response.headers["X-Frame-Options"] = "DENY"
    response.headers.setdefault("Content-Security-Policy", content_security_policy(PRIVATE_FRAMING))
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


def token_to_cookie(endpoint: str, token: str, **values: Any) -> BaseResponse:
    """Swap the token in the address for a cookie, so it stays out of the history, the
    address bar and the page's own requests: a redirect to the same page without it."""
    query: dict[str, Any] = {k: v for k, v in request.args.items() if k != "token"}
    response = redirect(url_for(endpoint, **values, **query), code=303)
    response.set_cookie(COOKIE, token, httponly=True, samesite="Strict", path="/",
                        secure=request.is_secure)
    return response


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


SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def same_origin() -> None:
    """``before_request`` of the app: a state-changing request (a referee's action, a
    calibration) sent by a browser from another site is a 403, whatever cookie it carries.

    Browsers name the page that sent a POST in ``Origin`` (and ``Sec-Fetch-Site``); a
    request without them comes from no page (curl, a script with the token) and cannot be a
    forged one. The origin's host must be the one the request was sent to (``Host``);
    the scheme is not compared, since behind a TLS proxy the server may see plain HTTP.
    """
    if request.method in SAFE_METHODS:
        return
    if request.headers.get("Sec-Fetch-Site", "").lower() == "cross-site":
        abort(403, description="a request from another site may not change anything here")
    origin = request.headers.get("Origin")
    if origin is None:
        return
    host = urlsplit(origin).netloc if origin != "null" else ""
    if not host or host.lower() != request.host.lower():
        abort(403, description=f"a request from {origin} may not change anything here "
                               "(Origin is not this server)")
