"""The commentators' analysis on the public API and streams (Flask's test client): off by
default, on per event, never of a position newer than the broadcast delay, never for the
referee (issue #24: "the referee sees nothing that helps a player cheat")."""

from __future__ import annotations

import threading
import time

import pytest

from makhos.engine import Position
from makhos.engine.search import Searcher
from makhos.server.analyst import WALKED_BACK, Analyst, Job
from makhos.server.config import AnalysisSettings

from server_sample import MOVES, TOKEN, game_events
from test_server_api import fill, sse_blocks

FAST = AnalysisSettings(seconds=5.0, depth=2)  # a few milliseconds a position
AUTH = {"X-Referee-Token": TOKEN}
FENS = [e.fen for e in game_events("1", MOVES)]  # FENS[n]: the position after ply n


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def searched(monkeypatch):
    """Every position the engine is asked to search, with the server's clock at that moment."""
    calls: list[tuple[str, float]] = []
    original = Searcher.search_at
    clock: list[Clock] = []

    def search_at(self, at, limits):
        calls.append((at.position.fen(), clock[0]() if clock else time.time()))
        return original(self, at, limits)

    monkeypatch.setattr(Searcher, "search_at", search_at)
    return calls, clock


def ready(client, url: str, timeout: float = 10.0) -> dict:
    """The analysis at ``url`` once it is searched."""
    deadline = time.monotonic() + timeout
    while True:
        found = client.get(url).get_json()
        if found["status"] != "analysing" or time.monotonic() > deadline:
            return found
        time.sleep(0.01)


def test_analysis_is_off_by_default(log, client):
    fill(log, game_events("1", MOVES[:4]))
    assert client.get("/api/board/1/analysis").status_code == 404
    assert "off for this event" in client.get("/api/board/1/analysis").get_json()["message"]
    for url in ("/board/1", "/board/1/overlay", "/board/1/embed"):
        html = client.get(url).get_data(as_text=True)
        assert "eval-bar" not in html and "analysis.js" not in html, url
    blocks = sse_blocks(client.get("/api/board/1/events"), 5)
    assert [b["event"] for b in blocks] == ["update"] * 5
    assert client.application.extensions["makhos"].analyst is None


def test_analysis_on_gives_the_shown_position_its_score_best_move_and_line(log, make_app, searched):
    fill(log, game_events("1", MOVES[:7]))  # after 27x18: light to move
    client = make_app(analysis=FAST).test_client()
    first = client.get("/api/board/1/analysis").get_json()
    assert first == {"board": "1", "game": 1, "ply": 7, "fen": FENS[7], "status": "analysing"}
    found = ready(client, "/api/board/1/analysis")
    assert found["status"] == "ready" and found["fen"] == FENS[7] and found["depth"] == 2
    position = Position.from_fen(FENS[7])
    assert found["best"]["move"] in {str(m) for m in position.legal_moves()}
    assert found["pv"][0] == found["best"]["move"]
    assert found["line"].startswith(f"4... {found['pv'][0]} 5. {found['pv'][1]}")  # ply 8 is light's 4th
    assert isinstance(found["score"]["dark"], int) and found["score"]["winner"] is None
    html = client.get("/board/1").get_data(as_text=True)
    assert 'id="eval-bar"' in html and "analysis.js" in html and found["line"] in html  # inlined
    assert 'id="eval-bar"' in client.get("/board/1/overlay").get_data(as_text=True)
    # Many viewers, one search: the page, the overlay and the API asked again and again.
    assert [fen for fen, _ in searched[0]] == [FENS[7]]


def test_a_position_walked_back_to_is_analysed_once_asked_for(log, make_app):
    fill(log, game_events("1", MOVES[:7]))
    client = make_app(analysis=FAST).test_client()
    assert client.get("/api/board/1/analysis?ply=3").get_json()["status"] == "analysing"
    found = ready(client, "/api/board/1/analysis?ply=3")
    assert found["fen"] == FENS[3] and found["line"].startswith("2... ")
    assert client.get("/api/board/1/analysis?ply=8").status_code == 404  # not played (or not shown)
    assert client.get("/api/board/1/analysis?ply=-1").status_code == 400
    assert client.get("/api/board/1/analysis?ply=x").status_code == 400
    assert client.get("/api/board/9/analysis").status_code == 404


def test_the_stream_says_analysing_then_sends_the_analysis(log, make_app):
    fill(log, game_events("1", MOVES[:4]))
    client = make_app(analysis=FAST).test_client()
    blocks = sse_blocks(client.get("/api/board/1/events"), 7)
    assert [b["event"] for b in blocks] == ["update"] * 5 + ["analysis"] * 2
    analysing, found = blocks[5]["data"], blocks[6]["data"]
    assert analysing["status"] == "analysing" and analysing["fen"] == FENS[4]
    assert found["status"] == "ready" and found["fen"] == FENS[4]
    assert blocks[5]["id"] is None and blocks[6]["id"] is None  # a reconnect resumes by the log


def test_no_analysis_of_a_position_newer_than_the_broadcast_delay(log, make_app, searched):
    calls, clocks = searched
    clock = Clock(1000.0)
    clocks.append(clock)
    app = make_app(analysis=FAST, broadcast_delay=60.0, clock=clock, keepalive_seconds=0.05)
    client, feed = app.test_client(), app.extensions["makhos"].feed
    events = game_events("1", MOVES[:8], t0=0.0)  # frame times: seen when appended
    public_at: dict[str, float] = {}  # FEN -> when the public may see it
    for event in events[:5]:  # the start and plies 1-4
        last = feed.append(event).seq
        public_at[event.fen] = clock.now + 60
    clock.now = 1061.0
    for event in events[5:]:  # plies 5-8, played now: public at 1121
        feed.append(event)
        public_at[event.fen] = clock.now + 60

    assert ready(client, "/api/board/1/analysis")["fen"] == FENS[4]
    assert client.get("/api/board/1/analysis?ply=5").status_code == 404
    blocks = sse_blocks(client.get("/api/board/1/events"), 6)
    assert [b["event"] for b in blocks] == ["update"] * 5 + ["analysis"]
    assert blocks[-1]["data"]["fen"] == FENS[4] and blocks[-1]["data"]["status"] == "ready"
    assert max(b["data"]["event"]["ply"] for b in blocks[:5]) == 4
    for url in ("/board/1", "/board/1/overlay"):  # the pages inline the same analysis
        html = client.get(url).get_data(as_text=True)
        assert FENS[4] in html and FENS[5] not in html, url

    clock.now = 1122.0  # plies 5-8 are public now: the stream goes on with them
    blocks = sse_blocks(client.get("/api/board/1/events", headers={"Last-Event-ID": str(last)}), 6)
    assert [b["event"] for b in blocks] == ["update"] * 4 + ["analysis"] * 2
    assert [b["data"]["status"] for b in blocks[4:]] == ["analysing", "ready"]
    assert blocks[-1]["data"]["fen"] == FENS[8]
    # Every search the engine made was of a position the public could already see.
    assert calls and all(at >= public_at[fen] for fen, at in calls), calls
    assert {fen for fen, _ in calls} == {FENS[4], FENS[8]}


def test_the_referee_gets_no_analysis(log, make_app, monkeypatch):
    fill(log, game_events("1", MOVES[:6]))
    asked: list[Job] = []
    monkeypatch.setattr(Analyst, "lookup", lambda self, job, shown: asked.append(job) or (False, None))
    client = make_app(analysis=FAST).test_client()
    live = client.get("/api/referee/1", headers=AUTH).get_data(as_text=True)
    assert "analysis" not in live and '"pv"' not in live and '"best"' not in live
    console = client.get("/referee/1", headers=AUTH).get_data(as_text=True)
    assert "eval-bar" not in console and "analysis.js" not in console and 'id="analysis"' not in console
    blocks = sse_blocks(client.get("/api/referee/1/events", headers=AUTH), 7)
    assert [b["event"] for b in blocks] == ["update"] * 7  # no analysis message among them
    assert asked == []  # nothing the referee opened even asked the analyst
    client.get("/api/board/1/analysis")
    assert len(asked) == 1  # (the public API does: the check above can fail)


def test_the_analyst_searches_each_position_once_and_skips_positions_no_board_shows(monkeypatch):
    """A board that moves on while its position waits has the new position searched instead
    of the old one; two boards showing one position cost one search, and both are told."""
    from makhos.engine.game import Game
    from makhos.engine.search import GamePosition

    release, started = threading.Event(), threading.Event()
    order: list[str] = []
    original = Searcher.search_at

    def search_at(self, at, limits):
        order.append(at.position.fen())
        started.set()
        release.wait(10)
        return original(self, at, limits)

    monkeypatch.setattr(Searcher, "search_at", search_at)
    game = Game()
    for text in MOVES[:3]:
        game.play_text(text)
    jobs = [Job("1", game.rules, GamePosition.of(game, ply)) for ply in range(4)]
    told: list[str] = []
    analyst = Analyst(FAST, on_done=told.append)
    try:
        assert analyst.lookup(jobs[0], shown=True) == (False, None)
        assert started.wait(10)  # busy with jobs[0]
        analyst.lookup(jobs[1], shown=True)
        analyst.lookup(jobs[2], shown=True)  # board 1 moved on: no one shows jobs[1] now
        analyst.lookup(Job("2", game.rules, jobs[2].at), shown=True)  # board 2 shows the same
        analyst.lookup(jobs[3], shown=False)  # a walk-back waits behind the shown positions
        release.set()
        deadline = time.monotonic() + 10
        while analyst.version < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert order == [FENS[0], FENS[2], FENS[3]]
        assert sorted(told) == ["1", "1", "1", "2"]  # both boards showing FENS[2] were told
        assert analyst.lookup(Job("3", game.rules, jobs[2].at), shown=True)[0]  # cached
        assert analyst.lookup(Job("3", game.rules, jobs[1].at), shown=True) == (False, None)
    finally:
        release.set()
        analyst.close()


def test_walked_back_positions_waiting_are_bounded(monkeypatch):
    release = threading.Event()
    monkeypatch.setattr(Searcher, "search_at", lambda self, at, limits: release.wait(10) and None)
    from makhos.engine.game import Game
    from makhos.engine.search import GamePosition

    game = Game()
    for text in MOVES:
        game.play_text(text)
    analyst = Analyst(FAST, on_done=lambda board: None)
    try:
        for ply in range(len(MOVES) + 1):
            for board in "123":  # the same positions on three boards: one job each
                analyst.lookup(Job(board, game.rules, GamePosition.of(game, ply)), shown=False)
        assert len(analyst._walked) <= WALKED_BACK
    finally:
        release.set()
        analyst.close()


def test_a_position_the_engine_cannot_search_is_unavailable_not_fatal(log, make_app, monkeypatch):
    def broken(self, at, limits):
        raise RuntimeError("no search today")

    monkeypatch.setattr(Searcher, "search_at", broken)
    fill(log, game_events("1", MOVES[:2]))
    client = make_app(analysis=FAST).test_client()
    client.get("/api/board/1/analysis")
    assert ready(client, "/api/board/1/analysis")["status"] == "unavailable"
    assert client.get("/api/board/1").status_code == 200  # the board is served as before


def test_a_server_config_with_bad_analysis_settings_is_refused():
    with pytest.raises(ValueError, match="seconds"):
        AnalysisSettings(seconds=0)
    with pytest.raises(ValueError, match="depth"):
        AnalysisSettings(depth=0)


def test_analysis_json_from_the_hall_profile_names_what_is_wrong():
    assert AnalysisSettings.from_json(True) == AnalysisSettings()
    assert AnalysisSettings.from_json({"seconds": 2, "depth": 8}) == AnalysisSettings(2.0, 8)
    for value, words in (("yes", "true, false"), ({"seconds": "1"}, "number"),
                         ({"seconds": 0}, "more than 0"), ({"seconds": 61}, "at most 60"),
                         ({"depth": 1.5}, "whole number"), ({"speed": 1}, "unknown field 'speed'")):
        with pytest.raises(ValueError, match=words):
            AnalysisSettings.from_json(value)
