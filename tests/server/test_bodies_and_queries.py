"""The pages' last 500s and silent cuts (issue #43), sent for real where the server's own
reading of the socket is what is tried: a chunked body over the limit is a 413 and nothing
is stored, a body that ends before its Content-Length is a quiet 400, a query number too
long for ``int()`` is a 400, and names that show blank are refused."""

from __future__ import annotations

import socket

import pytest

from makhos.events import SQLiteLog
from makhos.server import create_app
from makhos.server.body import MAX_BODY_BYTES
from makhos.server.config import BoardInfo, ServerConfig

from live_browser import served
from server_sample import TOKEN

ACTION = "/api/referee/1/action"
AUTH = {"X-Referee-Token": TOKEN, "Content-Type": "application/json"}
PLAYERS = b'{"action":"set_players","first":"Somchai","second":"Malee"}'
HEAD = (f"POST {ACTION} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Referee-Token: {TOKEN}\r\n"
        "Content-Type: application/json\r\n").encode()


@pytest.fixture
def live(tmp_path):
    """A real server on loopback over a file log: yields (port, log)."""
    log = SQLiteLog(tmp_path / "events.db")
    with served(create_app(ServerConfig(events=log, referee_token=TOKEN,
                                        boards=(BoardInfo("1"),)))) as url:
        yield int(url.rsplit(":", 1)[1]), log
    log.close()


def exchange(port: int, data: bytes, half_close: bool = False) -> bytes:
    """Send ``data`` on a fresh connection (then close our side, if asked) and read the
    whole answer until the server closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=20) as conn:
        conn.sendall(data)
        if half_close:
            conn.shutdown(socket.SHUT_WR)
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
            if b"\r\n\r\n" in answer and not half_close and _complete(answer):
                break
        return answer


def _complete(answer: bytes) -> bool:
    head, _, body = answer.partition(b"\r\n\r\n")
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            return len(body) >= int(line.split(b":")[1])
    return False


def chunked(body: bytes, size: int = 8192) -> bytes:
    return HEAD + b"Transfer-Encoding: chunked\r\n\r\n" + b"".join(
        b"%x\r\n%s\r\n" % (len(body[i:i + size]), body[i:i + size])
        for i in range(0, len(body), size)) + b"0\r\n\r\n"


@pytest.mark.parametrize("length", [MAX_BODY_BYTES + 1, 70_000, 200_000])
def test_a_chunked_body_over_the_limit_is_413_and_nothing_is_stored(live, length):
    """The old reader cut it at 65,537 bytes and the app parsed and stored the first part."""
    port, log = live
    padded = PLAYERS + b" " * (length - len(PLAYERS))  # valid JSON however it is cut
    answer = exchange(port, chunked(padded))
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert log.read(after=0) == []


def test_a_chunked_body_within_the_limit_is_taken(live):
    port, log = live
    answer = exchange(port, chunked(PLAYERS + b" " * (MAX_BODY_BYTES - len(PLAYERS))))
    assert answer.startswith(b"HTTP/1.1 201"), answer[:200]
    assert [e.detail.first for e in log.read(after=0)] == ["Somchai"]


@pytest.mark.parametrize("sent", [
    HEAD + b"Content-Length: 100\r\n\r\n" + PLAYERS[:9],
    HEAD + b"Transfer-Encoding: chunked\r\n\r\n" + b"40\r\n" + PLAYERS[:9],
])
def test_a_body_cut_short_by_a_half_close_is_a_quiet_400(live, capfd, sent):
    """gevent says "unexpected end of file" by raising; the old reader let it reach the
    server's error log as a 500 with a traceback for every dropped upload."""
    port, log = live
    answer = exchange(port, sent, half_close=True)
    assert answer.startswith(b"HTTP/1.1 400"), answer[:200]
    assert b"ended before" in answer
    assert "Traceback" not in capfd.readouterr().err
    assert log.read(after=0) == []


@pytest.mark.parametrize("page", ["/board/1", "/board/1/embed", "/board/1/overlay"])
def test_a_game_number_too_long_for_int_is_a_400_not_a_500(client, page):
    response = client.get(f"{page}?game={'7' * 4301}")
    assert response.status_code == 400
    assert b"game must be a whole number" in response.data
    assert client.get(f"{page}?game=2").status_code == 200


@pytest.mark.parametrize("name", ["\u3164", "\u2800", "\u034f", "\u115f", "\ufe0f", "\u0301",
                                  "\u3164\u3164\u3164", "Som \u0301"])
@pytest.mark.parametrize("field", ["first", "second"])
def test_names_that_show_blank_are_refused(log, client, name, field):
    body = {"action": "set_players", "first": "Somchai", "second": "Malee", field: name}
    response = client.post(ACTION, headers=AUTH, json=body)
    assert response.status_code == 400
    assert f"{field} holds" in response.get_json()["message"]
    assert log.read(after=0) == []


@pytest.mark.parametrize("name", ["สมชาย ใจดี", "ก้อง", "Nguyễn", "José", "\u2764\ufe0f Malee"])
def test_names_whose_marks_sit_on_letters_pass(log, client, name):
    response = client.post(ACTION, headers=AUTH,
                           json={"action": "set_players", "first": name, "second": "Malee"})
    assert response.status_code == 201, response.get_json()
    assert log.read(after=0)[0].detail.first == name


@pytest.mark.parametrize("name", ["\u3164", "\u2800\u2800", "\u0301"])
def test_a_hall_profile_naming_a_player_blank_is_refused_at_start(name):
    """The worker's players reach the log (and the PDN's tags) without the API's check."""
    from makhos.worker.profile import BoardPlan

    with pytest.raises(ValueError, match="board 3: players: first holds"):
        BoardPlan.from_json({"id": 3, "players": [name, "Malee"]})
