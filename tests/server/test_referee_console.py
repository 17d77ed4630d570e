"""The referee console and its API: the token, decisions, refusals, the camera."""

from __future__ import annotations

import pytest

from makhos.engine import Colour
from makhos.events import EventKind, GameEvent
from makhos.events.decisions import TakeBack
from makhos.events.details import Irregularity, IrregularityKind

from server_sample import MOVES, T0, TOKEN, game_events

AUTH = {"X-Referee-Token": TOKEN}


def fill(log, events):
    for event in events:
        log.append(event)


@pytest.mark.parametrize("url", ["/referee/1", "/api/referee/1", "/api/referee/1/events",
                                 "/referee/1/snapshot.jpg", "/referee/1/camera.mjpg",
                                 "/api/referee/1/vision"])
def test_referee_routes_refuse_without_token_401_and_wrong_token_403(client, url):
    assert client.get(url).status_code == 401
    assert client.get(url + "?token=nope").status_code == 403
    assert client.get(url, headers={"Authorization": "Bearer nope"}).status_code == 403


def test_action_route_refuses_without_token(client):
    response = client.post("/api/referee/1/action", json={"action": "take_back", "plies": 1})
    assert response.status_code == 401
    assert "token" in response.get_json()["message"]


def test_console_is_off_without_a_configured_token(make_app):
    client = make_app(referee_token=None).test_client()
    response = client.get("/referee/1?token=anything")
    assert response.status_code == 403 and b"--token" in response.data


def test_token_in_the_address_becomes_a_cookie_and_leaves_the_address(client):
    response = client.get(f"/referee/1?token={TOKEN}&lang=th")
    assert response.status_code == 303 and response.location == "/referee/1?lang=th"
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    page = client.get(response.location)  # the cookie alone now suffices
    assert page.status_code == 200 and "กรรมการ" in page.get_data(as_text=True)
    assert page.headers["X-Frame-Options"] == "DENY"
    assert page.headers["Referrer-Policy"] == "no-referrer"
    assert client.get("/api/referee/1").status_code == 200


def test_unknown_board_is_404_behind_the_token(client):
    assert client.get("/api/referee/9", headers=AUTH).status_code == 404
    response = client.post("/api/referee/9/action", headers=AUTH, json={"action": "take_back"})
    assert response.status_code == 404


def test_a_decision_is_appended_to_the_log_as_a_referee_event(app, log, client):
    fill(log, game_events("1", MOVES[:3]))
    response = client.post("/api/referee/1/action", headers=AUTH,
                           json={"action": "take_back", "plies": 2})
    assert response.status_code == 201
    [event] = log.read("1", after=response.get_json()["seq"] - 1)
    assert event.kind is EventKind.REFEREE and event.detail == TakeBack(2)
    assert len(client.get("/api/referee/1", headers=AUTH).get_json()["game"]["moves"]) == 1


def test_malformed_json_is_400_with_a_clear_message(client):
    response = client.post("/api/referee/1/action", headers={**AUTH, "Content-Type": "application/json"},
                           data="{not json")
    assert response.status_code == 400
    assert "must be JSON" in response.get_json()["message"]


def test_invalid_action_is_400_and_says_what_to_fix(client):
    response = client.post("/api/referee/1/action", headers=AUTH,
                           json={"action": "grant_extra_time", "side": "dark", "minutes": 3})
    assert response.status_code == 400
    assert response.get_json()["message"] == "minutes must be 5 or 10"


def test_a_decision_that_does_not_fit_the_board_is_409(log, client):
    fill(log, game_events("1", MOVES[:2]))
    cases = [({"action": "acknowledge", "alert": 999}, "no open alert 999"),
             ({"action": "take_back", "plies": 5}, "only 2 plies"),
             ({"action": "correct_move", "move": "25-18"}, "not one legal move")]
    for body, message in cases:
        response = client.post("/api/referee/1/action", headers=AUTH, json=body)
        assert response.status_code == 409, body
        assert message in response.get_json()["message"]


def test_extra_time_allowance_is_enforced_per_side_per_game(log, client):
    fill(log, game_events("1", MOVES[:2]))
    grant = {"action": "grant_extra_time", "side": "dark", "minutes": 10}
    assert client.post("/api/referee/1/action", headers=AUTH, json=grant).status_code == 201
    assert client.post("/api/referee/1/action", headers=AUTH, json=grant).status_code == 409
    state = client.get("/api/referee/1", headers=AUTH).get_json()
    assert state["clock"]["limit_seconds"] == 720


def test_acknowledge_then_accept_an_irregular_move(log, client):
    fill(log, game_events("1", MOVES[:1]))
    alert = log.append(GameEvent("1", EventKind.IRREGULARITY, T0, reason="chain stopped early"))
    for action in ("acknowledge", "accept_move"):
        response = client.post("/api/referee/1/action", headers=AUTH,
                               json={"action": action, "alert": alert.seq})
        assert response.status_code == 201
    assert client.get("/api/referee/1", headers=AUTH).get_json()["alerts"] == []


def test_the_referee_chooses_one_of_the_lines_through_a_gap(log, client):
    fill(log, game_events("1", MOVES[:1]))
    lines = ("8-11 26-23 11-16", "8-11 26-22 11-16")  # as the tracker lists them (#25)
    notice = log.append(GameEvent("1", EventKind.IRREGULARITY, T0 + 30, reason="3 plies unseen",
                                  detail=Irregularity(IrregularityKind.GAP, lines=lines, gap=25.0)))
    wrong = {"action": "choose_line", "alert": notice.seq, "line": "8-11 26-23 11-15"}
    response = client.post("/api/referee/1/action", headers=AUTH, json=wrong)
    assert response.status_code == 409 and "lists no line" in response.get_json()["message"]
    chosen = {"action": "choose_line", "alert": notice.seq, "line": lines[0]}
    assert client.post("/api/referee/1/action", headers=AUTH, json=chosen).status_code == 201
    state = client.get("/api/referee/1", headers=AUTH).get_json()
    assert state["alerts"] == []
    moves = state["game"]["moves"]
    assert [m["move"] for m in moves] == ["25-21", "8-11", "26-23", "11-16"]
    assert [m["gap"] for m in moves] == [None] + ["after a gap of 25 s"] * 3
    assert [m["spent"] for m in moves[1:]] == [None] * 3
    assert client.post("/api/referee/1/action", headers=AUTH, json=chosen).status_code == 409


def test_new_game_takes_the_next_number_once_a_game_is_played(log, client):
    fill(log, game_events("1", MOVES[:2]))
    body = {"action": "new_game", "rules": {"men_per_side": 12}}
    response = client.post("/api/referee/1/action", headers=AUTH, json=body)
    assert response.get_json()["game"] == 2
    state = client.get("/api/referee/1", headers=AUTH).get_json()
    assert state["game"]["number"] == 2 and state["game"]["rules"]["men_per_side"] == 12


def test_a_game_starts_from_any_position_the_referee_names(app, log, client):
    """An adjourned game resumed, a simultaneous board, a composed problem: a new game from a
    FEN with the side to move; the record opens at it, and the log replays to it."""
    from makhos.engine.pdn import read_game
    from makhos.events.game import replay

    fill(log, game_events("1", MOVES[:2]))
    fen = "W:W10,11,K27:B14,19,K31"  # light to move
    body = {"action": "new_game", "rules": {"forced_opening": ["26-22"]}, "fen": fen}
    response = client.post("/api/referee/1/action", headers=AUTH, json=body)
    assert response.status_code == 201 and response.get_json()["detail"]["fen"] == fen
    state = client.get("/api/referee/1", headers=AUTH).get_json()
    assert state["game"]["number"] == 2 and state["game"]["start_fen"] == state["game"]["fen"] == fen
    assert state["game"]["rules"]["forced_opening"] == []  # no opening from a position
    assert replay(log.read("1")).current.game.start.fen() == fen
    pdn = read_game(client.get("/api/board/1/game/2/pdn").get_data(as_text=True))
    assert pdn.tags["SetUp"] == "1" and pdn.tags["FEN"] == fen and pdn.game.start.fen() == fen
    # The side it names moves: a first ply by the other side is irregular, not a new first mover.
    move = GameEvent("1", EventKind.MOVE, T0 + 900, game=2, ply=1, move="19-15", side=Colour.DARK,
                     fen="B:W10,11,K27:B14,15,K31")
    log.append(move)
    [ply] = replay(log.read("1")).current.game.plies
    assert ply.is_irregular and ply.before.fen() == fen


@pytest.mark.parametrize("fen, says", [
    ("W:W10,11:B14,19,", None),  # a trailing comma is still a FEN
    ("X:W10:B14", "fen"), ("W:W10,10:B14", "given twice"), ("W:W40:B14", "no square 40"),
    ("W:W1,2,3,4,5,6,7,8,9:B30", "light has 9 pieces"),
    ("W:W29:B14", "a light man on 29, the row where it would have been crowned"),
    ("W:W:B14", "light has no pieces"), ("B:W22,25:B29", "dark has no move"),
])
def test_a_new_game_from_a_malformed_or_impossible_fen_is_400(log, client, fen, says):
    body = {"action": "new_game", "rules": {}, "fen": fen}
    response = client.post("/api/referee/1/action", headers=AUTH, json=body)
    if says is None:
        assert response.status_code == 201
        return
    assert response.status_code == 400 and says in response.get_json()["message"]
    assert [e for e in log.read("1") if e.kind is EventKind.REFEREE] == []  # nothing stored


def test_a_game_starts_from_the_board_the_camera_reads_next(log, client):
    """The referee names the side to move; the page says the board is awaited, and the
    decision is stored for the camera's tracker to answer with the board it reads."""
    fill(log, game_events("1", MOVES[:2]))
    body = {"action": "new_game", "rules": {}, "from_board": True, "turn": "light"}
    response = client.post("/api/referee/1/action", headers=AUTH, json=body)
    assert response.status_code == 201 and response.get_json()["game"] == 2
    assert response.get_json()["detail"] | body == response.get_json()["detail"]
    game = client.get("/api/referee/1", headers=AUTH).get_json()["game"]
    assert game["number"] == 2 and game["awaits_board"] and game["turn"] == "light"


@pytest.mark.parametrize("body, says", [
    ({"from_board": True}, "needs turn"),
    ({"from_board": True, "turn": "up"}, "turn must be 'dark' or 'light'"),
    ({"from_board": True, "turn": "dark", "fen": "W:W10:B14"}, "not both"),
    ({"turn": "dark"}, "turn goes with from_board"),
    ({"fen": ""}, "fen"),
])
def test_a_new_game_from_the_board_asked_wrongly_is_400(log, client, body, says):
    body = {"action": "new_game", "rules": {}, **body}
    response = client.post("/api/referee/1/action", headers=AUTH, json=body)
    assert response.status_code == 400 and says in response.get_json()["message"]
    assert [e for e in log.read("1") if e.kind is EventKind.REFEREE] == []  # nothing stored


def test_the_console_offers_a_new_game_from_the_board_or_a_fen(client):
    """The form the console's script posts from: the side to move, a FEN, a button each."""
    page = client.get("/referee/1", headers=AUTH).get_data(as_text=True)
    form = page[page.index("data-from-position"):]
    form = form[:form.index("</form>")]
    assert '<select name="turn"><option value="dark">' in form and '<option value="light">' in form
    assert '<input name="fen"' in form
    assert '<button name="from" value="board">From the board</button>' in form
    assert '<button name="from" value="fen">From the FEN</button>' in form


def test_no_camera_is_404(client):
    for url in ("/referee/1/snapshot.jpg", "/referee/1/camera.mjpg"):
        response = client.get(url, headers=AUTH)
        assert response.status_code == 404 and b"no camera" in response.data


HEALTH = {"state": "moving", "found": 1.0, "shake_px": 2.4, "since_read": 12.0, "age": 0.2}


class OneFrameCamera:
    """A frame provider with a camera on board 1 only."""

    def snapshot(self, board: str) -> bytes | None:
        return b"\xff\xd8fake-jpeg\xff\xd9" if board == "1" else None

    def health(self, board: str) -> dict | None:
        return HEALTH if board == "1" else None


def test_the_boards_vision_health_is_in_its_api_and_the_referees(make_app, log):
    fill(log, game_events("1", MOVES[:3]))
    client = make_app(camera=OneFrameCamera()).test_client()
    state = client.get("/api/board/1").get_json()
    assert state["vision"] == HEALTH and len(state["game"]["moves"]) == 3
    assert "vision" not in client.get("/api/board/2").get_json()  # no camera there
    assert client.get("/api/referee/1/vision", headers=AUTH).get_json() == HEALTH
    missing = client.get("/api/referee/2/vision", headers=AUTH)
    assert missing.status_code == 404 and missing.get_json()["message"] == "no camera"
    assert b'id="vision"' in client.get("/referee/1", headers=AUTH).data


def test_camera_frames_come_from_the_pluggable_provider(make_app):
    client = make_app(camera=OneFrameCamera()).test_client()
    response = client.get("/referee/1/snapshot.jpg", headers=AUTH)
    assert response.mimetype == "image/jpeg" and response.data.startswith(b"\xff\xd8")
    assert client.get("/referee/2/snapshot.jpg", headers=AUTH).status_code == 404
    stream = client.get("/referee/1/camera.mjpg", headers=AUTH)
    assert stream.mimetype == "multipart/x-mixed-replace"
    first = next(iter(stream.response))
    stream.close()
    assert first.startswith(b"--frame\r\nContent-Type: image/jpeg") and b"fake-jpeg" in first
    # the camera shows people: never on the public pages
    assert b"camera.mjpg" not in client.get("/board/1").data


def test_live_stream_for_the_referee_ignores_the_delay(make_app, log):
    from test_server_api import sse_messages

    client = make_app(broadcast_delay=300.0).test_client()
    fill(log, game_events("1", MOVES[:1], t0=0.0))
    messages = sse_messages(client.get("/api/referee/1/events", headers=AUTH), 2)
    assert messages[-1]["state"]["game"]["moves"][0]["move"] == MOVES[0]
    assert client.get("/api/referee/1/events?after=x", headers=AUTH).status_code == 400


def test_referee_sees_live_through_a_broadcast_delay(make_app):
    client = make_app(broadcast_delay=300.0).test_client()
    response = client.post("/api/referee/1/action", headers=AUTH, json={
        "action": "set_players", "first": "A", "second": "B", "round": "1", "games": 4})
    assert response.status_code == 201
    assert client.get("/api/referee/1", headers=AUTH).get_json()["match"]["first"] == "A"
    assert client.get("/api/board/1").get_json()["match"]["first"] == ""


def test_folder_frames_serve_the_recorders_latest_jpeg(make_app, tmp_path):
    from makhos.server.camera import FolderFrames

    (tmp_path / "1.jpg").write_bytes(b"\xff\xd8board-one\xff\xd9")
    client = make_app(camera=FolderFrames(tmp_path)).test_client()
    assert b"board-one" in client.get("/referee/1/snapshot.jpg", headers=AUTH).data
    assert client.get("/referee/2/snapshot.jpg", headers=AUTH).status_code == 404
