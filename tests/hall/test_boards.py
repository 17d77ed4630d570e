"""Several boards in one process (worker/boards.py): each board's game lands whole in its own
log; a board whose source dies says so in its log and leaves the others running."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from makhos.engine.pdn import read_game, write_game
from makhos.events import EventKind, SQLiteLog
from makhos.worker.boards import Board, watch_boards
from makhos.worker.inputs import PlaybackInput
from makhos.worker.loop import WorkerConfig
from makhos.worker.playback import Observation, PlaybackSource

from hall_sample import folded_pdn, makhos, random_game, recorded


def replay(seed: int, plies: int = 12) -> PlaybackInput:
    return PlaybackInput(PlaybackSource(tuple(random_game(seed, plies).positions()), speed=400))


def camera_notices(log: SQLiteLog, board: str) -> list[tuple[str, str | None]]:
    return [(e.detail.status.value, e.reason) for e in log.read(board, limit=10_000)
            if e.kind is EventKind.CAMERA]


@dataclass(frozen=True)
class DyingInput(PlaybackInput):
    """A camera whose source raises after ``dies_after`` observations (a recording: it is
    not reopened)."""

    dies_after: int = 12

    def items(self, after: float):
        for n, item in enumerate(super().items(after)):
            if n == self.dies_after:
                raise OSError("the camera's cable was pulled")
            yield item


def test_each_board_of_one_process_is_logged_whole_in_its_own_game(tmp_path):
    db = tmp_path / "events.db"
    boards = [Board(WorkerConfig(str(seed)), SQLiteLog(db), replay(seed)) for seed in (1, 2, 3)]
    assert watch_boards(boards, threading.Event()) == []
    log = SQLiteLog(db)
    for seed in (1, 2, 3):
        assert folded_pdn(log, str(seed)) == write_game(random_game(seed, 12))
        assert camera_notices(log, str(seed)) == [("ended", None)]


def test_a_board_whose_source_dies_is_reported_and_the_others_go_on(tmp_path):
    db = tmp_path / "events.db"
    dying = DyingInput(PlaybackSource(tuple(random_game(2, 12).positions()), speed=400))
    boards = [Board(WorkerConfig("1"), SQLiteLog(db), replay(1)),
              Board(WorkerConfig("2"), SQLiteLog(db), dying),
              Board(WorkerConfig("3"), SQLiteLog(db), replay(3))]
    failures = watch_boards(boards, threading.Event())
    assert [(f.board, str(f.error)) for f in failures] == [("2", "the camera's cable was pulled")]
    log = SQLiteLog(db)
    for seed in (1, 3):
        assert folded_pdn(log, str(seed)) == write_game(random_game(seed, 12))
    (status, reason), = camera_notices(log, "2")
    assert status == "lost" and "the camera's cable was pulled" in reason
    assert 0 < len(read_game(folded_pdn(log, "2")).game.plies) < 12  # what it saw is kept


@dataclass(frozen=True)
class FailingOnce(PlaybackInput):
    """A live camera whose worker fails once, at the ``at``-th observation it is handed."""

    at: int = 12
    live: bool = True
    handed: list[int] = field(default_factory=list)

    def feed(self, session, item: Observation):
        self.handed.append(1)
        if len(self.handed) == self.at:
            raise RuntimeError("a fault in the session")
        return super().feed(session, item)


def test_a_live_board_whose_worker_fails_is_started_again_from_its_log(tmp_path):
    db = tmp_path / "events.db"
    game = random_game(4, 12)
    failing = FailingOnce(PlaybackSource(tuple(game.positions()), speed=400))
    stop = threading.Event()
    boards = [Board(WorkerConfig("4", reopen_first=0.05), SQLiteLog(db), failing),
              Board(WorkerConfig("5"), SQLiteLog(db), replay(5))]
    runner = threading.Thread(target=lambda: failures.extend(watch_boards(boards, stop)))
    failures: list[object] = []
    runner.start()
    log = SQLiteLog(db)
    deadline = time.monotonic() + 30
    while folded_pdn(log, "4") != write_game(game) and time.monotonic() < deadline:
        time.sleep(0.05)
    stop.set()
    runner.join()
    assert failures == []
    assert folded_pdn(log, "4") == write_game(game)
    assert folded_pdn(log, "5") == write_game(random_game(5, 12))
    notices = camera_notices(log, "4")
    assert [status for status, _ in notices[:2]] == ["lost", "back"]
    assert "a fault in the session" in (notices[0][1] or "")


def test_a_board_named_twice_is_refused(tmp_path):
    boards = [Board(WorkerConfig("1"), SQLiteLog(tmp_path / "e.db"), replay(1)) for _ in range(2)]
    with pytest.raises(ValueError, match="named twice"):
        watch_boards(boards, threading.Event())


def test_makhos_worker_watches_the_boards_named_and_reports_the_one_that_fails(tmp_path):
    (tmp_path / "broken.mp4").write_bytes(b"not a video at all")
    boards = [{"id": str(seed), "source": f"replay:{recorded(tmp_path, seed, 10)[1].name}"} for seed in (1, 3)]
    boards.append({"id": "2", "source": "broken.mp4"})
    (tmp_path / "hall.json").write_text(json.dumps({"boards": boards}))
    db = tmp_path / "events.db"
    done = makhos("worker", "--hall-profile", "hall.json", "--board", "1", "--board", "2",
                  "--board", "3", "--events", str(db), "--speed", "400", cwd=tmp_path)
    assert done.returncode == 1
    assert "board 2: video file broken.mp4: cannot be opened" in done.stderr
    log = SQLiteLog(db)
    for seed in (1, 3):
        assert folded_pdn(log, str(seed)) == write_game(random_game(seed, 10))
    assert [status for status, _ in camera_notices(log, "2")] == ["opened", "lost"]


@pytest.mark.parametrize("flag", [["--source", "0"], ["--outbox", "x.jsonl"], ["--start", "3"]])
def test_one_boards_flags_are_refused_with_several_boards(tmp_path, flag):
    (tmp_path / "hall.json").write_text('{"boards": [{"id": "1", "source": "0"}, {"id": "2", "source": "1"}]}')
    done = makhos("worker", "--hall-profile", "hall.json", "--board", "1", "--board", "2", *flag, cwd=tmp_path)
    assert done.returncode != 0 and f"{flag[0]} is one board's" in done.stderr


@pytest.fixture(scope="module")
def video(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A rendered 10-ply game, 640x360, a held-out palette (never tuned on)."""
    from lab.render import sample_scene
    from lab.videos import script_game
    from lab.videos.render import write_video

    script = script_game(62, plies=10, irregularities=0)
    scene = sample_scene(np.random.default_rng(62), held_out=True, elevation=(50.0, 80.0), size=(640, 360))
    return write_video(script, scene, tmp_path_factory.mktemp("video") / "game.mp4", seed=62)


def test_two_cameras_in_one_process_read_with_one_network_and_record_their_games(tmp_path, video):
    from makhos.vision.networks import Networks
    from makhos.worker.inputs import CameraInput

    networks = Networks()
    db = tmp_path / "events.db"
    boards = [Board(WorkerConfig(board, offline=True), SQLiteLog(db),
                    CameraInput(str(video), networks=networks, decoder_threads=1)) for board in ("a", "b")]
    assert watch_boards(boards, threading.Event()) == []
    assert len(networks) == 1
    truth = write_game(read_game(video.with_suffix(".pdn").read_text()).game)
    log = SQLiteLog(db)
    assert folded_pdn(log, "a") == folded_pdn(log, "b") == truth
