"""The public pages: the hall, the live board, the embed and the OBS overlay.

Each page is rendered with the state it shows inlined (so it is complete before any
script runs) and then kept live by the SSE stream of ``/api``.
"""

from __future__ import annotations

from flask import Blueprint, render_template, request
from markupsafe import Markup

from .access import board_or_404, hall
from .api import hall_json
from .hall import PUBLIC
from .i18n import page_language

bp = Blueprint("pages", __name__)


@bp.app_template_filter("json_text")
def json_text(text: str) -> Markup:
    """JSON text made safe inside a <script> element (as Jinja's ``tojson`` does)."""
    return Markup(text.replace("&", "\\u0026").replace("<", "\\u003c")
                  .replace(">", "\\u003e").replace("'", "\\u0027"))


@bp.get("/")
def hall_page():
    lang, strings = page_language()
    return render_template("hall.html", lang=lang, strings=strings, hall=hall_json(),
                           event_name=hall().config.event_name)


def _board_page(board: str, template: str):
    info = board_or_404(board)
    lang, strings = page_language()
    transparent = request.args.get("bg") == "transparent"
    return render_template(template, board=info, lang=lang, strings=strings,
                           state=hall().state_json(board, PUBLIC), transparent=transparent,
                           event_name=hall().config.event_name)


@bp.get("/board/<board>")
def board_page(board: str):
    return _board_page(board, "board.html")


@bp.get("/board/<board>/embed")
def embed(board: str):
    return _board_page(board, "embed.html")


@bp.get("/board/<board>/overlay")
def overlay(board: str):
    """1920x1080 for OBS: add as a browser source; ``?bg=transparent`` to key it over video."""
    return _board_page(board, "overlay.html")
