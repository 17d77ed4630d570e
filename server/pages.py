"""The public pages: the hall, the live board, the standings, the embed and the OBS overlay.

Each page is rendered with the state it shows inlined (so it is complete before any
script runs) and then kept live by the SSE stream of ``/api``. The look of the board
pages is set by query parameters (:class:`ViewOptions`; docs/pages.md lists them beside
the embed code), because an OBS source or an ``<iframe>`` has no buttons to press.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Response, abort, current_app, render_template, request, url_for
from markupsafe import Markup

from .access import board_or_404, hall
from .api import hall_json, standings_json
from .config import BoardInfo
from .hall import PUBLIC
from .i18n import page_language
from .standings import by_round

bp = Blueprint("pages", __name__)

THEMES = ("dark", "light")
BOARD_SIZES = (160, 1600)  # ``?size=`` in CSS pixels: smaller cannot be read, larger is a typo
GAME_DIGITS = 6  # ``?game=``: no match is a million games long


@bp.app_template_filter("json_text")
def json_text(text: str) -> Markup:
    """JSON text made safe inside a <script> element (as Jinja's ``tojson`` does)."""
    return Markup(text.replace("&", "\\u0026").replace("<", "\\u003c")
                  .replace(">", "\\u003e").replace("'", "\\u0027"))


@bp.app_template_filter("board_title")
def board_title(info: BoardInfo, strings: dict[str, str]) -> str:
    """The organiser's label, else "Board 7" in the page's language (viewer.js: boardTitle)."""
    return info.label or f"{strings['board']} {info.id}"


@dataclass(frozen=True, slots=True)
class ViewOptions:
    """How a board page looks, from its query: ``?theme=light&size=480&moves=0&bg=transparent``.

    ``picture=1`` asks the overlay for the camera's picture of the board, on a board whose
    hall profile turns it on (the board page shows it there unasked; the overlay, keyed
    over a broadcast, only when asked).

    ``flip``, ``numbers`` and ``ply`` are read by the page's script (viewer.js), since the
    viewer's buttons change them too.
    """

    theme: str = "dark"
    size: int | None = None  # the board's width in CSS pixels; None: as large as fits
    moves: bool = True  # the move list beside the board
    transparent: bool = False  # no page background, for keying over video
    picture: bool = False  # the overlay shows the camera's picture (where the board has it on)

    @classmethod
    def from_query(cls) -> "ViewOptions":
        """The request's options; a value that means nothing is a 400 that says why."""
        args = request.args
        theme = args.get("theme", "dark")
        if theme not in THEMES:
            abort(400, description=f"theme must be one of: {', '.join(THEMES)}")
        size = None
        if "size" in args:
            low, high = BOARD_SIZES
            try:
                size = int(args["size"])
            except ValueError:
                size = -1
            if not low <= size <= high:
                abort(400, description=f"size is the board's width in pixels, {low} to {high}")
        moves = args.get("moves", "1")
        if moves not in ("0", "1"):
            abort(400, description="moves must be 1 (show the move list) or 0 (hide it)")
        bg = args.get("bg")
        if bg not in (None, "transparent"):
            abort(400, description="bg=transparent is the one background option")
        # Read by the page's script (viewer.js), but checked here: a link that means nothing
        # is a 400, never a page quietly showing something else.
        for name, meaning in (("flip", "light at the bottom"), ("numbers", "square numbers shown"),
                              ("picture", "the camera's picture shown")):
            if args.get(name, "0") not in ("0", "1"):
                abort(400, description=f"{name} must be 1 ({meaning}) or 0")
        if "ply" in args and not (args["ply"].isascii() and args["ply"].isdigit()):
            abort(400, description="ply must be a whole number >= 0 (0: the start)")
        # Digits counted before int() reads them: past 4,300 Python refuses (a ValueError).
        if "game" in args and not (args["game"].isascii() and args["game"].isdigit()
                                   and len(args["game"]) <= GAME_DIGITS and int(args["game"]) >= 1):
            abort(400, description=f"game must be a whole number from 1 to {'9' * GAME_DIGITS}")
        return cls(theme=theme, size=size, moves=moves == "1", transparent=bg == "transparent",
                   picture=args.get("picture") == "1")

    @property
    def classes(self) -> str:
        """Classes of the page's <html> element."""
        names = [f"theme-{self.theme}"]
        if not self.moves:
            names.append("no-moves")
        if self.transparent:
            names.append("transparent")
        return " ".join(names)


@bp.get("/favicon.ico")
def favicon() -> Response:
    """The icon, for browsers and readers that ask before (or without) reading the page."""
    return current_app.send_static_file("favicon.svg")


@bp.get("/")
def hall_page() -> str:
    lang, strings = page_language()
    the_hall = hall_json()
    rounds = by_round(the_hall["boards"], lambda board: board["match"]["round"])
    return render_template("hall.html", lang=lang, strings=strings, hall=the_hall, rounds=rounds,
                           event_name=hall().config.event_name)


@bp.get("/standings")
def standings_page() -> str:
    """The event's matches round by round, and the players' standings."""
    lang, strings = page_language()
    return render_template("standings.html", lang=lang, strings=strings,
                           standings=standings_json(), event_name=hall().config.event_name)


def _board_page(board: str, template: str, analysed: bool = False, pictured: bool = False,
                **page: Any) -> str:
    """A board page; ``analysed``: it shows the analysis when the event has it on;
    ``pictured``: the camera's picture, when the hall profile has it on for this board."""
    info = board_or_404(board)
    options = ViewOptions.from_query()
    lang, strings = page_language()
    the_hall = hall()
    analysis = the_hall.analysis_text(board) if analysed else None
    page = {"start": "viewer", "stream": url_for("api.board_events", board=board),
            "size": options.size, **page}
    if analysis is not None:
        page["analysis"] = url_for("api.board_analysis", board=board)
    picture_src = url_for("picture.board_picture", board=board) if pictured and info.picture else None
    return render_template(template, board=info, lang=lang, strings=strings,
                           state=the_hall.state_json(board, PUBLIC), options=options, page=page,
                           analysis=analysis, event_name=the_hall.config.event_name,
                           picture_src=picture_src)


@bp.get("/board/<board>")
def board_page(board: str) -> str:
    """The board as spectators follow it; the move shown is kept in the address (#ply=N)."""
    return _board_page(board, "board.html", analysed=True, pictured=True, history=True)


@bp.get("/board/<board>/embed")
def embed(board: str) -> str:
    """The board and its moves without the page around them, for an ``<iframe>``."""
    return _board_page(board, "embed.html")


@bp.get("/board/<board>/overlay")
def overlay(board: str) -> str:
    """1920x1080 for OBS: add as a browser source; ``?bg=transparent`` to key it over video."""
    return _board_page(board, "overlay.html", analysed=True, keyboard=False,
                       pictured=ViewOptions.from_query().picture)
