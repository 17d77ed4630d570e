"""Faults on a real source: a worker watching a video file is SIGKILLed and started again, or
its Redis is away when the video ends. The game in the log is the video's true game, every
ply once, with no ply taken back that nobody took back."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from makhos.engine.pdn import read_game, write_game
from makhos.events import EventKind, open_log

from hall_sample import folded_pdn
from test_faults import moves_logged, wait_for


@pytest.fixture(scope="module")
def video(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A rendered 10-ply game, 640x360, a held-out palette (never tuned on)."""
    from lab.render import sample_scene
    from lab.videos import script_game
    from lab.videos.render import write_video

    script = script_game(61, plies=10, irregularities=0)
    scene = sample_scene(np.random.default_rng(61), held_out=True, elevation=(50.0, 80.0), size=(640, 360))
    return write_video(script, scene, tmp_path_factory.mktemp("video") / "game.mp4", seed=61)


def worker(video: Path, log: str, outbox: Path, *extra: str) -> subprocess.Popen[bytes]:
    target = ["--redis", log] if "://" in log else ["--events", log]
    return subprocess.Popen([sys.executable, "-m", "makhos.cli.main", "worker", "--source", str(video),
                             "--board", "1", "--outbox", str(outbox), *target, *extra],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def assert_the_true_game_once(log_target: str, video: Path) -> None:
    log = open_log(log_target)
    truth = read_game(video.with_suffix(".pdn").read_text()).game
    events = log.read("1", limit=100_000)
    assert not [e for e in events if e.kind is EventKind.TAKEBACK]
    assert moves_logged(log) == [str(p.move) for p in truth.plies]
    assert folded_pdn(log, "1") == write_game(truth)


def killed_after(video: Path, db: str, outbox: Path, moves: int) -> int:
    """Run a worker on the video until its log holds ``moves`` moves, SIGKILL it; the moves
    logged by then."""
    first = worker(video, db, outbox)
    log = open_log(db)
    wait_for(lambda: len(moves_logged(log)) >= moves, timeout=300)
    first.send_signal(signal.SIGKILL)
    first.wait()
    return len(moves_logged(log))


def test_a_worker_killed_mid_video_takes_it_up_where_the_log_ends(video: Path, tmp_path: Path) -> None:
    db = str(tmp_path / "events.db")
    seen = killed_after(video, db, tmp_path / "outbox.jsonl", 3)
    truth = read_game(video.with_suffix(".pdn").read_text()).game
    assert seen < len(truth.plies)
    again = worker(video, db, tmp_path / "outbox.jsonl")
    _, errors = again.communicate(timeout=300)
    assert again.returncode == 0, errors.decode()
    assert_the_true_game_once(db, video)


def truth_moves(video: Path) -> list[tuple[float, str]]:
    """The true plies of a rendered video: (seconds into the file, move), in order."""
    import json

    from lab.videos.script import FPS

    lines = video.with_suffix(".truth.jsonl").read_text().splitlines()
    return [(e["frame"] / FPS, e["move"]) for e in map(json.loads, lines) if e["kind"] == "move"]


def test_a_live_camera_restarted_mid_game_takes_the_board_as_it_stands(video: Path, tmp_path: Path) -> None:
    """The worker dies; while it is down two or more plies are played; the camera it comes
    back to shows the board as it stands now (a source that starts mid-game). The plies
    missed are found by the gap search, in order, and nothing is taken back."""
    db = str(tmp_path / "events.db")
    seen = killed_after(video, db, tmp_path / "outbox.jsonl", 2)
    plies = truth_moves(video)
    back = seen + 2  # the camera comes back between ply `back` and the next one
    assert back < len(plies), f"the first worker saw {seen} plies before it was killed"
    comes_back = (plies[back - 1][0] + plies[back][0]) / 2
    again = worker(video, db, tmp_path / "outbox.jsonl", "--start", f"{comes_back:.2f}")
    _, errors = again.communicate(timeout=300)
    assert again.returncode == 0, errors.decode()
    assert_the_true_game_once(db, video)
    moves = [e for e in open_log(db).read("1", limit=100_000) if e.kind is EventKind.MOVE]
    assert [e.move for e in moves[seen:back] if e.detail.gap is not None] == [m for _, m in plies[seen:back]]


def test_redis_away_when_the_video_ends_keeps_the_events_on_disk_for_the_next_run(
        video: Path, tmp_path: Path, redis_server) -> None:
    outbox = tmp_path / "outbox.jsonl"
    first = worker(video, redis_server.url, outbox)
    log = open_log(redis_server.url)
    wait_for(lambda: len(moves_logged(log)) >= 2, timeout=300)
    redis_server.kill()
    _, errors = first.communicate(timeout=300)
    assert first.returncode == 1, errors.decode()
    assert f"wait in {outbox}" in errors.decode()
    assert outbox.exists() and outbox.read_text().count('"kind":"move"') >= 1
    redis_server.start()
    again = worker(video, redis_server.url, outbox)
    _, errors = again.communicate(timeout=300)
    assert again.returncode == 0, errors.decode()
    assert not outbox.exists()
    assert_the_true_game_once(redis_server.url, video)


@pytest.mark.parametrize("url, says", [
    ("127.0.0.1:6431", "write redis://127.0.0.1:6431/0"),
    ("http://127.0.0.1:6431/0", "not http://"),
    ("redis://127.0.0.1:6431/x", "database after the last / is a number"),
])
def test_a_redis_url_that_cannot_be_one_is_refused_in_one_line(url: str, says: str, tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "makhos.cli.main", "worker", "--source", "replay:none.pdn",
                             "--board", "1", "--redis", url], capture_output=True, text=True, timeout=60,
                            cwd=tmp_path)
    assert result.returncode == 2
    assert says in result.stderr and "Traceback" not in result.stderr
    assert not list(tmp_path.iterdir())  # no SQLite file named after the URL


def run_worker(tmp_path: Path, url: str) -> subprocess.CompletedProcess[str]:
    game = tmp_path / "game.pdn"
    game.write_text('[GameType "31"]\n\n1. 26-22 *\n')
    return subprocess.run([sys.executable, "-m", "makhos.cli.main", "worker", "--source", f"replay:{game}",
                           "--board", "1", "--redis", url, "--outbox", str(tmp_path / "outbox.jsonl")],
                          capture_output=True, text=True, timeout=60)


def test_a_port_that_is_not_redis_is_named_at_once(tmp_path: Path) -> None:
    from lab.redis_server import free_port

    port = free_port()
    http = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path)
    try:
        time.sleep(1.0)
        result = run_worker(tmp_path, f"redis://127.0.0.1:{port}/0")
    finally:
        http.kill()
    assert result.returncode == 2 and "not as Redis" in result.stderr, result.stderr


def test_no_token_and_a_refused_token_are_told_apart(tmp_path: Path) -> None:
    from lab.redis_server import BINARY, RedisServer

    if BINARY is None:
        pytest.skip("redis-server is not installed")
    server = RedisServer(tmp_path, password="hall-secret")
    server.start()
    try:
        bare = f"redis://127.0.0.1:{server.port}/0"
        none = run_worker(tmp_path, bare)
        wrong = run_worker(tmp_path, f"redis://:nope@127.0.0.1:{server.port}/0")
        missing_db = run_worker(tmp_path, f"redis://:hall-secret@127.0.0.1:{server.port}/99")
    finally:
        server.kill()
    assert none.returncode == 2 and "none was given" in none.stderr, none.stderr
    assert wrong.returncode == 2 and "refused the password" in wrong.stderr, wrong.stderr
    assert missing_db.returncode == 2 and "no database 99" in missing_db.stderr, missing_db.stderr
