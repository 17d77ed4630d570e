"""Choosing the story a reading supports: the best, only when it is clearly the best.

Every story's board is scored against the reading (:mod:`tracker.scoring`). The best one
is chosen only when no story that would lead to another decision on another board comes
within ``margin`` nats. A best story contradicted on some square by more than
``square_tolerance`` nats is the story with a misread when few squares contradict it and
no piece seems to have moved between them (the tracker believes the misread until it
lasts); otherwise the board matches no story at all: the best story's board with the
squares that contradict it as read (:func:`as_read`), never the reader's guess on a square
it is unsure of.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from makhos.engine.changes import Verdict
from makhos.engine.position import Board, place
from makhos.vision.reading import CLASSES, Reading

from .config import TrackerConfig
from .scoring import (KING_CLASSES, MAN_CLASSES, SIDE_OF_CLASS, board_classes, board_sides, contradicted,
                      log_probabilities, read_well, score_boards)
from .stories import Story, StoryKind


@dataclass(frozen=True)
class Candidates:
    """Stories with their boards as class rows and a number per distinct decision."""

    stories: list[Story]
    classes: np.ndarray  # (N, 32) class index of each square of each story's board
    decisions: np.ndarray  # (N,) stories with the same number lead to the same decision
    left: np.ndarray  # (N, 32) the squares each story's moves leave (none while a step is pending)

    @classmethod
    def of(cls, stories: list[Story]) -> Candidates:
        numbers: dict[tuple[object, ...], int] = {}
        decisions = np.array([numbers.setdefault(s.decision, len(numbers)) for s in stories])
        left = np.zeros((len(stories), 32), dtype=bool)
        for k, story in enumerate(stories):
            h = story.hypothesis
            if h is not None and not h.pending:
                left[k, [m.start - 1 for m in h.moves]] = True
        return cls(stories, board_classes([s.board for s in stories]), decisions, left)

    def only(self, kept: np.ndarray) -> Candidates:
        """The stories ``kept`` (N booleans) says, in their order."""
        return Candidates([s for s, k in zip(self.stories, kept) if k], self.classes[kept],
                          self.decisions[kept], self.left[kept])


def best_story(reading: Reading, candidates: Candidates, config: TrackerConfig,
               left: frozenset[int] = frozenset()) -> Story | None:
    """The story to act on, a MISMATCH story when none fits, or None while unsure. A story
    that a misread may explain names the squares ``against`` it. ``left``: the squares the
    game's last change left (its last ply's, with those of the plies taken with it), which
    may still read as holding their pieces."""
    log_p = log_probabilities(reading)
    candidates = candidates.only(~_doubted_replies(log_p, candidates, config.square_tolerance))
    stories, classes, decisions = candidates.stories, candidates.classes, candidates.decisions
    scores = score_boards(log_p, classes)
    best = int(np.argmax(scores))
    against = contradicted(log_p, classes[best], config.square_tolerance)
    if against and not _misread(reading, stories[best].board, against, config.misread_squares):
        return as_read(reading, stories[best].board, against)
    sides = SIDE_OF_CLASS[classes]
    same_sides = np.all(sides == sides[best], axis=1)
    if stories[best].kind is StoryKind.START:
        best = _set_up(reading, classes, np.flatnonzero(same_sides), config.margin)
    rival = (decisions != decisions[best]) & ~same_sides
    if rival.any() and scores[best] - scores[rival].max() < config.margin:
        if not against:
            return None  # not sure yet: say nothing rather than guess
        behind = _left_behind(log_p, candidates, np.flatnonzero(scores >= scores[best] - config.margin),
                              config, left)
        if behind is None:  # stories that each need a misread, none clearly: no story fits,
            # unless the misread passes (the tracker waits for it)
            return as_read(reading, stories[best].board, against)
        best = behind
        against = contradicted(log_p, classes[best], config.square_tolerance)
    return replace(stories[best], against=against)


def _doubted_replies(log_p: np.ndarray, candidates: Candidates, tolerance: float) -> np.ndarray:
    """Which stories are a move and a reply that missed the capture it offered, read against
    on some square by more than ``tolerance`` nats: (N,) booleans. Such a story is told only
    where the reading contradicts it nowhere.

    It names two plies and an irregularity, and its boards are many (every legal move, then
    every plain reply), so one of them comes near nearly any board read with a doubt: the
    square a piece left, read as still holding it, fits a man's move answered against the
    rules as well as the king's legal move and its legal answer (kingplay 70077's 3-10
    26-22), and a rival read against on a square held back the king's 23-14, read against
    nowhere, until the board was lost (kingplay 70160)."""
    replies = np.flatnonzero([s.hypothesis is not None and s.hypothesis.verdict is Verdict.MOVED_AND_MISSED
                              for s in candidates.stories])
    short = log_p.max(axis=1)[None, :] - log_p[np.arange(32), candidates.classes[replies]]
    out = np.zeros(len(candidates.stories), dtype=bool)
    out[replies] = (short > tolerance).any(axis=1)
    return out


def as_read(reading: Reading, board: Board, against: tuple[int, ...]) -> Story:
    """The board no story explains: the likeliest story's ``board`` with the squares the
    reading contradicts it on (``against``) as read, every other square as the story has it.

    A square the reader is unsure of weighs less than one it is sure of (#42): it keeps what
    the likeliest story puts there rather than the reader's guess by a hair, which named a
    dark king read as a light man at 0.55 "a king that became a man". Only a square the
    reader contradicts with confidence makes the board another."""
    labels = reading.labels()
    for square in against:
        board = place(board, square, CLASSES[int(labels[square - 1])])
    return Story(StoryKind.MISMATCH, board)


def _left_behind(log_p: np.ndarray, candidates: Candidates, close: np.ndarray,
                 config: TrackerConfig, left: frozenset[int]) -> int | None:
    """Among close stories that each need a misread, the one story of moves whose misread
    is only squares they left, read as still holding a piece (None: not one decision);
    first of all the board unchanged whose misread is only squares the last change left, a
    misread already taken for one, which lasts until it clears.

    A piece seen side-on covers part of the square behind it, so the square a piece just
    left is read, often with confidence, as still holding it; a piece coming from nowhere
    onto a square is far rarer than a piece moved next to its old square. So two plies
    whose one misread is the square the first left beat the other side moving twice with a
    piece read from nowhere on the square the first landed on (kingplay 70077: a king's
    3-10 and the reply, 3 still read as the king); a story of several plies is then acted
    on only once it held (``GameTracker._read_well``).

    That misread is the same for every move to the square filled, so how surely each
    square left still reads as its piece tells those moves nothing: where another story of
    moves to another board, ending on the same squares (another piece to the same square,
    not a ply more or less), also needs only the squares it left misread and fits as well
    once those are forgiven (:func:`_forgiven`), the reading has not said which piece moved
    and no story is chosen until it does. A king that reached a square and the one it left
    both read as men, the man beside them still there, is that man's move as well as the
    king's (kingplay 70077: a king's 26-22 recorded as the man's 25-22, the game lost).

    A square one ply of the story leaves and a later ply fills is no square left: the piece
    read there contradicts the story's own piece, of the other side or not, and says
    nothing of the one that left (kingplay 70136: 19-16 12x19, the dark king read still on
    19, where the story puts the light man, was taken for the king left behind: two plies
    nobody played). Such a story is never chosen, yet still counts among the stories found:
    beside another, the reading has not told them apart."""
    found = []
    tolerance = config.square_tolerance
    for k in close:
        h = candidates.stories[k].hypothesis
        against = contradicted(log_p, candidates.classes[k], tolerance)
        if h is None or h.pending or not against:
            continue
        if h.verdict is Verdict.UNCHANGED and set(against) <= left:
            return int(k)
        if h.moves and set(against) <= {m.start for m in h.moves}:
            found.append(int(k))
    if not found or len({int(candidates.decisions[k]) for k in found}) != 1:
        return None
    best = max(found, key=lambda k: float(log_p[np.arange(32), candidates.classes[k]].sum()))
    if candidates.classes[best][[s - 1 for s in contradicted(log_p, candidates.classes[best], tolerance)]].any():
        return None  # a later ply fills the square read: its piece is the story's, none left behind
    forgiven = _forgiven(log_p, candidates, tolerance)
    reached = _reached(candidates.stories[best])
    for k in np.flatnonzero((candidates.decisions != candidates.decisions[best])
                            & (forgiven >= forgiven[best] - config.margin)):
        if _reached(candidates.stories[k]) == reached:
            return None  # another piece to the same squares fits as well
    return best


def _reached(story: Story) -> frozenset[int]:
    """The squares the moves of ``story`` end on."""
    return frozenset(m.end for m in story.hypothesis.moves) if story.hypothesis is not None else frozenset()


def _forgiven(log_p: np.ndarray, candidates: Candidates, tolerance: float) -> np.ndarray:
    """Each story's score with the squares its moves left, where the reading contradicts it
    there, scored as read (a piece left behind); -inf for a story contradicted elsewhere or
    on no square (no story of a piece left behind)."""
    own = log_p[np.arange(32), candidates.classes]
    short = log_p.max(axis=1)[None, :] - own
    against = short > tolerance
    behind = against.any(axis=1) & ~(against & ~candidates.left).any(axis=1)
    forgiven: np.ndarray = np.where(behind, (own + np.where(against, short, 0.0)).sum(axis=1), -np.inf)
    return forgiven


def _misread(reading: Reading, board: Board, against: tuple[int, ...], most: int) -> bool:
    """Whether the squares ``against`` a story's ``board`` may be a misread: at most
    ``most`` of them, and not a piece gone from one and a piece of its side come on the
    other, read well (:func:`read_well`), which is a move (a board a ply further on than
    the story) far more often than a misread. Read with a doubt, it is the misread: a king
    read on the square it just left, as a king of either side by halves, and the man
    beside it read as gone, is no man that moved off its diagonal (kingplay 70077)."""
    if len(against) > most:
        return False
    if len(against) != 2:
        return True
    seen = as_read(reading, board, against).board
    told, read = board_sides(board)[[s - 1 for s in against]], board_sides(seen)[[s - 1 for s in against]]
    moved = sorted(told.tolist()) == sorted(read.tolist()) and 0 in told and bool(told.any())
    return not (moved and read_well(reading, seen, against))


def _set_up(reading: Reading, classes: np.ndarray, candidates: np.ndarray, margin: float) -> int:
    """Among starts with the same pieces on the same squares (set-ups that differ only in
    their kings), the configured one, unless the camera is sure of another's kings and calls
    none of that set-up's men a king.

    A king appears only by crowning or in a set-up, and real men read as kings far more
    often than kings as men (thick turned men, wide discs seen from above): a set-up with
    kings is taken only where it explains every king the camera sees, so men that look
    tall never turn the standard start into another (#22). Nor do kings that look like men
    (low stacks seen side-on, #42) turn a configured set-up with kings into one with fewer:
    a set-up is taken over the configured one only for kings the camera sees.
    """
    sharp = score_boards(log_probabilities(reading, king_doubt=0.0), classes[candidates])
    p = reading.probabilities
    read_king = p[:, list(KING_CLASSES)].sum(1) > p[:, list(MAN_CLASSES)].sum(1)
    is_man = np.isin(classes[candidates], MAN_CLASSES)
    is_king = np.isin(classes[candidates], KING_CLASSES)
    explains = ~(is_man & read_king[None, :]).any(axis=1)
    seen_kings = is_king.any(axis=1) & ~(is_king & ~read_king[None, :]).any(axis=1)
    explains &= seen_kings | ~is_king[0].any()
    leader = int(np.argmax(np.where(explains, sharp, -np.inf)))
    if explains[leader] and sharp[leader] - sharp[0] >= margin:
        return int(candidates[leader])
    return int(candidates[0])  # the configured rules' start is listed first
