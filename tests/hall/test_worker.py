"""The worker loop, in process: a replayed game lands in the log whole; a camera that stalls
is reported lost and back, and the game goes on (worker/)."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import pytest

from makhos.engine.pdn import write_game
from makhos.events import EventKind, SQLiteLog
from makhos.events.decisions import SetPlayers
from makhos.worker.inputs import PlaybackInput
from makhos.worker.loop import Worker, WorkerConfig
from makhos.worker.profile import board_plan
from makhos.worker.playback import PlaybackSource

from hall_sample import folded_pdn, random_game


def test_a_replayed_game_is_logged_whole_with_the_profile_players(tmp_path):
    game = random_game(seed=1)
    log = SQLiteLog(tmp_path / "events.db")
    profile = tmp_path / "hall.json"
    profile.write_text('{"boards": [{"id": "1", "source": "replay:x.pdn", "players": ["Somchai", "Malee"]}]}')
    plan = board_plan(profile, "1")
    worker = Worker(WorkerConfig("1", players=plan.players), log,
                    PlaybackInput(PlaybackSource(tuple(game.positions()), speed=400)))
    worker.run(threading.Event())
    assert folded_pdn(log, "1") == write_game(game)
    assert [e.detail.first for e in log.read("1") if isinstance(e.detail, SetPlayers)] == ["Somchai"]


@dataclass(frozen=True)
class StallingInput(PlaybackInput):
    """A live camera that freezes for ``stall`` seconds after ``before`` observations and
    misses the next ``missed``: from the board after ply 1 it next sees the board after ply 3
    (ply 2 is never seen), two plies for the tracker to explain."""

    before: int = 9  # the start's 4 readings, then ply 1's hand and 4 readings
    stall: float = 0.8
    missed: int = 5  # ply 2: its hand and its 4 readings
    live: bool = True
    watches_camera: bool = True

    def items(self, after: float):
        for n, item in enumerate(super().items(after)):
            if n == self.before:
                time.sleep(self.stall)
            if not self.before <= n < self.before + self.missed:
                yield item


def test_a_stalled_camera_is_reported_lost_then_back_and_the_plies_it_missed_are_explained(tmp_path):
    game = random_game(seed=2, plies=12)
    log = SQLiteLog(tmp_path / "events.db")
    stop = threading.Event()
    worker = Worker(WorkerConfig("1", lost_after=0.3), log,
                    StallingInput(PlaybackSource(tuple(game.positions()), speed=400)))
    runner = threading.Thread(target=worker.run, args=(stop,))
    runner.start()
    deadline = time.monotonic() + 30
    while folded_pdn(log, "1") != write_game(game) and time.monotonic() < deadline:
        time.sleep(0.05)
    stop.set()
    runner.join()
    camera = [e.detail.status.value for e in log.read("1", limit=10_000) if e.kind is EventKind.CAMERA]
    assert camera[:2] == ["lost", "back"]
    assert folded_pdn(log, "1") == write_game(game)


def test_a_worker_started_before_redis_waits_for_it(tmp_path):
    from makhos.events import open_log
    from lab.redis_server import BINARY, RedisServer

    if BINARY is None:
        pytest.skip("redis-server is not installed")
    redis = RedisServer(tmp_path)
    game = random_game(seed=4, plies=8)
    worker = Worker(WorkerConfig("1", reopen_first=0.1), open_log(redis.url),
                    PlaybackInput(PlaybackSource(tuple(game.positions()), speed=400)))
    runner = threading.Thread(target=worker.run, args=(threading.Event(),))
    runner.start()
    time.sleep(0.5)
    redis.start()
    try:
        runner.join(timeout=30)
        assert folded_pdn(open_log(redis.url), "1") == write_game(game)
    finally:
        redis.kill()


def test_a_restarted_worker_applies_each_referee_decision_once(tmp_path):
    from makhos.events.decisions import TakeBack
    from makhos.vision.reading import Reading

    game = random_game(seed=3, plies=10)
    log = SQLiteLog(tmp_path / "events.db")
    Worker(WorkerConfig("1"), log, PlaybackInput(PlaybackSource(tuple(game.positions()), speed=400))).run(
        threading.Event())
    log.append(TakeBack(plies=1).to_event("1", game=1, time=time.time()))  # before the restart
    again = Worker(WorkerConfig("1"), log, PlaybackInput(PlaybackSource(tuple(game.positions()))))
    again.start_session(threading.Event())
    tracker = again.session.tracker
    assert len(tracker.game.plies) == 9
    log.append(TakeBack(plies=2).to_event("1", game=1, time=time.time()))  # while it runs
    board = tracker.game.position
    again.session.observe(100.0, Reading.certain(board, 100.0))
    assert len(tracker.game.plies) == 7
    again.outbox.close()


@dataclass(frozen=True)
class SlowReplay(PlaybackInput):
    """A replay whose plies come ``pause`` seconds apart, as one played at real time."""

    pause: float = 0.5

    def items(self, after: float):
        for item in super().items(after):
            time.sleep(self.pause / 10)
            yield item


def test_a_replay_silent_between_its_plies_reports_no_camera_lost(tmp_path):
    game = random_game(seed=3, plies=4)
    log = SQLiteLog(tmp_path / "events.db")
    worker = Worker(WorkerConfig("1", lost_after=0.02), log,
                    SlowReplay(PlaybackSource(tuple(game.positions()), speed=400)))
    worker.run(threading.Event())
    notices = [e.detail.status.value for e in log.read("1") if e.kind is EventKind.CAMERA]
    assert notices == ["ended"]
    assert folded_pdn(log, "1") == write_game(game)


@pytest.mark.parametrize("store", ["events.db", "events.jsonl"])
def test_a_worker_killed_after_the_log_took_a_move_and_before_its_spool_let_it_go_logs_it_once(tmp_path, store):
    """The outbox's thread appends an event, then rewrites the spool without it: a SIGKILL
    between the two leaves the event both in the log and on the spool, which the next run
    sends first. Stored again, the move would be played twice in the score (the second time
    as an irregular ply of the side that just moved): what a hall test once met under load."""
    from makhos.events import open_log

    game = random_game(seed=3, plies=10)
    boards = tuple(game.positions())
    whole = SQLiteLog(tmp_path / "whole.db")
    Worker(WorkerConfig("1"), whole, PlaybackInput(PlaybackSource(boards, speed=400))).run(threading.Event())
    events = [e.with_seq(0) for e in whole.read_board("1")]
    cut = [n for n, e in enumerate(events) if e.kind is EventKind.MOVE][4] + 1  # killed on the fifth move
    log, spool = open_log(tmp_path / store), tmp_path / "outbox.jsonl"
    for event in events[:cut]:
        log.append(event)
    spool.write_text("".join(e.to_json() + "\n" for e in events[cut - 1:cut + 1]))  # that move, and one after
    Worker(WorkerConfig("1", spool=spool), log, PlaybackInput(PlaybackSource(boards, speed=400))).run(
        threading.Event())
    assert [e.move for e in log.read_board("1") if e.kind is EventKind.MOVE] == [str(p.move) for p in game.plies]
    assert folded_pdn(log, "1") == write_game(game)
