"""Requests a server on a hall's network will meet: oversized and over-deep bodies, control
characters in names, a browser that last read another log, a TLS proxy in front."""

from __future__ import annotations

import pytest

from makhos.engine.game import Game
from makhos.engine.pdn import read_game, write_game
from makhos.events.decisions import SetPlayers
from makhos.server.body import MAX_BODY_BYTES, MAX_DEPTH, nesting_depth
from makhos.worker.profile import BoardPlan

from server_sample import MOVES, T0, TOKEN, game_events
from test_server_api import fill, sse_blocks

AUTH = {"X-Referee-Token": TOKEN}
ACTION = "/api/referee/1/action"


# ------------------------------------------------------------ bodies (defect 4)

def test_100_000_brackets_are_a_clear_413_not_a_500(client):
    response = client.post(ACTION, headers=AUTH, data="[" * 100_000, content_type="application/json")
    assert response.status_code == 413
    assert "too large" in response.get_json()["message"].lower()


@pytest.mark.parametrize("body", ["[" * 4_000 + "]" * 4_000, "{" * 8_000,
                                  '{"action": "new_game", "rules": ' + "[" * 9 + "]" * 9 + "}"])
def test_deeply_nested_json_within_the_size_limit_is_a_clear_400(client, body):
    """4,000 levels fit in the 8 KiB a body may have and would exhaust the parser's
    recursion: measured first."""
    response = client.post(ACTION, headers=AUTH, data=body, content_type="application/json")
    assert response.status_code == 400
    message = response.get_json()["message"]
    assert f"deeper than {MAX_DEPTH}" in message and "take_back" in message


def test_a_body_over_the_limit_is_413_before_it_is_read(client):
    body = '{"action": "take_back", "pad": "' + "x" * MAX_BODY_BYTES + '"}'
    response = client.post(ACTION, headers=AUTH, data=body, content_type="application/json")
    assert response.status_code == 413
    assert response.get_json()["error"] == "Request Entity Too Large"


def test_the_calibration_save_reads_its_body_within_the_same_bounds(client):
    response = client.post("/api/referee/1/calibration", headers=AUTH, data="[" * 50_000,
                           content_type="application/json")
    assert response.status_code in (400, 404)  # 404: no profile here; never a 500


def test_brackets_inside_strings_do_not_count_as_depth():
    assert nesting_depth('{"first": "[[[[[[[[[[[[", "second": "}}}\\"{{{"}') == 1
    assert nesting_depth('{"rules": {"forced_opening": [[1, 2]]}}') == 4
    assert nesting_depth("7") == 0


def test_an_ordinary_action_still_goes_through(log, client):
    fill(log, game_events("1", MOVES[:2]))
    response = client.post(ACTION, headers=AUTH, json={"action": "take_back", "plies": 1})
    assert response.status_code == 201


# ------------------------------------------------------------ plain text (defect 5)

@pytest.mark.parametrize("field", ["first", "second", "round"])
@pytest.mark.parametrize("control", ["\x00", "\x1b", "\x07", "\t", "\n", "\x7f", "\x85", "\u202e"])
def test_control_characters_in_players_and_round_are_refused(log, client, field, control):
    body = {"action": "set_players", "first": "Somchai", "second": "Malee", "round": "QF"}
    body[field] = f"Som{control}chai"
    response = client.post(ACTION, headers=AUTH, json=body)
    assert response.status_code == 400
    assert f"{field} holds a control character (U+{ord(control):04X})" in response.get_json()["message"]
    assert log.read(after=0) == []  # nothing reached the log


def test_a_control_character_in_a_result_reason_is_refused(client):
    response = client.post(ACTION, headers=AUTH,
                           json={"action": "set_result", "outcome": "draw", "reason": "agreed\x1b[2J"})
    assert response.status_code == 400 and "reason holds a control character" in response.get_json()["message"]


def test_thai_names_and_punctuation_pass(client):
    body = {"action": "set_players", "first": "สมชาย ใจดี", "second": "O'Brien-Wong (TH)",
            "round": "รอบ 2/ก"}
    assert client.post(ACTION, headers=AUTH, json=body).status_code == 201
    players = client.get("/api/board/1").get_json()["game"]["players"]
    assert set(players.values()) == {"สมชาย ใจดี", "O'Brien-Wong (TH)"}


def test_names_that_came_another_way_never_reach_pdn_tags_raw(log, client):
    """An event name or a board label from the hall profile, or a name written straight
    into the log, is still one line of text in PDN."""
    log.append(SetPlayers("A\x00B", "C\x1b[31mD", "1\n2").to_event("1", 1, T0))
    fill(log, game_events("1", MOVES[:2]))
    text = client.get("/api/board/1/pdn").get_data(as_text=True)
    header = text.split("\n\n")[0]
    assert not any(ord(c) < 32 and c != "\n" for c in header)
    assert "\x1b" not in text and "\x00" not in text
    assert len(read_game(text).game.plies) == 2


def test_a_hall_profile_with_a_control_character_in_a_name_is_refused_at_start():
    with pytest.raises(ValueError, match="board 3: players: first holds a control character"):
        BoardPlan.from_json({"id": 3, "players": ["Som\x1bchai", "Malee"]})


def test_pdn_tags_replace_control_characters_with_spaces():
    game = Game()
    text = write_game(game, {"Event": "PEA\x00Open", "White": "A\x1b[2JB", "Round": "1\u20282"})
    assert '[Event "PEA Open"]' in text and '[White "A [2JB"]' in text and '[Round "1 2"]' in text


# ------------------------------------------------------------ Last-Event-ID (defect 6)

def test_an_id_beyond_the_log_resets_the_client_and_sends_the_log_from_its_start(log, client):
    """A browser that read seq 500 of a log now gone reconnects to a server with a fresh one."""
    fill(log, game_events("1", MOVES[:2]))  # seqs 1-3
    response = client.get("/api/board/1/events", headers={"Last-Event-ID": "500"})
    blocks = sse_blocks(response, 4)
    reset, first, *_ = blocks
    assert reset["event"] == "reset" and reset["id"] == "0"
    assert reset["data"]["reset"] == {"after": 500, "last": 3}
    assert [m["move"] for m in reset["data"]["state"]["game"]["moves"]] == list(MOVES[:2])
    assert first["event"] == "update" and first["id"] == "1"
    assert [b["id"] for b in blocks[1:]] == ["1", "2", "3"]


def test_an_id_at_the_end_of_the_log_is_an_ordinary_resume(app, log, client):
    fill(log, game_events("1", MOVES[:2]))  # seqs 1-3
    response = client.get("/api/board/1/events?after=3")
    app.extensions["makhos"].feed.append(game_events("1", MOVES[:3])[-1])
    [message] = sse_blocks(response, 1)
    assert message["event"] == "update" and message["id"] == "4"


def test_the_hall_stream_and_the_referee_stream_reset_too(log, client):
    fill(log, game_events("1", MOVES[:1]))
    hall = sse_blocks(client.get("/api/hall/events", headers={"Last-Event-ID": "99"}), 1)[0]
    assert hall["event"] == "reset" and hall["data"]["state"] is None  # the hall page reloads
    referee = sse_blocks(client.get("/api/referee/1/events", headers={**AUTH, "Last-Event-ID": "99"}), 1)[0]
    assert referee["event"] == "reset" and referee["data"]["state"]["board"] == "1"


def test_a_reset_on_an_empty_log_still_carries_the_state(client):
    [reset] = sse_blocks(client.get("/api/board/1/events", headers={"Last-Event-ID": "7"}), 1)
    assert reset["event"] == "reset" and reset["data"]["state"]["game"]["moves"] == []


# ------------------------------------------------------------ headers, icon, proxy (defect 7)

@pytest.mark.parametrize("url", ["/", "/board/1", "/board/1/embed", "/board/1/overlay", "/board/9"])
def test_public_pages_carry_nosniff_and_a_policy_without_inline_script(client, url):
    response = client.get(url)
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert "frame-ancestors *" in policy  # the embed goes into other sites
    assert "<script>" not in response.get_data(as_text=True)  # every script is a file


def test_api_answers_are_nosniff_and_referee_pages_are_never_framed(client):
    assert client.get("/api/board/1").headers["X-Content-Type-Options"] == "nosniff"
    page = client.get("/referee/1", headers=AUTH)
    assert "frame-ancestors 'none'" in page.headers["Content-Security-Policy"]


def test_favicon_is_served(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert b"<svg" in response.data


def _cookie(client, headers=None) -> str:
    response = client.get(f"/referee/1?token={TOKEN}", headers=headers or {})
    return response.headers["Set-Cookie"]


def test_the_cookie_is_secure_behind_a_trusted_tls_proxy(make_app):
    client = make_app(trusted_proxies=1).test_client()
    assert "Secure" in _cookie(client, {"X-Forwarded-Proto": "https"})
    assert "Secure" not in _cookie(client, {"X-Forwarded-Proto": "http"})


def test_without_a_trusted_proxy_the_forwarded_scheme_is_ignored(client):
    """Any client can send the header: believed only when a proxy is configured."""
    assert "Secure" not in _cookie(client, {"X-Forwarded-Proto": "https"})
    assert "Secure" in client.get(f"https://localhost/referee/1?token={TOKEN}").headers["Set-Cookie"]


def test_a_trusted_proxy_does_not_make_the_host_a_clients_to_choose(make_app):
    client = make_app(trusted_proxies=1).test_client()
    response = client.get(f"/referee/1?token={TOKEN}", headers={"X-Forwarded-Host": "evil.example"})
    assert "evil.example" not in response.location
