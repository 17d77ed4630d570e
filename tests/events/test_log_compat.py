"""A log written before the typed event contract (issue #19) still reads, and replays to
exactly what the code of its time made of it.

``logs/v1_log.jsonl`` was written by the tracker of commit eecc8e5 through a scripted hall
session (every event kind, every referee action, a malformed entry); ``v1_expected.json``
holds what that commit's server state showed after each event and what its resumed
tracker held. The script that made them is ``tests/events/logs/make_v1_log.py`` in
commit 86177c8.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from makhos.engine.pdn import read_game
from makhos.events import GameEvent
from makhos.events.details import EventKind, Unreadable, read_detail
from makhos.server.state import BoardState

LOGS = Path(__file__).parent / "logs"
#: Kinds the contract gained after the old log was written (issue #23: a king stacked).
NEWER_KINDS = {EventKind.CROWNED, EventKind.READER_ADAPTED}


@pytest.fixture(scope="module")
def log() -> list[GameEvent]:
    return [GameEvent.from_json(line) for line in
            (LOGS / "v1_log.jsonl").read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def expected() -> dict:
    return json.loads((LOGS / "v1_expected.json").read_text(encoding="utf-8"))


def typed_alerts(alerts: list[dict]) -> list[dict]:
    """Alerts with their detail read as typed facts: a new writer leaves defaults out."""
    return [{**a, "detail": read_detail(EventKind(a["kind"]) if a["kind"] in EventKind._value2member_map_
                                         else EventKind.IRREGULARITY, a["detail"])}
            for a in alerts]


def test_every_entry_reads_and_only_the_malformed_one_is_unreadable(log, expected):
    assert len(log) == expected["events"]
    kinds = sorted({e.kind.value for e in log})
    assert kinds == expected["kinds"] == sorted(k.value for k in EventKind if k not in NEWER_KINDS)
    unreadable = [e for e in log if isinstance(e.detail, Unreadable)]
    assert [(e.kind, e.detail.to_dict()) for e in unreadable] == [
        (EventKind.REFEREE, {"action": "take_back", "plies": "all"})]


def test_written_again_every_entry_reads_back_the_same(log):
    assert [GameEvent.from_json(e.to_json()) for e in log] == log


def as_old(view: dict) -> dict:
    """A view without the facts it gained after the old log (issue #23: when the clock
    stopped, the time spent on each move; #25: the plies seen after a gap; #32: each game's
    match points; #33: whether a game waits for the board to be read; #43: the game's place
    in its own match; #42: whether a ply seen after a gap is unconfirmed)."""
    assert view["game"].pop("awaits_board") is False
    view["game"].pop("in_match")
    view["clock"].pop("stopped")
    for result in view["match"]["results"]:
        result.pop("score")
    for move in view["game"]["moves"]:
        move.pop("spent")
        assert move.pop("gap") is None
        assert move.pop("unconfirmed") is False
    return view


def test_the_server_state_replays_the_old_log_as_the_old_server_showed_it(log, expected):
    state = BoardState(log[0].board)
    for event, before in zip(log, expected["views"]):
        state.apply(event)
        view = as_old(state.to_json())
        assert event.seq == before["seq"]
        assert state.summary() == before["summary"], event.seq
        assert typed_alerts(view["alerts"]) == typed_alerts(before["alerts"]), event.seq
        for key in ("clock", "camera", "crowning_pending"):
            assert view[key] == before[key], (event.seq, key)
    final, old = as_old(state.to_json()), expected["view"]
    assert typed_alerts(final.pop("alerts")) == typed_alerts(old.pop("alerts"))
    assert final == old
    # The same games and tags; the PDN now also carries the time control and move times,
    # for a game light starts, the numbering its squares follow (issue #21), and beside a
    # FEN the SetUp tag, a FEN where light moves first, and the day the game began (#33).
    for new, old_text in zip([state.pdn(r, {"Event": "Fixture Open"}) for r in state.games], expected["pdn"],
                             strict=True):
        now, then = read_game(new), read_game(old_text)
        assert now.game.positions() == then.game.positions()
        assert now.game.result() == then.game.result()
        light_first = "first_mover=light" in then.tags.get("Rules", "")
        numbering = {"Numbering": "first mover"} if light_first else {}
        set_up = {"SetUp": "1"} if "FEN" in then.tags else {}  # a FEN says so for any reader (#33)
        if light_first and "FEN" not in then.tags:  # and light to move at the start (#33)
            set_up = {"SetUp": "1", "FEN": "W:W32,31,30,29,28,27,26,25:B8,7,6,5,4,3,2,1"}
        assert re.fullmatch(r"\d{4}\.\d\d\.\d\d|\?{4}\.\?\?\.\?\?", now.tags["Date"])
        day = {"Date": now.tags["Date"]}
        assert now.tags == {**then.tags, "TimeControl": "1/120", **numbering, **set_up, **day}
        assert len(now.move_seconds) == len(now.game.plies)


def test_a_tracker_restored_from_the_old_log_holds_what_the_old_resume_did(log, expected):
    from makhos.tracker import GameTracker

    tracker = GameTracker(log[0].board)
    resumed = expected["resumed"]
    assert tracker.restore(log) == resumed["last_seq"]
    game = tracker.game
    assert game is not None and tracker.logged_game.current.number == resumed["game"]
    assert game.start.fen() == resumed["start"]
    assert [p.after.fen() for p in game.plies] == resumed["fens"] == expected["live"]["fens"]
    assert [p.irregularity for p in game.plies] == resumed["irregular"]
    assert game.result().outcome.value == resumed["result"]
    assert tracker.rules.to_dict() == resumed["rules"]
