"""Pieces keep who they are while the reading wavers between king and man (issue #42, item 2).

A real stack seen side-on reads as a man in one frame and a king in the next. A board no
story explains was one board per reading, kings and all: a king that moved against the
rules, read as a man and back, was never the same board twice in a row, so it was never
alerted, and a misread that flickered never lasted. It is one board whichever kind its
pieces are read as; acting on it gives each piece the kind the game gave it.
"""

from __future__ import annotations

import pytest

from makhos.engine import Piece, Position
from makhos.events import EventKind

from feed import flickering, started

#: Bursts of settled readings: one long run, or runs of three between covered frames.
STEADY, BETWEEN_HANDS = [30], [3] * 10


@pytest.mark.parametrize("bursts", [STEADY, BETWEEN_HANDS], ids=["steady", "between hands"])
def test_a_king_that_moved_against_the_rules_read_as_a_man_and_back_is_alerted_and_stays_a_king(
        bursts: list[int]) -> None:
    feed = started("B:W1:BK22,18,30")
    feed.hand()
    events = flickering(feed, Position.from_fen("W:W1:BK15,18,30"), bursts)
    assert [(e.kind, e.reason) for e in events if e.kind is not EventKind.CLOCK] == [
        (EventKind.IRREGULARITY, "dark king jumped over its own piece on 18 (22-15)")]
    feed.hand()
    flickering(feed, Position.from_fen("B:W5:BK15,18,30"), bursts)  # light plays on from it
    assert [(m.move, m.irregular is not None) for m in feed.tracker.logged_game.current.moves] == [
        ("22-15", True), ("1-5", False)]
    assert feed.tracker.game.position.piece_at(15) is Piece.DARK_KING


@pytest.mark.parametrize("bursts", [STEADY * 3, BETWEEN_HANDS * 3], ids=["steady", "between hands"])
def test_a_piece_added_that_reads_as_a_king_and_a_man_by_turns_is_said_once_it_stays(
        bursts: list[int]) -> None:
    feed = started("B:W1,5:B22,30")
    feed.hand()
    events = flickering(feed, Position.from_fen("B:W1,5,K14:B22,30"), bursts)
    assert [e.kind for e in events if e.kind is not EventKind.CLOCK] == [EventKind.BOARD_MISMATCH]
