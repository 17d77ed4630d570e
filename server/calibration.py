"""The calibration page, behind the referee token: drag the board's corners, check the
reading of each square on the rectified board, save the profile.

The image work is the desk's (``ServerConfig.calibration``, see ``calibration.desk``); this
module only checks access and passes JSON and JPEG through.
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, jsonify, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from .access import board_or_404, hall, private, require_referee, token_to_cookie
from .body import json_body
from .config import CalibrationDesk
from .i18n import page_language

bp = Blueprint("calibration", __name__)


bp.after_request(private)


def _desk(board: str) -> CalibrationDesk:
    require_referee()
    board_or_404(board)
    desk = hall().config.calibration
    if desk is None or desk.state(board) is None:
        abort(404, description="no board profile for this board: run makhos calibrate, then "
                               "makhos run --board-profile PROFILE")
    return desk


@bp.get("/referee/<board>/calibration")
def page(board: str) -> BaseResponse | str:
    token = require_referee()
    info = board_or_404(board)
    if "token" in request.args:
        return token_to_cookie("calibration.page", token, board=board)
    desk = _desk(board)
    lang, strings = page_language()
    urls = {name: url_for(f"calibration.{endpoint}", board=board)
            for name, endpoint in (("frame", "frame"), ("board", "board_view"), ("save", "save"))}
    return render_template("calibration.html", board=info, lang=lang, strings=strings,
                           state=desk.state(board), event_name=hall().config.event_name,
                           page={"start": "calibration", **urls})


@bp.get("/api/referee/<board>/calibration")
def state(board: str) -> Response:
    return jsonify(_desk(board).state(board))


@bp.get("/referee/<board>/calibration/frame.jpg")
def frame(board: str) -> Response:
    return _jpeg_or_404(_desk(board).frame(board))


@bp.get("/referee/<board>/calibration/board.jpg")
def board_view(board: str) -> Response:
    """The rectified board for corners given as ``?corners=x,y,x,y,x,y,x,y&turns=k``
    (the profile's when absent): the page previews a drag before saving it."""
    desk = _desk(board)
    current = desk.state(board)
    assert current is not None  # _desk refused a board without a profile
    corners, turns = current["corners"], current["quarter_turns"]
    try:
        if "corners" in request.args:
            values = [float(v) for v in request.args["corners"].split(",")]
            if len(values) != 8:
                raise ValueError
            corners = [values[i:i + 2] for i in range(0, 8, 2)]
        turns = int(request.args.get("turns", turns))
        return _jpeg_or_404(desk.board_view(board, corners, turns))
    except ValueError as error:
        abort(400, description=f"bad corners or turns: {error}" if str(error) else
              "corners must be eight numbers x,y,x,y,x,y,x,y; turns 0-3")


@bp.post("/api/referee/<board>/calibration")
def save(board: str) -> Response:
    """Save ``{"corners": [[x, y] x 4], "quarter_turns": k}`` into the board's profile."""
    desk = _desk(board)
    example = '{"corners": [[x, y], ...], "quarter_turns": k}'
    body = json_body(example)
    if not isinstance(body, dict) or "corners" not in body:
        abort(400, description=f"the body must be JSON {example}")
    try:
        saved = desk.save(board, body["corners"], body.get("quarter_turns", 0))
    except ValueError as error:
        abort(400, description=str(error))
    return jsonify(saved)


def _jpeg_or_404(data: bytes | None) -> Response:
    if data is None:
        abort(404, description="no camera frame yet")
    return Response(data, mimetype="image/jpeg")
