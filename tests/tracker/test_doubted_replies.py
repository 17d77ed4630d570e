"""A move and a reply that missed the capture it offered (``Verdict.MOVED_AND_MISSED``)
is told where the reading argues for it on every square, and is no story where the reading
contradicts it on one (``tracker.choice``).

Kingplay 70160: the king's 23-14, read against nowhere, was held back by 23-14 8-4, read
against on 8 where the king still stood, until the board was lost. 70077's 3-10 26-22
(tests/tracker/test_doubtful_steps.py): the square the king left, read as still holding it,
fitted 6-10 with 26-22 missing a capture as well."""

from __future__ import annotations

import numpy as np

from makhos.engine import Piece, Position
from makhos.engine.changes import Verdict, hypotheses
from makhos.tracker.choice import Candidates, best_story
from makhos.tracker.config import TrackerConfig
from makhos.tracker.stories import Story, StoryKind
from makhos.vision.reading import CLASS_INDEX, Reading

BEFORE = Position.from_fen("B:W1,9:B17,18")


def _stories() -> list[Story]:
    return [Story(StoryKind.GAME, h.board, h, mover=BEFORE.turn) for h in hypotheses(BEFORE)]


def _reading(on_1: float, on_5: float) -> Reading:
    """18-14 read surely, but for the light man on 1 (``on_1``) and a light man on 5
    (``on_5``), the rest of each square's probability on empty."""
    reading = Reading.certain(BEFORE.play(next(m for m in BEFORE.legal_moves() if str(m) == "18-14")))
    p = reading.probabilities.copy()
    for square, man in ((1, on_1), (5, on_5)):
        p[square - 1] = 0.0
        p[square - 1, CLASS_INDEX[Piece.LIGHT_MAN]] = man
        p[square - 1, CLASS_INDEX[None]] = 1.0 - man
    return Reading(reading.time, p.astype(np.float32))


def _told(reading: Reading) -> Story | None:
    return best_story(reading, Candidates.of(_stories()), TrackerConfig())


def test_the_reply_read_against_on_a_square_holds_back_no_move_read_against_nowhere() -> None:
    story = _told(_reading(on_1=0.97, on_5=0.6))  # 1 still holds its man: 1-5 is read against
    assert story is not None and story.hypothesis is not None
    assert story.hypothesis.verdict is Verdict.MOVE and [str(m) for m in story.hypothesis.moves] == ["18-14"]


def test_the_reply_read_for_is_chosen() -> None:
    story = _told(_reading(on_1=0.02, on_5=0.98))
    assert story is not None and story.hypothesis is not None
    assert story.hypothesis.verdict is Verdict.MOVED_AND_MISSED
    assert [str(m) for m in story.hypothesis.moves] == ["18-14", "1-5"]
