"""The outbox's contract: an event it accepted is kept (on its spool) until the log has it."""

from __future__ import annotations

import threading

from makhos.events import EventKind, GameEvent, SQLiteLog
from makhos.events.outbox import Outbox


class HungLog(SQLiteLog):
    """A log whose appends wait until ``release`` is set, as a stalled disk or network would."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()

    def append(self, event: GameEvent) -> GameEvent:
        self.release.wait()
        return super().append(event)


def move(time: float, text: str) -> GameEvent:
    return GameEvent("1", EventKind.MOVE, time, move=text)


def test_what_the_outbox_accepted_is_on_its_spool_before_the_log_takes_it(tmp_path):
    log, spool = HungLog(), tmp_path / "outbox.jsonl"
    outbox = Outbox(log, spool=spool)
    accepted = [move(1.0, "22-18"), move(2.0, "11-15")]
    for event in accepted:
        outbox.accept(event)
    assert Outbox.held(spool) == accepted and log.read_board("1") == []
    log.release.set()
    assert outbox.close()
    assert [e.move for e in log.read_board("1")] == ["22-18", "11-15"]
    assert Outbox.held(spool) == []  # delivered: the spool is gone


def test_a_spool_line_cut_short_by_a_kill_was_never_accepted(tmp_path):
    spool = tmp_path / "outbox.jsonl"
    whole = move(1.0, "22-18")
    spool.write_text(whole.to_json() + "\n" + move(2.0, "11-15").to_json()[:20])
    assert Outbox.held(spool) == [whole]
