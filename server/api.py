"""The public JSON API: the hall, a board's state, PDN, and the SSE streams.

Everything here is what spectators may see: it runs ``broadcast_delay`` behind the log.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, request

from . import sse, standings
from .access import board_or_404, hall
from .hall import PUBLIC, Audience
from .state import BoardState

bp = Blueprint("api", __name__, url_prefix="/api")

PDN_MIMETYPE = "application/x-pdn; charset=utf-8"


def hall_json(audience: Audience = PUBLIC) -> dict[str, Any]:
    the_hall = hall()
    return {"event": the_hall.config.event_name, "delay": the_hall.delay(audience),
            "boards": [the_hall.summary(info.id, audience) for info in the_hall.infos()]}


@bp.get("/hall")
def hall_state() -> dict[str, Any]:
    return hall_json()


def standings_json(audience: Audience = PUBLIC) -> dict[str, Any]:
    the_hall = hall()
    return {"event": the_hall.config.event_name,
            **standings.to_json(the_hall.matches(audience), the_hall.config.scoring)}


@bp.get("/standings")
def event_standings() -> dict[str, Any]:
    """The matches by round and the players' standings under the event's scoring."""
    return standings_json()


@bp.get("/board/<board>")
def board_state(board: str) -> Response:
    board_or_404(board)
    the_hall = hall()
    state = the_hall.state_json(board, PUBLIC)
    camera = the_hall.config.camera
    health = camera.health(board) if camera is not None else None
    if health is not None:  # the state is cached text: the live health goes on at the end
        state = f'{state[:-1]},"vision":{sse.dumps(health)}}}'
    return Response(state, mimetype="application/json")


def _pdn_response(text: str, filename: str) -> Response:
    return Response(text, mimetype=PDN_MIMETYPE,
                    headers={"Content-Disposition": f'inline; filename="{filename}"'})


@bp.get("/board/<board>/pdn")
def board_pdn(board: str) -> Response:
    """The current game of the board."""
    board_or_404(board)
    tags = hall().config.pdn_tags
    text = hall().with_state(board, PUBLIC, lambda s: s.pdn(s.current, tags))
    return _pdn_response(text, f"board-{board}.pdn")


@bp.get("/board/<board>/game/<int:number>")
def game_record(board: str, number: int) -> dict[str, Any]:
    """One game of the board's match as the board's state writes its current game (moves
    with their FEN, rules, result, players): what a ``#game=N&ply=M`` link opens."""
    board_or_404(board)

    def record(state: BoardState) -> dict[str, Any]:
        found = state.game(number)
        if found is None:
            abort(404, description=f"board {board} has no game {number}")
        return state.game_json(found)

    return hall().with_state(board, PUBLIC, record)


@bp.get("/board/<board>/game/<int:number>/pdn")
def game_pdn(board: str, number: int) -> Response:
    board_or_404(board)
    tags = hall().config.pdn_tags

    def pdn(state: BoardState) -> str:
        record = state.game(number)
        if record is None:
            abort(404, description=f"board {board} has no game {number}")
        return state.pdn(record, tags)

    return _pdn_response(hall().with_state(board, PUBLIC, pdn), f"board-{board}-game-{number}.pdn")


@bp.get("/pdn")
def event_pdn() -> Response:
    """Every game of every board, board by board, as the event's PDN file: every game that
    began (a set-up, a new game, a first ply), with a move or not, and none on a board where
    nothing happened yet."""
    the_hall = hall()
    tags = the_hall.config.pdn_tags
    texts = [the_hall.with_state(info.id, PUBLIC,
                                 lambda s: "\n".join(s.pdn(r, tags) for r in s.games
                                                     if r.started is not None or r.result))
             for info in the_hall.infos()]
    return _pdn_response("\n".join(t for t in texts if t), "event.pdn")


@bp.get("/board/<board>/analysis")
def board_analysis(board: str) -> dict[str, Any]:
    """The commentators' analysis of the position the public is shown, or with ``?ply=N`` of
    an earlier position of the current game; ``"status": "analysing"`` until it is searched.
    404 when the event has analysis off."""
    board_or_404(board)
    ply = None
    if "ply" in request.args:
        try:
            ply = int(request.args["ply"])
        except ValueError:
            ply = -1
        if ply < 0:
            abort(400, description="ply must be a whole number >= 0 (0: the start)")
    try:
        found = hall().analysis(board, ply)
    except LookupError as error:
        abort(404, description=str(error))
    if found is None:
        abort(404, description="analysis is off for this event (the hall profile's \"analysis\")")
    return found


@bp.get("/board/<board>/events")
def board_events(board: str) -> Response:
    board_or_404(board)
    the_hall = hall()
    after = sse.resume_point()
    return sse.response(sse.stream(the_hall, board, after, PUBLIC,
                                   lambda b: the_hall.state_json(b, PUBLIC), the_hall.analysis_text,
                                   waits=sse.waiting()))


@bp.get("/hall/events")
def hall_events() -> Response:
    the_hall = hall()
    after = sse.resume_point()
    return sse.response(sse.stream(the_hall, None, after, PUBLIC,
                                   lambda b: sse.dumps(the_hall.summary(b, PUBLIC)),
                                   waits=sse.waiting()))
