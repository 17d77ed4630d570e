"""SQLite, JSON-lines and Redis logs keep one contract: ordered, resumable, per board and
hall-wide, a whole board at once."""

from __future__ import annotations

import threading

import pytest

from makhos.events import EventKind, GameEvent, LogUnavailable, open_log
from makhos.events.redis_log import RedisLog


@pytest.fixture(params=["sqlite", "jsonl", "redis"])
def log(request, tmp_path):
    if request.param in ("sqlite", "jsonl"):
        store = open_log(tmp_path / f"events.{'db' if request.param == 'sqlite' else 'jsonl'}")
    else:
        store = open_log(request.getfixturevalue("redis_server").url)
    yield store
    store.close()


def move(board: str, time: float, text: str = "22-18") -> GameEvent:
    return GameEvent(board, EventKind.MOVE, time, move=text)


def test_the_factory_picks_the_store_by_its_url(tmp_path, redis_server):
    assert isinstance(open_log(redis_server.url), RedisLog)
    assert not isinstance(open_log(tmp_path / "e.db"), RedisLog)


def test_appends_get_increasing_seqs_and_read_back_per_board_and_hall_wide(log):
    stored = [log.append(move(board, float(t))) for t, board in enumerate("1212")]
    assert [e.seq for e in stored] == sorted({e.seq for e in stored})
    assert log.read("1") == [stored[0], stored[2]]
    assert log.read(after=stored[1].seq) == stored[2:]
    assert log.read("2", after=stored[1].seq) == [stored[3]]
    assert log.read(limit=3) == stored[:3]
    assert log.boards() == ["1", "2"]


def test_a_whole_board_reads_in_one_call_however_long_its_log(log):
    """Beyond one page of :meth:`read`: a replay gets every event, in order, and no other board's."""
    stored = [log.append(move("2" if t % 10 == 0 else "1", float(t))) for t in range(1300)]
    assert len(log.read("1")) < 1170  # a page stops short
    assert log.read_board("1") == [e for e in stored if e.board == "1"]
    assert log.read_board("3") == []


def test_concurrent_writers_never_leave_a_gap_a_reader_could_step_over(log):
    def write(board: str) -> None:
        for t in range(40):
            log.append(move(board, float(t)))

    writers = [threading.Thread(target=write, args=(str(b),)) for b in range(4)]
    for w in writers:
        w.start()
    seen: list[GameEvent] = []
    while any(w.is_alive() for w in writers) or len(seen) < 160:
        seen += log.read(after=seen[-1].seq if seen else 0)
    assert len(seen) == 160 and len({e.seq for e in seen}) == 160
    for board in "0123":
        assert [e.time for e in seen if e.board == board] == [float(t) for t in range(40)]


def test_a_resent_append_is_stored_once(redis_server):
    log = open_log(redis_server.url)
    first = log.append(move("1", 1.0))
    again = log.append(move("1", 1.0))
    other = log.append(move("1", 2.0))
    assert again.seq == first.seq and other.seq > first.seq
    assert [e.seq for e in log.read("1")] == [first.seq, other.seq]


def test_the_log_survives_a_redis_restart_and_says_when_it_is_unreachable(redis_server):
    log = open_log(redis_server.url)
    stored = log.append(move("1", 1.0))
    redis_server.kill()
    with pytest.raises(LogUnavailable):
        log.append(move("1", 2.0))
    redis_server.start()
    assert log.read("1") == [stored]
    assert log.append(move("1", 2.0)).seq == stored.seq + 1


def test_a_password_comes_from_the_url_or_from_the_token(tmp_path):
    from lab.redis_server import BINARY, RedisServer

    if BINARY is None:
        pytest.skip("redis-server is not installed")
    server = RedisServer(tmp_path, password="hall-secret")
    server.start()
    try:
        assert open_log(server.url).boards() == []
        bare = server.url.replace(":hall-secret@", "")
        assert open_log(bare, password="hall-secret").boards() == []
        with pytest.raises(ValueError, match="password"):
            open_log(bare).boards()
    finally:
        server.kill()


def test_a_reader_waiting_on_redis_is_woken_by_an_append_from_elsewhere(redis_server):
    reader, writer = open_log(redis_server.url), open_log(redis_server.url)
    reader.wait_for_append(0)  # subscribed from here on
    waiter = threading.Thread(target=reader.wait_for_append, args=(60.0,))
    waiter.start()
    writer.append(move("1", 1.0))
    waiter.join(timeout=20)
    assert not waiter.is_alive()
