"""The camera's rectified board on the referee's console, and a live board's review
report (issue 45, items 2 and 3): the same page as ``makhos record
--report``, from the board's log and the rectified pictures its worker kept (one per ply
of each game, :meth:`server.camera.FolderFrames.kept_plies`).

The pictures show hands over the board, so the page is the referee's, behind the token,
as the camera view is; and it is made for a game that is over (a page of a game still
being played would be out of date as soon as it is read).
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, request

from makhos.engine.pdn import Numbering
from makhos.events import GameEvent
from makhos.events.game import LoggedGame, MatchGame

from .access import board_or_404, hall, private, require_referee
from .camera import FolderFrames, KeptPicture
from .hall import REFEREE
from .pages import GAME_DIGITS
from .headers import PRIVATE_FRAMING, content_security_policy
from .report import Camera, inline_sources, render
from .state import BoardState

bp = Blueprint("review", __name__)
bp.after_request(private)


@bp.get("/api/board/<board>/report")
def report(board: str) -> Response:
    """The review report of the board's current game, or of ``?game=N``, once it is over."""
    require_referee()
    board_or_404(board)
    the_hall = hall()
    tags = the_hall.config.pdn_tags
    asked = game_asked()

    def chosen(state: BoardState) -> tuple[MatchGame | None, str]:
        record = state.current if asked is None else state.game(asked)
        return record, "" if record is None else state.pdn(record, tags)

    record, pdn = the_hall.with_state(board, REFEREE, chosen)
    if record is None:
        abort(404, description=f"board {board} has played no game {asked}")
    if not record.set_up or record.result is None:
        abort(409, description="the board's game is not over: its report comes at the end")
    camera = the_hall.config.camera
    kept = camera.kept_plies(board, record.number) if isinstance(camera, FolderFrames) else []
    pictures, addresses, notes = kept_for(record, kept)
    page = render(pdn, until_game(the_hall.events(board, 0, REFEREE), board, record.number), board,
                  Camera(pictures, [], None), addresses, [], None, Numbering.FIRST_MOVER,
                  origin=record.started or 0.0, notes=notes)
    # Made to open offline as one file, the page carries its style and filter inline.
    policy = content_security_policy(PRIVATE_FRAMING, inline_sources())
    return Response(page, mimetype="text/html", headers={"Content-Security-Policy": policy})


def game_asked() -> int | None:
    """``?game=N``: a game of the board by its number (None: the current game)."""
    asked = request.args.get("game")
    if asked is None:
        return None
    if not (asked.isascii() and asked.isdigit() and len(asked) <= GAME_DIGITS and int(asked) >= 1):
        abort(400, description=f"game must be a whole number from 1 to {'9' * GAME_DIGITS}")
    return int(asked)


def kept_for(record: MatchGame, kept: list[KeptPicture | None]) -> tuple[
        list[KeptPicture | None], list[str | None], list[str | None]]:
    """Each ply's kept picture, its address and, where there is none to show, why: a
    picture the worker did not keep, one that cannot be read, or one of another position
    (kept before the log was started afresh) is left out, never shown against this ply."""
    pictures: list[KeptPicture | None] = []
    addresses: list[str | None] = []
    notes: list[str | None] = []
    for index, ply in enumerate(record.game.plies):
        found = kept[index] if index < len(kept) else None
        note = "no picture kept" if found is None else found.unfit(ply.after.fen())
        pictures.append(None if note else found)
        addresses.append(None if note else f"report/ply-{index + 1:03d}.jpg?game={record.number}")
        notes.append(note)
    return pictures, addresses, notes


def until_game(events: list[GameEvent], board: str, number: int) -> list[GameEvent]:
    """The board's events up to the end of game ``number``: replayed, they leave it current
    (the report is of the log's current game)."""
    logged = LoggedGame(board)
    for index, event in enumerate(events):
        logged.apply(event)
        if logged.current.number > number:
            return events[:index]
    return events


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
    """A kept picture of the report, of ``?game=N`` (default: the current game)."""
    require_referee()
    board_or_404(board)
    game = game_asked() or hall().with_state(board, REFEREE, lambda s: s.current.number)
    camera = hall().config.camera
    jpeg = camera.kept_picture(board, game, ply) if isinstance(camera, FolderFrames) else None
    if jpeg is None:
        abort(404, description=f"no picture kept of ply {ply} of game {game}")
    return Response(jpeg, mimetype="image/jpeg")
