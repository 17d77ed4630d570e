"""The public pages render, in English and Thai, with the state inlined and escaped."""

from __future__ import annotations

import json
import re

import pytest

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


def page_classes(html: str) -> set[str]:
    return set(re.search(r'<html [^>]*class="([^"]*)"', html).group(1).split())


def test_view_options_become_classes_of_the_page(client):
    overlay = client.get("/board/1/overlay?bg=transparent").get_data(as_text=True)
    assert {"page-overlay", "transparent"} <= page_classes(overlay) and "overlay-stage" in overlay
    embed = client.get("/board/1/embed?theme=light&moves=0&size=480").get_data(as_text=True)
    assert {"page-embed", "theme-light", "no-moves"} <= page_classes(embed)
    assert json.loads(re.search(r'<script id="page" type="application/json">(.*?)</script>',
                                embed).group(1))["size"] == 480
    assert "transparent" not in page_classes(client.get("/board/1").get_data(as_text=True))


@pytest.mark.parametrize("query, word", [("theme=blue", "theme"), ("size=12", "size"),
                                         ("size=big", "size"), ("moves=no", "moves"),
                                         ("bg=green", "bg=transparent")])
def test_an_option_that_means_nothing_is_a_400_that_says_why(client, query, word):
    response = client.get(f"/board/1/embed?{query}")
    assert response.status_code == 400 and word in response.get_data(as_text=True)


def test_the_board_page_shows_the_embed_code_and_its_options(client):
    html = client.get("/board/1").get_data(as_text=True)
    assert '&lt;iframe src="http://localhost/board/1/embed"' in html
    for option in ("size=", "theme=light", "flip=1", "moves=0", "ply=14", "bg=transparent"):
        assert option in html, option


def test_a_board_without_a_label_is_named_in_the_pages_language(client):
    thai = client.get("/board/2?lang=th").get_data(as_text=True)
    shown = re.sub(r'<script id="initial".*?</script>', "", thai, flags=re.S)  # data, not text
    assert "<h1 class=\"board-title\">กระดาน 2</h1>" in shown and "Board 2" not in shown
    assert "<h1 class=\"board-title\">Board 2</h1>" in client.get("/board/2").get_data(as_text=True)
    assert "Table 1" in client.get("/board/1?lang=th").get_data(as_text=True)  # the organiser's label


def test_unknown_page_is_an_html_404(client):
    response = client.get("/board/nope")
    assert response.status_code == 404 and response.mimetype == "text/html"
    assert "no board" in response.get_data(as_text=True)


def test_static_files_are_served(client):
    for name in ("makhos.js", "viewer.js", "hall.js", "referee.js", "boot.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
