"""A rendered game video through the whole pipeline: `makhos record` gives the true PDN."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from makhos.cli.main import main
from makhos.engine.pdn import read_game
from makhos.events import EventKind, GameEvent
from makhos.events.details import CameraNotice, CameraStatus
from makhos.events.outbox import Outbox
from lab.render import sample_scene
from lab.videos import script_game
from lab.videos.render import write_video


@pytest.fixture(scope="module")
def clip(tmp_path_factory) -> Path:
    """A short game with one injected irregularity, 640x360, held-out palettes."""
    script = script_game(24, plies=8, irregularities=1)
    scene = sample_scene(np.random.default_rng(24), held_out=True, elevation=(50.0, 80.0),
                         size=(640, 360))
    return write_video(script, scene, tmp_path_factory.mktemp("clip") / "game.mp4", seed=24)


def kill_when_two_moves_in(watched: Path, arguments: list[str]) -> None:
    """Run ``python ARGUMENTS`` (a ``makhos record``) in a process of its own and SIGKILL it
    as soon as ``watched`` holds two moves, before it can end."""
    process = subprocess.Popen([sys.executable, *arguments],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and process.poll() is None:
        if watched.exists() and watched.read_text().count('"kind":"move"') >= 2:
            break
        time.sleep(0.05)
    assert process.poll() is None, "the record ended before it could be killed"
    os.kill(process.pid, signal.SIGKILL)
    process.wait()


def test_record_writes_the_true_game_and_its_events(clip, tmp_path, capsys):
    pdn, events = tmp_path / "game.pdn", tmp_path / "events.jsonl"
    assert main(["record", "--source", str(clip), "-o", str(pdn), "--events", str(events)]) == 0
    recorded = read_game(pdn.read_text()).game
    truth = read_game(clip.with_suffix(".pdn").read_text()).game
    assert recorded.positions() == truth.positions()
    kinds = [line.split('"kind":"')[1].split('"')[0] for line in events.read_text().splitlines()]
    assert kinds[:2] == ["camera", "game_started"]  # the recording taken up, then its game
    assert kinds.count("move") >= len(truth.plies)
    assert "plies" in capsys.readouterr().out


def test_record_writes_a_sqlite_log_unless_the_name_says_json_lines(clip, tmp_path, capsys):
    """`--events` names the same kind of log as in `run` and `worker` (#41): SQLite, and JSON
    lines only for a .jsonl name. A SQLite log already there is added to only with --resume."""
    from makhos.events import SQLiteLog

    events = tmp_path / "events.db"
    assert main(["record", "--source", str(clip), "-o", str(tmp_path / "game.pdn"),
                 "--events", str(events)]) == 0
    stored = SQLiteLog(events).read("1")
    assert [e.kind.value for e in stored[:2]] == ["camera", "game_started"]  # the recording opened, then its game
    assert any(e.kind.value == "move" for e in stored)
    capsys.readouterr()
    assert main(["record", "--source", str(clip), "--events", str(events)]) == 2
    assert "--resume" in capsys.readouterr().err
    assert len(SQLiteLog(events).read("1")) == len(stored)  # nothing lost, nothing added


def test_record_resume_names_the_boards_of_a_log_without_its_board(clip, tmp_path, capsys):
    from makhos.engine import Position
    from makhos.events import EventKind, GameEvent, SQLiteLog

    events = tmp_path / "events.db"
    SQLiteLog(events).append(GameEvent("board-1", EventKind.GAME_STARTED, 0.0,
                                       fen=Position.start().fen()))
    assert main(["record", "--source", str(clip), "--events", str(events), "--resume"]) == 2
    assert "board-1" in capsys.readouterr().err


def test_record_refuses_a_missing_or_corrupt_video(tmp_path, capsys):
    assert main(["record", "--source", str(tmp_path / "none.mp4")]) == 2
    assert "no video" in capsys.readouterr().err
    corrupt = tmp_path / "corrupt.mp4"
    corrupt.write_bytes(b"not a video at all")
    assert main(["record", "--source", str(corrupt)]) == 2
    assert "corrupt.mp4" in capsys.readouterr().err


def test_a_killed_record_leaves_every_event_it_made_in_its_log(clip, tmp_path):
    """The log is written as the game goes: killed mid-game, the file holds the events made
    so far, each whole, the same as the uninterrupted run's first ones; ``--resume`` then
    finishes the game from it."""
    import json

    full = tmp_path / "full.jsonl"
    assert main(["record", "--source", str(clip), "-o", str(tmp_path / "full.pdn"), "--events", str(full)]) == 0
    expected = [json.loads(line) for line in full.read_text().splitlines()]
    moves_at = [i for i, e in enumerate(expected) if e["kind"] == "move"]
    assert len(moves_at) >= 4
    killed = tmp_path / "killed.jsonl"
    kill_when_two_moves_in(killed, ["-m", "makhos.cli.main", "record", "--source", str(clip),
                                    "-o", str(tmp_path / "killed.pdn"), "--events", str(killed)])
    kept = [json.loads(line) for line in killed.read_text().splitlines()]
    assert 2 <= sum(e["kind"] == "move" for e in kept) < len(moves_at)
    assert kept == expected[:len(kept)]
    assert not (tmp_path / "killed.pdn").exists()
    last = kept[-1]["time"]
    assert main(["record", "--source", str(clip), "-o", str(tmp_path / "resumed.pdn"), "--events", str(killed),
                 "--resume", "--start", str(last)]) == 0
    resumed = read_game((tmp_path / "resumed.pdn").read_text()).game
    truth = read_game(clip.with_suffix(".pdn").read_text()).game
    assert resumed.positions() == truth.positions()


#: ``makhos record`` in a process of its own whose log hangs after its first two events, as a
#: stalled disk would: the record goes on accepting events, which wait in its outbox.
STALLED_RECORD = """
import sys, threading
from makhos.cli.main import main
from makhos.events.jsonl_log import JSONLinesLog

write = JSONLinesLog.append
def stalled(log, event):
    if len(log.read_board(event.board)) >= 2:
        threading.Event().wait()  # the writer never comes back
    return write(log, event)
JSONLinesLog.append = stalled
sys.exit(main(sys.argv[1:]))
"""


def test_a_record_killed_before_its_log_took_what_it_accepted_loses_none_of_it(clip, tmp_path):
    """Killed (SIGKILL) while events it accepted wait unwritten behind a hung log: each is on
    disk beside the log, and ``--resume`` writes them first, in order, as the uninterrupted
    run wrote them, then finishes the game."""
    def unnumbered(path: Path) -> list[GameEvent]:
        return [GameEvent.from_json(line).with_seq(0) for line in path.read_text().splitlines()]

    full = tmp_path / "full.jsonl"
    assert main(["record", "--source", str(clip), "-o", str(tmp_path / "full.pdn"), "--events", str(full)]) == 0
    expected = unnumbered(full)
    log, spool = tmp_path / "killed.jsonl", tmp_path / "killed.jsonl.outbox"
    kill_when_two_moves_in(spool, ["-c", STALLED_RECORD, "record", "--source", str(clip),
                                   "-o", str(tmp_path / "killed.pdn"), "--events", str(log)])
    written, held = unnumbered(log), [e.with_seq(0) for e in Outbox.held(spool)]
    assert len(written) == 2 and sum(e.kind.value == "move" for e in held) >= 2
    accepted = written + held
    assert accepted == expected[:len(accepted)]
    assert main(["record", "--source", str(clip), "-o", str(tmp_path / "resumed.pdn"), "--events", str(log),
                 "--resume", "--start", str(held[-1].time)]) == 0
    assert unnumbered(log)[:len(accepted)] == accepted
    assert not spool.exists()
    resumed = read_game((tmp_path / "resumed.pdn").read_text()).game
    assert resumed.positions() == read_game(clip.with_suffix(".pdn").read_text()).game.positions()


def test_a_new_record_over_an_old_log_starts_afresh(clip, tmp_path):
    """Without ``--resume`` the log and the events an old run left unwritten are not this
    recording's: neither reaches its log."""
    log = tmp_path / "events.jsonl"
    stale = GameEvent("board-1", EventKind.CAMERA, -1.0, detail=CameraNotice(CameraStatus.LOST))
    log.write_text(stale.to_json() + "\n")
    log.with_name("events.jsonl.outbox").write_text(stale.to_json() + "\n")
    assert main(["record", "--source", str(clip), "-o", str(tmp_path / "game.pdn"), "--events", str(log)]) == 0
    events = [GameEvent.from_json(line) for line in log.read_text().splitlines()]
    assert events[0].detail == CameraNotice(CameraStatus.OPENED, events[0].detail.recording)  # not the stale one
    assert events[1].kind is EventKind.GAME_STARTED and all(e.time >= 0 for e in events)
