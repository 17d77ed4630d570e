"""A recording that ends on an irregular attempt nobody answered (issue #42: julie-log3's last
photo). RULES.md: the referee accepts a correction (the board returns), "and otherwise
continue from the actual board as an 'irregular' move in the record". So the board left
standing is the record's last ply, irregular, its alert left open for the referee; a board
in transit at the end (read for a moment, or covered) adds nothing, and a board no move
explains stands only by the referee's word.
"""

from __future__ import annotations

import pytest

from makhos.events.details import AlertEnding
from makhos.events.game import AlertKind
from makhos.server.state import BoardState
from makhos.tracker import GameTracker

from feed import decision
from scripted_hall import snapshot
from test_irregularities import CASES, Case, numbered, pdn_moves, raise_it, shown, standing

IRREGULAR = [c for c in CASES if not c.opens_mismatch]


def ended(case: Case, seconds: float) -> tuple:
    """The case's attempt raised, read unchanged ``seconds`` more, then the recording ends."""
    feed, _ = raise_it(case)
    feed.wait(seconds, case.shown)
    return feed, feed.log(feed.tracker.ended(feed.time))


@pytest.mark.parametrize("case", IRREGULAR, ids=[c.rule.value for c in IRREGULAR])
def test_an_attempt_left_standing_at_the_end_is_the_last_ply_its_alert_open(case: Case) -> None:
    feed, events = ended(case, 3.5)
    raised = next(e for e in feed.stored if e.kind.value == "irregularity")
    assert [(e.kind.value, e.move, e.fen, e.side, e.detail.irregular) for e in events] == [
        ("move", case.move, case.shown, raised.side, True)]
    assert pdn_moves(feed) == numbered(case.pdn_before + [standing(case)])
    record = feed.tracker.logged_game
    assert [a.kind for a in record.alerts.values()] == [AlertKind.IRREGULARITY]  # never closed
    assert feed.tracker.alert is None  # nothing waits on its board: it is the game's


@pytest.mark.parametrize("case", IRREGULAR[:3], ids=[c.rule.value for c in IRREGULAR[:3]])
def test_a_board_in_transit_at_the_end_adds_nothing(case: Case) -> None:
    feed, events = ended(case, 1.0)  # read for less than a misread lasts
    assert events == []
    feed.wait(3.5, case.shown)
    feed.hand()  # the board covered at the very end: what it shows is not known
    assert feed.log(feed.tracker.ended(feed.time)) == []
    assert feed.tracker.alert is not None and len(feed.tracker.game.plies) == len(case.prelude)


def test_a_board_no_move_explains_stands_only_by_the_referee() -> None:
    case = next(c for c in CASES if c.opens_mismatch)
    feed, events = ended(case, 3.5)
    assert events == [] and feed.tracker.logged_game.mismatch


@pytest.mark.parametrize("action", ["accept_move", "dismiss", "correct_move"])
def test_the_referee_judges_the_alert_left_open(action: str) -> None:
    case = IRREGULAR[0]
    feed, _ = ended(case, 3.5)
    alert = next(e for e in feed.stored if e.kind.value == "irregularity").seq
    detail = {"move": case.right} if action == "correct_move" else {}
    decision(feed, action=action, alert=alert, **detail)
    record = feed.tracker.logged_game
    assert not record.alerts
    if action == "correct_move":  # the right move replaces the ply that stood
        assert pdn_moves(feed) == numbered(case.pdn_before + [case.right])
    else:  # it stands once, accepted or not
        assert pdn_moves(feed) == numbered(case.pdn_before + [standing(case)])
    served = BoardState(feed.tracker.board_id)
    for event in feed.stored:
        served.apply(event)
    restored = GameTracker(feed.tracker.board_id, config=feed.tracker.config)
    restored.restore(feed.stored)
    assert snapshot(served) == snapshot(restored.logged_game) == snapshot(record)


def test_play_taken_up_after_the_end_goes_on_from_the_board_that_stood() -> None:
    case = IRREGULAR[0]
    feed, _ = ended(case, 3.5)
    feed.hand()
    assert shown(feed, case.replied) == [("move", case.reply, case.replied, None),
                                         ("alert_closed", None, None, AlertEnding.STOOD)]
    assert pdn_moves(feed) == numbered(case.pdn_before + [standing(case), case.reply])


def test_an_attempt_played_on_stands_with_its_mover_and_closes_as_stood() -> None:
    case = next(c for c in CASES if c.move == "1-6")  # light moved out of turn
    feed, _ = raise_it(case)
    feed.hand()
    events = feed.board(case.replied, 8)
    assert [(e.kind.value, e.side and e.side.value, getattr(e.detail, "how", None), e.reason)
            for e in events] == [
        ("move", "light", None, case.reason), ("alert_closed", None, AlertEnding.STOOD, case.reason),
        ("move", "dark", None, None)]


def test_an_alert_left_open_closes_as_stood_with_its_reason_when_play_goes_on() -> None:
    case = IRREGULAR[0]
    feed, _ = ended(case, 3.5)
    feed.hand()
    closed = [e for e in feed.board(case.replied, 8) if e.kind.value == "alert_closed"]
    assert [(e.reason, e.detail.how) for e in closed] == [(case.reason, AlertEnding.STOOD)]
