"""Restarts on a real video whose board the camera sees a quarter turned (its men on the
squares the cheap cue calls light): `makhos record --resume`, a `makhos worker` SIGKILLed
and started again, and a `makhos run` SIGKILLed and started again on what the camera
recorded next (a new file) or further on in the same one. Each gives the true game, every
ply once; a camera that cannot be read ends `makhos run` in one line (#43)."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from makhos.cli.main import main
from makhos.engine.pdn import read_game, write_game
from makhos.events import EventKind, open_log
from makhos.events.details import CameraNotice, CameraStatus

from hall_sample import folded_pdn
from test_faults import moves_logged, wait_for
from test_video_faults import assert_the_true_game_once, killed_after, truth_moves, worker

SEED = 7301


@pytest.fixture(scope="module")
def video(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A rendered 12-ply game, 640x360, a held-out scene, the board a quarter turned."""
    from lab.render import sample_scene
    from lab.videos import script_game
    from lab.videos.render import write_video

    script = script_game(SEED, plies=12, irregularities=0)
    scene = sample_scene(np.random.default_rng(SEED), held_out=True, elevation=(40.0, 80.0),
                         size=(640, 360), played="light")
    return write_video(script, scene, tmp_path_factory.mktemp("video") / "game.mp4", seed=SEED)


def truth(video: Path) -> list[str]:
    return [str(p.move) for p in read_game(video.with_suffix(".pdn").read_text()).game.plies]


def test_record_resume_takes_up_a_quarter_turned_board_and_reads_the_whole_file(video, tmp_path, capsys):
    whole = tmp_path / "whole.jsonl"
    assert main(["record", str(video), "--events", str(whole), "-o", str(tmp_path / "whole.pdn")]) == 0
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(whole.read_text().splitlines(keepends=True)[:5]))
    capsys.readouterr()
    pdn = tmp_path / "cut.pdn"
    assert main(["record", str(video), "--events", str(cut), "--resume", "-o", str(pdn)]) == 0
    said = capsys.readouterr()
    assert "resuming game 1 from the log" in said.out
    assert "truncated" not in said.err  # the frames read from the log's end are all there were
    assert [str(p.move) for p in read_game(pdn.read_text()).game.plies] == truth(video)
    events = open_log(str(cut)).read_board("board-1")
    assert not [e for e in events if e.kind in (EventKind.IRREGULARITY, EventKind.TAKEBACK,
                                                EventKind.BOARD_MISMATCH)]


@pytest.mark.parametrize("moves", [2, 6])
def test_a_worker_sigkilled_on_a_quarter_turned_board_takes_it_up(video, tmp_path, moves):
    db = str(tmp_path / "events.db")
    seen = killed_after(video, db, tmp_path / "outbox.jsonl", moves)
    assert seen < len(truth(video))
    again = worker(video, db, tmp_path / "outbox.jsonl")
    _, errors = again.communicate(timeout=300)
    assert again.returncode == 0, errors.decode()
    assert_the_true_game_once(db, video)


def split(video: Path, cut: float, back: float, folder: Path) -> tuple[Path, Path]:
    """The video up to ``cut`` seconds, and from ``back`` seconds on: what a camera recorded
    before its worker died, and what it recorded next."""
    import cv2

    capture = cv2.VideoCapture(str(video))
    fps = capture.get(cv2.CAP_PROP_FPS)
    size = (int(capture.get(cv2.CAP_PROP_FRAME_WIDTH)), int(capture.get(cv2.CAP_PROP_FRAME_HEIGHT)))
    parts = [folder / "before.mp4", folder / "next.mp4"]
    writers = [cv2.VideoWriter(str(p), cv2.VideoWriter_fourcc(*"mp4v"), fps, size) for p in parts]
    index = 0
    while True:
        ok, image = capture.read()
        if not ok:
            break
        if index < cut * fps:
            writers[0].write(image)
        elif index >= back * fps:
            writers[1].write(image)
        index += 1
    for writer in writers:
        writer.release()
    capture.release()
    return parts[0], parts[1]


def makhos_run(source: Path, db: str, *extra: str) -> subprocess.Popen[str]:
    """`makhos run` in a process of its own, stopped by Ctrl-C (SIGINT) as a user would,
    even where the tests run in the background with SIGINT ignored."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return subprocess.Popen([sys.executable, "-m", "makhos.cli.main", "run", "--source", str(source),
                             "--events", db, "--port", str(port), "--token", "t0k3n", *extra],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def ended_after(db: str, seq: int) -> bool:
    return any(isinstance(e.detail, CameraNotice) and e.detail.status is CameraStatus.ENDED
               for e in open_log(db).read_board("1") if e.seq > seq)


@pytest.mark.parametrize("next_source", ["a new file", "the same file further on"])
def test_makhos_run_sigkilled_on_a_live_game_takes_up_what_the_camera_shows_next(video, tmp_path, next_source):
    """The first run plays the video as if live (its log in the wall clock) and is
    SIGKILLed after some ply; the players go on, and the camera shows the board again two
    plies later: in a new file (read as fast as it decodes), or in the same one from there
    (`--start`, as if live). The plies it never saw are found in the gap, and the log holds
    the true game, each ply once, nothing taken back."""
    plies = truth_moves(video)  # (seconds, move), each when the hand leaves the board
    # The camera comes back while the board after those two plies stands longest in view: a
    # hand already over it would add a third ply, whose order no gap search can tell.
    moves = max(range(3, len(plies) - 2), key=lambda n: plies[n + 2][0] - plies[n + 1][0])
    cut, back = plies[moves][0] - 0.2, plies[moves + 1][0] + 0.5
    before, after = split(video, cut, back, tmp_path)
    db = str(tmp_path / "events.db")
    first = makhos_run(before if next_source == "a new file" else video, db, "--speed", "1")
    try:
        wait_for(lambda: len(moves_logged(open_log(db))) >= moves, timeout=300)
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait()
    seq = open_log(db).read_board("1")[-1].seq
    again = (makhos_run(after, db) if next_source == "a new file"
             else makhos_run(video, db, "--speed", "1", "--start", f"{back:.2f}"))
    try:
        wait_for(lambda: ended_after(db, seq) or again.poll() is not None, timeout=300)
        again.send_signal(signal.SIGINT)
        _, errors = again.communicate(timeout=60)
    finally:
        again.kill()  # a no-op once it has ended
    assert again.returncode == 0, errors
    events = open_log(db).read_board("1")
    assert not [e for e in events if e.kind is EventKind.TAKEBACK]
    assert moves_logged(open_log(db)) == truth(video)
    assert folded_pdn(open_log(db), "1") == write_game(read_game(video.with_suffix(".pdn").read_text()).game)


def test_a_camera_that_cannot_be_read_ends_makhos_run_in_one_line(tmp_path):
    broken = tmp_path / "camera.mp4"
    broken.write_bytes(bytes(range(256)) * 400)
    run = makhos_run(broken, str(tmp_path / "events.db"))
    try:
        _, errors = run.communicate(timeout=120)  # ends by itself, not serving a dead board
    finally:
        run.kill()
    assert run.returncode == 1
    last = errors.strip().splitlines()[-1]
    assert last.startswith("makhos run: camera failed: video file") and "cannot be opened" in last
    assert "Traceback" not in errors


def test_the_log_says_which_recording_each_run_took_up(video, tmp_path):
    """What a restart decides by: the recording (by its contents, so a copy under another
    name is the same one) and where its seconds lie in the log's clock."""
    copy = tmp_path / "renamed.mp4"
    copy.write_bytes(video.read_bytes())
    log = tmp_path / "events.jsonl"
    assert main(["record", str(video), "--events", str(log), "-o", str(tmp_path / "a.pdn")]) == 0
    assert main(["record", str(copy), "--events", str(log), "--resume", "-o", str(tmp_path / "b.pdn")]) == 0
    opened = [json.loads(line)["detail"] for line in log.read_text().splitlines() if '"opened"' in line]
    assert len(opened) == 2 and opened[0] == opened[1] and opened[0]["recording"]
