"""Pages as docs/pages.md promises them (issue #32): a 400 for a parameter value that means
nothing, a game's record for ``#game=N&ply=M`` links, one way of writing a score, and
standings that rank players who have not played after those who have."""

from __future__ import annotations

import pytest

from makhos.engine.game import Outcome
from makhos.events import decisions as ra

from server_sample import MOVES, game_events
from test_standings import BOARDS, decide, play_match


@pytest.mark.parametrize("query", ["ply=abc", "ply=-1", "ply=1.5", "ply=", "flip=2", "flip=yes",
                                   "numbers=2", "lang=xx", "lang=", "game=0", "game=x"])
@pytest.mark.parametrize("page", ["/board/1", "/board/1/embed", "/board/1/overlay"])
def test_a_parameter_that_means_nothing_is_a_400_that_says_why(client, page, query):
    response = client.get(f"{page}?{query}")
    assert response.status_code == 400
    name = query.split("=")[0]
    assert name in response.get_data(as_text=True)


@pytest.mark.parametrize("query", ["ply=0", "ply=14", "flip=1", "flip=0", "numbers=1", "lang=th",
                                   "lang=en", "game=2&ply=3"])
def test_parameters_that_mean_something_still_open_the_page(client, query):
    assert client.get(f"/board/1?{query}").status_code == 200


@pytest.mark.parametrize("page", ["/", "/standings"])
def test_a_language_that_is_not_offered_is_a_400_on_every_page(client, page):
    assert client.get(f"{page}?lang=xx").status_code == 400
    assert client.get(f"{page}?lang=th").status_code == 200


def test_a_stale_language_cookie_is_ignored_not_refused(client):
    client.set_cookie("lang", "xx")
    assert client.get("/board/1").status_code == 200


def test_an_earlier_game_of_the_match_is_served_for_links_to_it(log, client):
    play_match(log, "1", "Somchai", "Malee", "1", [Outcome.DARK_WINS])
    decide(log, "1", ra.NewGame({}), game=2)
    for event in game_events("1", MOVES[:2], game=2)[1:]:
        log.append(event)
    first = client.get("/api/board/1/game/1").get_json()
    assert first["number"] == 1 and len(first["moves"]) == 4
    assert first["result"]["outcome"] == "dark wins"
    assert first["moves"][1]["fen"] == game_events("1", MOVES[:4])[2].fen
    assert client.get("/api/board/1/game/2").get_json()["number"] == 2
    assert client.get("/api/board/1/game/9").status_code == 404


def test_a_games_score_is_written_as_the_match_score_is(make_app, log):
    """First player first, in match points: the chip of a game and the players' totals agree."""
    play_match(log, "1", "Somchai", "Malee", "1", [Outcome.DARK_WINS, Outcome.DARK_WINS, Outcome.DRAW])
    match = make_app(boards=BOARDS).test_client().get("/api/board/1").get_json()["match"]
    # Game 1: Somchai dark, won; game 2: Malee dark, won; game 3: a draw.
    assert [r["score"] for r in match["results"]] == [
        {"first": 2, "second": 0}, {"first": 0, "second": 2}, {"first": 1, "second": 1}]
    assert match["score"] == {"first": 3, "second": 3}


def test_a_player_who_lost_ranks_before_players_who_have_not_played(make_app, log):
    play_match(log, "1", "Somchai", "Malee", "1", [Outcome.DARK_WINS])  # Malee lost
    decide(log, "2", ra.SetPlayers("Anan", "Dao", "1", 2))  # not played yet
    standings = make_app(boards=BOARDS).test_client().get("/api/standings").get_json()["standings"]
    assert [(s["player"], s["rank"]) for s in standings] == \
        [("Somchai", 1), ("Malee", 2), ("Anan", 3), ("Dao", 3)]


def test_the_thai_font_ships_with_the_pages_and_its_licence(client):
    font = client.get("/static/waree.woff")
    assert font.status_code == 200 and font.data[:4] == b"wOFF"
    assert "woff" in font.mimetype
    assert client.get("/static/waree-bold.woff").data[:4] == b"wOFF"
    licence = client.get("/static/waree-LICENSE.txt").get_data(as_text=True)
    assert "Permission is hereby granted" in licence
    css = client.get("/static/style.css").get_data(as_text=True)
    assert 'url("waree.woff")' in css and "U+0E00-0E7F" in css
