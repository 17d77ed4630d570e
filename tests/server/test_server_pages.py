"""The public pages render, in English and Thai, with the state inlined and escaped."""

from __future__ import annotations

import json
import re

from server_sample import MOVES, game_events


def inlined_state(html: str) -> dict:
    match = re.search(r'<script id="initial" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(match.group(1))


def test_hall_page_lists_the_boards(client):
    html = client.get("/").get_data(as_text=True)
    assert 'data-board="1"' in html and "Table 1" in html


def test_board_page_inlines_its_state_and_links_the_stream(log, client):
    for event in game_events("1", MOVES[:4]):
        log.append(event)
    html = client.get("/board/1").get_data(as_text=True)
    assert len(inlined_state(html)["game"]["moves"]) == 4
    assert "/api/board/1/events" in html
    assert "/static/makhos.js" in html and "https://" not in html  # nothing from a CDN


def test_thai_labels_by_query_or_cookie(client):
    assert "หมากฮอส" in client.get("/?lang=th").get_data(as_text=True)
    client.set_cookie("lang", "th")
    assert "ห้องแข่งขัน" in client.get("/board/1").get_data(as_text=True)
    assert "ภาษาไทย" in client.get("/board/1?lang=en").get_data(as_text=True)


def test_embed_and_overlay_with_transparent_background(client):
    assert client.get("/board/1/embed").status_code == 200
    html = client.get("/board/1/overlay?bg=transparent").get_data(as_text=True)
    assert re.search(r"<html [^>]*class=\"[^\"]*\btransparent\b", html) and "overlay-stage" in html


def test_unknown_page_is_an_html_404(client):
    response = client.get("/board/nope")
    assert response.status_code == 404 and response.mimetype == "text/html"
    assert "no board" in response.get_data(as_text=True)


def test_static_files_are_served(client):
    for name in ("makhos.js", "viewer.js", "hall.js", "referee.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
