"""The public JSON API, PDN and SSE streams, through Flask's test client."""

from __future__ import annotations

import json

from makhos.engine.pdn import read_game, read_games
from makhos.events import EventKind, GameEvent
from makhos.events.decisions import SetPlayers
from makhos.events.details import ReaderAdapted

from server_sample import MOVES, T0, game_events


def fill(log, events):
    for event in events:
        log.append(event)


def sse_blocks(response, count: int) -> list[dict]:
    """The first ``count`` messages of a stream, each with its id, event name and data (the
    stream is then closed)."""
    blocks, buffer = [], ""
    for chunk in response.response:
        buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        while "\n\n" in buffer:
            block, buffer = buffer.split("\n\n", 1)
            fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line
                          and not line.startswith(":"))
            if "data" in fields:
                blocks.append({"id": fields.get("id"), "event": fields.get("event"),
                               "data": json.loads(fields["data"])})
        if len(blocks) >= count:
            break
    response.close()
    return blocks


def sse_messages(response, count: int) -> list[dict]:
    """The first ``count`` update messages of a stream: the event's seq and the data."""
    return [{"id": int(b["id"]), **b["data"]} for b in sse_blocks(response, count)
            if b["event"] == "update"]


def test_hall_lists_configured_boards_then_boards_from_the_log(log, client):
    fill(log, game_events("7", MOVES[:3]))
    hall = client.get("/api/hall").get_json()
    assert [b["board"] for b in hall["boards"]] == ["1", "2", "7"]
    seven = hall["boards"][2]
    assert seven["plies"] == 3 and seven["title"] == "Board 7"


def test_board_state_is_the_folded_game(log, client):
    fill(log, game_events("1"))
    state = client.get("/api/board/1").get_json()
    assert [m["move"] for m in state["game"]["moves"]] == list(MOVES)
    assert state["title"] == "Table 1"


def test_unknown_board_is_404_with_a_reason(client):
    for url in ("/api/board/9", "/api/board/9/pdn", "/api/board/9/events", "/board/9",
                "/board/9/embed", "/board/9/overlay"):
        response = client.get(url)
        assert response.status_code == 404, url
    body = client.get("/api/board/9").get_json()
    assert "no board '9'" in body["message"]


def test_pdn_of_board_game_and_event(log, client):
    fill(log, game_events("1"))
    fill(log, game_events("2", MOVES[:4]))
    response = client.get("/api/board/1/pdn")
    assert response.mimetype == "application/x-pdn"
    assert [str(p.move) for p in read_game(response.get_data(as_text=True)).game.plies] == list(MOVES)
    one = client.get("/api/board/2/game/1/pdn").get_data(as_text=True)
    assert len(read_game(one).game.plies) == 4
    assert client.get("/api/board/2/game/5/pdn").status_code == 404
    games = read_games(client.get("/api/pdn").get_data(as_text=True))
    assert [g.tags["Board"] for g in games] == ["1", "2"]


def test_board_stream_sends_each_event_with_the_state_after_a_burst(log, client):
    fill(log, game_events("1", MOVES[:2]))
    messages = sse_messages(client.get("/api/board/1/events"), 3)
    assert [m["id"] for m in messages] == [1, 2, 3]
    assert messages[0]["state"] is None and messages[-1]["state"]["seq"] == 3
    assert messages[-1]["event"]["move"] == "8-11"


def test_the_stream_leaves_out_what_only_a_worker_reads(log, client):
    """A reader's lesson (tens of kB a ply, kept for a worker taken up mid-game) is neither
    held by the server nor sent to the pages; the moves around it are, each with its seq."""
    first, move = game_events("1", MOVES[:1])
    lesson = GameEvent("1", EventKind.READER_ADAPTED, first.time + 5, game=1, ply=0,
                       detail=ReaderAdapted("x" * 20_000))
    fill(log, [first, lesson, move])
    response = client.get("/api/board/1/events")
    blocks = sse_blocks(response, 2)
    assert [int(b["id"]) for b in blocks] == [1, 3]
    assert all(b["data"]["event"]["kind"] != "reader_adapted" for b in blocks)
    assert client.get("/api/board/1").get_json()["seq"] == 3


def test_last_event_id_resumes_without_losing_events(log, client):
    fill(log, game_events("1", MOVES[:5]))
    response = client.get("/api/board/1/events", headers={"Last-Event-ID": "3"})
    assert [m["id"] for m in sse_messages(response, 3)] == [4, 5, 6]
    response = client.get("/api/board/1/events?after=5")
    assert [m["id"] for m in sse_messages(response, 1)] == [6]


def test_stream_wakes_on_an_event_appended_later(app, log, client):
    fill(log, game_events("1", MOVES[:1]))
    response = client.get("/api/board/1/events?after=2")
    app.extensions["makhos"].feed.append(game_events("1", MOVES[:2])[-1])
    [message] = sse_messages(response, 1)
    assert message["event"]["move"] == "8-11"


def test_bad_last_event_id_is_400(client):
    response = client.get("/api/board/1/events", headers={"Last-Event-ID": "abc"})
    assert response.status_code == 400
    assert "Last-Event-ID" in response.get_json()["message"]


def test_hall_stream_carries_board_summaries(log, client):
    fill(log, game_events("1", MOVES[:1]) + game_events("2", MOVES[:1]))
    messages = sse_messages(client.get("/api/hall/events"), 4)
    assert [m["event"]["board"] for m in messages] == ["1", "1", "2", "2"]
    assert messages[1]["state"]["plies"] == 1 and messages[3]["state"]["board"] == "2"


def test_broadcast_delay_hides_recent_events_from_the_public(make_app, log):
    app = make_app(broadcast_delay=60.0)
    client = app.test_client()
    feed = app.extensions["makhos"].feed
    for event in game_events("1", MOVES[:2], t0=0.0):  # frame times: seen "now"
        feed.append(event)
    assert client.get("/api/board/1").get_json()["game"]["moves"] == []
    assert client.get("/api/board/1").get_json()["delay"] == 60.0
    live = client.get("/api/referee/1", headers={"X-Referee-Token": "s3cret-token"}).get_json()
    assert len(live["game"]["moves"]) == 2
    assert read_game(client.get("/api/board/1/pdn").get_data(as_text=True)).game.plies == []


def test_events_already_in_the_log_at_start_keep_their_age(make_app, log):
    fill(log, game_events("1", MOVES[:2], t0=T0))  # wall times long past
    client = make_app(broadcast_delay=60.0).test_client()
    assert len(client.get("/api/board/1").get_json()["game"]["moves"]) == 2


def test_player_names_are_escaped_in_json_and_pages(log, client):
    name = '</script><script>alert(1)</script><img src=x onerror=alert(2)>'
    log.append(SetPlayers(name, "B", "1", 4).to_event("1", 1, T0))
    assert client.get("/api/board/1").get_json()["game"]["players"]["dark"] == name
    for url in ("/", "/board/1", "/board/1/embed", "/board/1/overlay"):
        html = client.get(url).get_data(as_text=True)
        assert "<script>alert(1)" not in html and "<img src=x" not in html, url


def test_a_restarted_server_shows_the_same_and_streams_resume(tmp_path):
    from makhos.events import SQLiteLog
    from makhos.server import create_app
    from makhos.server.config import ServerConfig

    path = tmp_path / "events.db"
    first_log = SQLiteLog(path)
    first = create_app(ServerConfig(events=first_log))
    for event in game_events("1", MOVES[:4]):
        first.extensions["makhos"].feed.append(event)
    before = first.test_client().get("/api/board/1").get_json()
    first.extensions["makhos"].close()
    first_log.close()

    second_log = SQLiteLog(path)
    second = create_app(ServerConfig(events=second_log))
    try:
        client = second.test_client()
        assert client.get("/api/board/1").get_json() == before
        resumed = sse_messages(client.get("/api/board/1/events", headers={"Last-Event-ID": "3"}), 2)
        assert [m["id"] for m in resumed] == [4, 5]
    finally:
        second.extensions["makhos"].close()
        second_log.close()


def test_pdn_headers_come_from_the_hall(make_app, log):
    """Event and Site from the hall profile, Round from the board's match, Date from the day
    the game started (the hall's clock); no question marks where the hall knows."""
    import time

    from makhos.events.decisions import NewGame

    client = make_app(event_name="PEA Open", site="Bangkok, Thailand").test_client()
    log.append(SetPlayers("Somchai", "Malee", "3", 4).to_event("1", 1, T0))
    fill(log, game_events("1", MOVES[:4]))
    log.append(NewGame({}).to_event("1", 2, T0 + 86_400))
    fill(log, game_events("1", MOVES[:2], game=2, t0=T0 + 86_400))
    games = read_games(client.get("/api/pdn").get_data(as_text=True))
    for game, started in zip(games, (T0, T0 + 86_400), strict=True):
        assert game.tags["Event"] == "PEA Open" and game.tags["Site"] == "Bangkok, Thailand"
        assert game.tags["Round"] == "3"
        assert game.tags["Date"] == time.strftime("%Y.%m.%d", time.localtime(started))
    one = read_game(client.get("/api/board/1/game/1/pdn").get_data(as_text=True))
    assert one.tags["Date"] == games[0].tags["Date"] and one.tags["Site"] == "Bangkok, Thailand"


def test_a_game_seen_on_a_video_has_no_date_to_give(log, client):
    """A video's frame times are no day: the Date stays unknown rather than 1970.01.01."""
    fill(log, game_events("1", MOVES[:2], t0=0.0))
    assert read_game(client.get("/api/board/1/pdn").get_data(as_text=True)).tags["Date"] == "????.??.??"


def test_event_pdn_holds_every_game_even_those_without_a_move(log, client):
    from makhos.events.decisions import NewGame

    fill(log, game_events("1", MOVES[:4]))
    fill(log, game_events("2", ()))  # set up, not a move yet
    log.append(NewGame({}).to_event("1", 2, T0 + 500))  # board 1's game 2: no move yet
    games = read_games(client.get("/api/pdn").get_data(as_text=True))
    assert [(g.tags["Board"], g.tags["Game"], len(g.game.plies)) for g in games] == [
        ("1", "1", 4), ("1", "2", 0), ("2", "1", 0)]
