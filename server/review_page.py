"""The camera's rectified board on the referee's console, and a live board's review
report (issue 45, items 2 and 3): the same page as ``makhos record
--report``, from the board's log and the rectified pictures its worker kept (one per ply
of the current game, :meth:`server.camera.FolderFrames.kept_plies`).

The pictures show hands over the board, so the page is the referee's, behind the token,
as the camera view is; and it is made for a game that is over (a page of a game still
being played would be out of date as soon as it is read).
"""

from __future__ import annotations

from flask import Blueprint, Response, abort

from makhos.engine.pdn import Numbering
from makhos.events.game import MatchGame

from .access import board_or_404, hall, private, require_referee
from .camera import FolderFrames, KeptPicture
from .hall import REFEREE
from .report import Camera, render
from .state import BoardState

bp = Blueprint("review", __name__)
bp.after_request(private)


@bp.get("/api/board/<board>/report")
def report(board: str) -> Response:
    require_referee()
    board_or_404(board)
    the_hall = hall()
    tags = the_hall.config.pdn_tags

    def current(state: BoardState) -> tuple[MatchGame, str]:
        return state.current, state.pdn(state.current, tags)

    record, pdn = the_hall.with_state(board, REFEREE, current)
    if not record.set_up or record.result is None:
        abort(409, description="the board's game is not over: its report comes at the end")
    camera = the_hall.config.camera
    kept: list[KeptPicture | None] = camera.kept_plies(board) if isinstance(camera, FolderFrames) else []
    kept = kept[:len(record.moves)]
    pictures = [None if k is None or not k.has_jpeg else f"report/ply-{i + 1:03d}.jpg"
                for i, k in enumerate(kept)]
    page = render(pdn, the_hall.events(board, 0, REFEREE), board,
                  Camera(kept, [], None),
                  pictures, [], None, Numbering.FIRST_MOVER, origin=record.started or 0.0)
    return Response(page, mimetype="text/html")


@bp.get("/referee/<board>/board.jpg")
def board_picture(board: str) -> Response:
    """The console's picture of the board as the camera saw it when the last move was
    accepted: it changes with the moves, not with the video."""
    require_referee()
    board_or_404(board)
    camera = hall().config.camera
    jpeg = camera.board_picture(board) if isinstance(camera, FolderFrames) else None
    if jpeg is None:  # not an error: the console asks again at the next ply
        return Response(status=204, headers={"Cache-Control": "no-store"})
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/api/board/<board>/report/ply-<int:ply>.jpg")
def picture(board: str, ply: int) -> Response:
    require_referee()
    board_or_404(board)
    camera = hall().config.camera
    jpeg = camera.kept_picture(board, ply) if isinstance(camera, FolderFrames) else None
    if jpeg is None:
        abort(404, description=f"no picture kept of ply {ply}")
    return Response(jpeg, mimetype="image/jpeg")
