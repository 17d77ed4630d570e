"""An attempt taken back stands in the record before the ply that followed (issue #33)."""

from __future__ import annotations

from makhos.engine import Colour
from makhos.engine.pdn import Correction, read_game
from makhos.events import EventKind, GameEvent
from makhos.events.details import AlertClosed, AlertEnding, Irregularity, IrregularityKind
from makhos.events.game import replay

REASON = "dark man moved backwards (22-26)"


def events(named: bool) -> list[GameEvent]:
    """Dark moves 22-26 backwards, puts it back, then plays 22-18; ``named``: the closing
    event names the attempt, as the tracker writes it since #33."""
    return [
        GameEvent("b", EventKind.GAME_STARTED, 0.0, fen="B:W1:B22,30", seq=1),
        GameEvent("b", EventKind.IRREGULARITY, 1.0, fen="W:W1:B26,30", side=Colour.DARK,
                  reason=REASON, move="22-26", detail=Irregularity(IrregularityKind.BACKWARDS), seq=2),
        GameEvent("b", EventKind.ALERT_CLOSED, 2.0, reason=REASON, move="22-26" if named else None,
                  detail=AlertClosed(AlertEnding.CORRECTED), seq=3),
        GameEvent("b", EventKind.MOVE, 3.0, move="22-18", fen="W:W1:B18,30", side=Colour.DARK, seq=4),
    ]


def test_a_corrected_attempt_is_kept_with_the_next_ply_and_written_before_it():
    record = replay(events(named=True)).current
    attempt = Correction("22-26", REASON)
    assert [m.corrections for m in record.moves] == [(attempt,)]
    text = record.pdn(times=False)
    assert f"1. {{corrected: 22-26 taken back; {REASON}}} 22-18 *" in " ".join(text.split())
    assert read_game(text).corrections == {0: [attempt]}


def test_an_attempt_no_ply_has_followed_yet_is_written_before_the_result():
    record = replay(events(named=True)[:3]).current
    assert record.corrections == {0: [Correction("22-26", REASON)]}
    assert " ".join(record.pdn().split()).endswith(f"{{corrected: 22-26 taken back; {REASON}}} *")


def test_a_log_that_names_no_attempt_replays_as_before():
    record = replay(events(named=False)).current
    assert [m.corrections for m in record.moves] == [()]
    assert "corrected" not in record.pdn()
