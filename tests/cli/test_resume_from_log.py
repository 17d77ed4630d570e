"""`makhos record --resume` and `makhos run` take up a game from the log and say so (#25)."""

import json
import socket
from pathlib import Path

from makhos.cli.main import main
from makhos.engine.game import Game
from makhos.engine.pdn import read_game
from makhos.events import GameEvent, SQLiteLog
from makhos.tracker import GameTracker
from makhos.vision.reading import Reading

SAMPLE = "models/sample/sample.mp4"
TRUTH = read_game(Path("models/sample/sample.pdn").read_text(encoding="utf-8")).game


def first_plies_logged(plies: int) -> list[GameEvent]:
    """The log a recorder killed after ``plies`` plies of the sample game left (its times
    are the video's seconds, as a recording's are)."""
    game, tracker, log, events, t = Game(), GameTracker("1"), SQLiteLog(), [], 1.0
    for position in [game.start] + [game.play(p.move).after for p in TRUTH.plies[:plies]]:
        for _ in range(3):
            events += [log.append(e) for e in tracker.observe(t, Reading.certain(position, t))]
            t += 0.1
        t += 2.0
    return events


def test_record_resumes_the_game_of_its_log_and_finds_the_plies_of_the_gap(tmp_path, capsys):
    log = tmp_path / "events.jsonl"
    log.write_text("".join(e.to_json() + "\n" for e in first_plies_logged(4)), encoding="utf-8")
    pdn = tmp_path / "game.pdn"
    assert main(["record", "--source", SAMPLE, "--events", str(log), "--resume", "--start", "20", "-o", str(pdn)]) == 0
    out = capsys.readouterr().out
    assert "resuming game 1 from the log at ply 4, 10 s after its last event" in out
    recorded = read_game(pdn.read_text(encoding="utf-8")).game
    assert recorded.position == TRUTH.position and len(recorded.plies) == len(TRUTH.plies)
    events = [GameEvent.from_json(line) for line in log.read_text(encoding="utf-8").splitlines()]
    moves = [e for e in events if e.kind.value == "move"]
    gap = [e for e in moves if e.detail.gap is not None]
    # The plies played while no recorder watched (after the log's last event, 10.3 s, and
    # before the first reading at --start, 20 s) are the gap's, timed from the log's end;
    # the first reading comes as the board is first seen still, so every later ply is live.
    assert gap == moves[4:7]
    assert all(9.5 <= e.detail.gap < 11 for e in gap)
    assert all(e.detail.gap is None for e in moves[7:])
    assert "after a gap of" in pdn.read_text(encoding="utf-8")


def test_record_resume_needs_a_log(tmp_path, capsys):
    assert main(["record", "--source", SAMPLE, "--resume", "--events", str(tmp_path / "none.jsonl")]) != 0
    assert "--resume" in capsys.readouterr().err


def test_run_says_which_game_it_resumes_at_start_up(tmp_path, monkeypatch, capsys):
    """Stopped before serving: what matters is the line said before the pages open."""
    db = tmp_path / "events.db"
    log = SQLiteLog(db)
    for event in first_plies_logged(3):
        log.append(GameEvent.from_json(json.dumps({**json.loads(event.to_json()), "board": "1"})))
    log.close()
    monkeypatch.setattr("makhos.cli.run.serve_until_interrupted", lambda live: live.close())
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert main(["run", "--source", SAMPLE, "--start", "15.5", "--events", str(db),
                 "--port", str(port)]) == 0
    out = capsys.readouterr().out
    assert "makhos run: watching video file models/sample/sample.mp4 from 15.5 s" in out
    assert "resuming game 1 from the log at ply 3, 8 s after its last event" in out
