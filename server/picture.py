"""The camera's picture of the board on its public page, where the organiser turns it on
(the hall profile's ``"picture": true``, issue 45 item 2).

It is the rectified board the worker kept of the last ply the public is shown, so the
broadcast delay holds for the picture as for the moves; a picture that does not show that
ply's position (none kept yet, a stale one) is not served.
"""

from __future__ import annotations

from flask import Blueprint, Response, abort

from .access import board_or_404, hall
from .camera import FolderFrames
from .hall import PUBLIC
from .state import BoardState

bp = Blueprint("picture", __name__)


@bp.get("/board/<board>/picture.jpg")
def board_picture(board: str) -> Response:
    """204 while there is no picture to show (the page asks again at the next ply)."""
    info = board_or_404(board)
    camera = hall().config.camera
    if not info.picture or not isinstance(camera, FolderFrames):
        abort(404, description=f"board {board} shows no camera picture (the hall profile's "
                               '"picture": true turns it on, with makhos serve --frames)')

    def shown(state: BoardState) -> tuple[int, int, str]:
        record = state.current
        return record.number, len(record.moves), record.game.position.fen()

    game, plies, fen = hall().with_state(board, PUBLIC, shown)
    kept = camera.kept_ply(board, game, plies) if plies else None
    jpeg = camera.kept_picture(board, game, plies) if kept and kept.unfit(fen) is None else None
    if jpeg is None:
        return Response(status=204, headers={"Cache-Control": "no-store"})
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-cache"})
