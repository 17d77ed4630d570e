"""The referee console and its API, behind the token: live state, decisions, the camera.

Decisions are appended to the log as ``referee`` events (see events.decisions) after a
check against the live state; a decision that does not fit the board (no such alert,
extra time used up, an illegal correction) is refused with 409 and the reason.
"""

from __future__ import annotations

import time
from typing import Iterator

from flask import Blueprint, Response, abort, jsonify, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from makhos.events import GameEvent
from makhos.events import decisions as ra
from . import actions, sse
from .access import board_or_404, hall, private, require_referee, token_to_cookie
from .body import json_body
from .hall import REFEREE
from .i18n import page_language
from .state import BoardState

bp = Blueprint("referee", __name__)

BOUNDARY = "frame"


bp.after_request(private)


@bp.get("/referee/<board>")
def console(board: str) -> BaseResponse | str:
    token = require_referee()
    info = board_or_404(board)
    if "token" in request.args:
        return token_to_cookie("referee.console", token, board=board)
    the_hall = hall()
    lang, strings = page_language()
    return render_template(
        "referee.html", board=info, lang=lang, strings=strings,
        state=the_hall.state_json(board, REFEREE), camera=the_hall.config.camera is not None,
        event_name=the_hall.config.event_name,
        page={"start": "referee", "stream": url_for("referee.live_events", board=board),
              "action": url_for("referee.act", board=board),
              "vision": url_for("referee.vision", board=board),
              "report": url_for("review.report", board=board)})


@bp.get("/api/referee/<board>")
def live_state(board: str) -> Response:
    require_referee()
    board_or_404(board)
    return Response(hall().state_json(board, REFEREE), mimetype="application/json")


@bp.get("/api/referee/<board>/events")
def live_events(board: str) -> Response:
    require_referee()
    board_or_404(board)
    after = sse.resume_point()
    the_hall = hall()
    return sse.response(sse.stream(the_hall, board, after, REFEREE,
                                   lambda b: the_hall.state_json(b, REFEREE), waits=sse.waiting()))


@bp.post("/api/referee/<board>/action")
def act(board: str) -> tuple[Response, int]:
    """Check a decision against the live board and append it to the log."""
    require_referee()
    board_or_404(board)
    body = json_body('{"action": "take_back", "plies": 1}')
    try:
        action = ra.parse_action(body)
    except ra.ActionError as error:
        abort(400, description=str(error))
    the_hall = hall()

    def decide(state: BoardState) -> GameEvent:
        actions.check(action, state.current.rules)  # InvalidAction: 400, whatever the board
        state.check(action)
        game = state.current.number
        if isinstance(action, ra.NewGame) and (state.current.moves or state.current.result):
            game += 1
        return the_hall.feed.append(action.to_event(board, game, the_hall.feed.now()))

    try:
        stored = the_hall.with_state(board, REFEREE, decide)
    except actions.InvalidAction as error:
        abort(400, description=str(error))
    except ra.ActionError as error:
        abort(409, description=str(error))
    return jsonify(seq=stored.seq, game=stored.game, detail=stored.detail.to_dict()), 201


def _snapshot_or_404(board: str) -> bytes:
    camera = hall().config.camera
    frame = camera.snapshot(board) if camera is not None else None
    if frame is None:
        abort(404, description="no camera")
    return frame


@bp.get("/api/referee/<board>/vision")
def vision(board: str) -> Response:
    """The board's vision health (:meth:`server.config.FrameProvider.health`)."""
    require_referee()
    board_or_404(board)
    camera = hall().config.camera
    health = camera.health(board) if camera is not None else None
    if health is None:
        abort(404, description="no camera")
    return jsonify(health)


@bp.get("/referee/<board>/snapshot.jpg")
def snapshot(board: str) -> Response:
    require_referee()
    board_or_404(board)
    return Response(_snapshot_or_404(board), mimetype="image/jpeg",
                    headers={"Cache-Control": "no-store"})


@bp.get("/referee/<board>/camera.mjpg")
def camera(board: str) -> Response:
    """MJPEG: the latest annotated frame, over and over, until the camera goes away."""
    require_referee()
    board_or_404(board)
    first = _snapshot_or_404(board)
    the_hall = hall()
    period = 1.0 / the_hall.config.mjpeg_fps

    camera = the_hall.config.camera
    assert camera is not None  # _snapshot_or_404 found one
    waits = sse.waiting()

    def frames() -> Iterator[bytes]:
        frame: bytes | None = first
        while frame is not None and not the_hall.feed.closed and not waits.gone():
            yield (f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\n"
                   f"Content-Length: {len(frame)}\r\n\r\n").encode() + frame + b"\r\n"
            waits.sleep(period)
            frame = camera.snapshot(board)

    return Response(frames(), mimetype=f"multipart/x-mixed-replace; boundary={BOUNDARY}",
                    headers={"Cache-Control": "no-store"})
