"""Which numbering makes the board a start position: the reader's own start check.

The board is read under each of its eight numberings (four quarter turns, either colour of
squares in play) and each start layout is scored against the reading: the sum over the 32
squares of the log probability of what the layout puts there (empty, a light piece, a dark
piece: a man read as a king is still a man's place and side), and the squares it misreads.

A start is the board where one layout under one numbering leads every other numbering
(:func:`leading_start`) and is read within a few misreads. Pieces the colour of their
squares defeat the misread count: zero-shot they read as the squares they hide, while the
right numbering may still fit best. The configured set-up's doubt is then weighed on
held-out squares (:func:`chosen_numbering`, :data:`HELD_OUT_NATS`): the reader adapted to its
labels on half the board reads the other half (``vision.reader.read_held_out``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from makhos.engine import Colour, Position

#: A start position fixes the numbering when the board, read under it, differs from the
#: start on at most this many squares in occupancy or side (a man read as a king is still
#: a man's place and side), and on none more than one in eight of the start's pieces (a
#: set-up of two kings is told from an empty board only by both) ...
START_MISREADS = 2
#: ... and no other numbering explains the board within this many nats (the next best is a
#: quarter turn, which puts the men on the other colour's squares, or a half turn, which
#: swaps the two camps: both far apart when the start is really there).
START_MARGIN = 6.0
#: A set-up checked on held-out squares (:func:`held_out_start`) is read when the held-out
#: reading puts at most this many nats against its labels (the sum over the 32 squares of
#: minus the log probability of what the set-up puts there): about two squares read otherwise
#: at 1 in 400. A count of the squares read otherwise took a doubt for a misread (70003 at
#: 10 plies: 3 squares at 0.57-0.75 where a man leans into the square behind, 4.4 nats, no
#: start) and a sure misread for a doubt's worth. Measured on the kingplay renders and videos
#: (corners moved as the follower's are): starts 0-10.5 nats, one ply into a game 16 or more,
#: two plies or more 23 or more ...
HELD_OUT_NATS = 12.0
#: ... and every other numbering, itself or its half turn, is doubted this many nats more.
#: Held out, the heads learn any labelling that follows the rows, so a quarter turn with the
#: other colour in play is often doubted little (5-15 nats); where the zero-shot reading had
#: chosen such a numbering (corners a few pixels off), the right one was doubted less.
HELD_OUT_MARGIN = 4.0
#: The numberings in the order they are scored: the colour in play, then the quarter turns
#: of the follower's location.
NUMBERINGS = tuple((played, turns) for played in ("dark", "light") for turns in range(4))


def allowed_misreads(classes: np.ndarray) -> np.ndarray:
    """(S,) the misreads each start layout (S, 32) of side classes may be read with."""
    pieces = (classes > 0).sum(axis=1)
    allowed: np.ndarray = np.minimum(START_MISREADS, pieces // 8)
    return allowed


def start_fits(sides: np.ndarray, classes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The fit (S,) and the squares misread (S,) of each start layout (S, 32) of side
    classes, under one numbering's (32, 3) probabilities of empty, light, dark (the fit in
    nats: minus the doubt :data:`HELD_OUT_NATS` bounds)."""
    fit = np.log(np.clip(sides, 1e-6, None))[np.arange(32), classes].sum(axis=1)
    misread = (sides.argmax(axis=1) != classes).sum(axis=1)
    return fit, misread


def leading_start(fit: np.ndarray) -> tuple[int, int] | None:
    """The numbering and start (indices) whose fit, of (8, S), leads every other
    numbering's best by :data:`START_MARGIN`; None where no numbering does."""
    best = fit.argmax(axis=1)
    scores = fit[np.arange(len(fit)), best]
    first, runner_up = np.argsort(-scores, kind="stable")[:2]
    if scores[first] - scores[runner_up] < START_MARGIN:
        return None
    return int(first), int(best[first])


def half_turn(numbering: int) -> int:
    """The numbering (index of :data:`NUMBERINGS`) a half turn from ``numbering``."""
    played, turns = NUMBERINGS[numbering]
    return NUMBERINGS.index((played, (turns + 2) % 4))


def swaps_camps(classes: np.ndarray) -> bool:
    """Whether a start layout (32,) of side classes (0 empty, 1 light, 2 dark) is itself
    turned half round with its camps swapped: every standard set-up (men, kings, 8 or 12 a
    side). A numbering and its half turn then read it alike but for which camp is light,
    so the reader's sides alone choose between them (``vision.orientation.camps_apart``)."""
    swapped = np.where(classes > 0, 3 - classes, 0)[::-1]
    return bool(np.array_equal(swapped, classes))


def chosen_numbering(zero_shot: np.ndarray) -> int | None:
    """The numbering under which the configured set-up's zero-shot fit, of (8,), leads every
    other numbering by :data:`START_MARGIN`; None where none does.

    Where the set-up is read with too many misreads zero-shot (pieces the colour of their
    squares), the zero-shot reading, which no label touched, still chooses: which squares
    the men stand on, which camp is lighter. The doubt of its choice is then weighed on
    held-out squares (:func:`held_out_start`) (``vision.reader.read_held_out``): no square is read with its own
    label, so where the board and the set-up differ (a game some plies on) its squares are
    read as they are and misread against it. That reading cannot tell a numbering from its
    half turn (adapted to either labelling, the heads learn either camp as light), so the
    smaller doubt of the two counts; nor may it choose among numberings or set-ups (held
    out within each row, the heads learn a row's look as the label the set-up gives the row,
    a set-up a whole row larger or smaller included): it may only confirm the zero-shot
    choice. Only the configured set-up is checked so: telling set-ups apart is left to the
    pieces being seen."""
    best = int(np.argmax(zero_shot))
    if zero_shot[best] - np.delete(zero_shot, best).max() < START_MARGIN:
        return None
    return best


def hides_pieces(sides: np.ndarray, classes: np.ndarray) -> bool:
    """Whether a zero-shot reading, (32, 3) probabilities of empty, light, dark, reads at
    least a quarter of the set-up's pieces (classes (32,)) as empty squares: pieces the colour
    of their squares, the one case a start's doubt is weighed on held-out squares
    (:func:`held_out_start`). Where the pieces show and a few men leaning into the squares
    behind are misread (70000 at 8 plies: 2 of 16 pieces hidden, 6 squares misread), the held-out
    count of misreads stands as before: adapted on such a start, taken by its doubt, the
    reader read a man moved before the first move and the game invented 7 plies."""
    pieces = classes > 0
    return bool(4 * (sides[pieces].argmax(axis=1) == 0).sum() >= pieces.sum())


def pair_doubts(doubts: np.ndarray) -> np.ndarray:
    """(8,) each numbering's held-out doubt of the set-up (nats), of (8,), or its half
    turn's where smaller: held out, a numbering and its half turn are one labelling."""
    paired: np.ndarray = np.minimum(doubts, doubts[[half_turn(n) for n in range(len(NUMBERINGS))]])
    return paired


def held_out_start(doubts: np.ndarray, numbering: int) -> bool:
    """Whether the held-out readings, doubting the configured set-up by ``doubts`` (8,) nats
    under each numbering, confirm the zero-shot choice ``numbering``: it (or its half turn)
    is doubted at most :data:`HELD_OUT_NATS`, and every other numbering
    :data:`HELD_OUT_MARGIN` more."""
    paired = pair_doubts(doubts)
    others = np.delete(paired, [numbering, half_turn(numbering)])
    return bool(paired[numbering] <= HELD_OUT_NATS and paired[numbering] + HELD_OUT_MARGIN <= others.min())


def board_labels(position: Position) -> str:
    """A position's 32 labels in square order ('.', 'l', 'd', 'L', 'D'), as a reader is
    adapted on them."""
    return "".join("." if (piece := position.piece_at(s)) is None else piece.value for s in range(1, 33))


def played_in(start: Position) -> list[str]:
    """The boards (labels, :func:`board_labels`) of the set-up ``start`` itself, then with its
    first ply, or its first two, made, either side moving first, each once: the boards the
    tracker takes a game's start from (``tracker.stories.start_stories``). A set-up shown for
    less time than a board takes to settle, its pieces the colour of their squares, is first
    read a ply or two in, where the set-up's own held-out doubt is that of a board one ply
    off it (``BoardReader._played_in``)."""
    boards = {board_labels(start): None}
    for side in (Colour.DARK, Colour.LIGHT):
        first = start.with_turn(side)
        for move in first.legal_moves():
            after = first.play(move)
            boards[board_labels(after)] = None
            boards.update((board_labels(after.play(reply)), None) for reply in after.legal_moves())
    return list(boards)


def mirrored(labels: str) -> str:
    """``labels`` under the half turn of their numbering: square s is square 33 - s, and the
    camp the numbering called light is the dark one (``BoardReader._camps_named``), so each
    piece keeps its place and the set-up its camps."""
    return labels[::-1].translate(str.maketrans("ldLD", "dlDL"))


@dataclass(frozen=True)
class StartVerdict:
    """Why the last settled board searched for a start was not taken for the configured
    set-up, or, ``found``, why the set-up the search took starts no game: said to the
    referee (``session.unstarted``) so that a board whose set-up is never seen is not a
    recording that ends in silence.

    ``lead``: nats by which the set-up's best numbering fits the board better than the next;
    ``misread``: the squares (1-32) the zero-shot reading puts otherwise than the set-up
    under that numbering; ``allowed``: the misreads a start may be read with; ``held_out``:
    the nats the held-out reading puts against the set-up, where it was weighed
    (:func:`held_out_start`); ``found``: the search took the set-up and fixed the numbering
    by it (on held-out squares), but the zero-shot reading, the one the game is started on,
    reads it with more than ``allowed`` misreads, so no game starts on that reading
    (``BoardReader.numbering_from_start``)."""

    lead: float
    misread: tuple[int, ...]
    allowed: int
    held_out: float | None = None
    found: bool = False

    def nearer(self, other: StartVerdict) -> bool:
        """Whether this search came nearer the set-up than ``other``'s: a set-up found
        before one not found, then fewer squares read otherwise, then a smaller held-out
        doubt. The search nearest the set-up is the one to tell the referee of: the set-up
        stands on the board for a moment before the first move, and the searches after it
        read boards ever further into the game (``session.unstarted``)."""
        def key(verdict: StartVerdict) -> tuple[bool, int, float]:
            held_out = np.inf if verdict.held_out is None else verdict.held_out
            return not verdict.found, len(verdict.misread), float(held_out)
        return key(self) < key(other)

    @property
    def unread(self) -> bool:
        """Whether the zero-shot reading reads the set-up with more squares otherwise than a
        start may be read with: the tracker, confirming a start on that reading, never sees it."""
        return len(self.misread) > self.allowed

    def describe(self) -> str:
        """In a referee's words, with the figures."""
        squares = ", ".join(map(str, self.misread))
        if self.found and self.unread:
            return (f"the set-up was found and the squares numbered by it, but read with "
                    f"{len(self.misread)} squares otherwise ({squares}), where {self.allowed} may, "
                    "and no reading after it was near enough to start the game on")
        if self.found:
            return ("the set-up was found and the squares numbered by it, but no reading after "
                    "it was near enough to start the game on")
        if self.lead < START_MARGIN:
            return (f"no numbering of the squares reads as the set-up clearly (the best fits it by "
                    f"{self.lead:.1f} nats more than the next, {START_MARGIN:.0f} needed), and "
                    f"under it {len(self.misread)} squares read otherwise")
        text = (f"under the numbering that fits the set-up best, {len(self.misread)} squares read "
                f"otherwise ({squares}), where {self.allowed} may")
        if self.held_out is not None:
            text += (f"; a reader fitted on the other squares doubts it by {self.held_out:.0f} nats, "
                     f"where {HELD_OUT_NATS:.0f} may, the other numberings {HELD_OUT_MARGIN:.0f} more")
        return text


#: A settled board is searched for its start again every this many seconds while it stays
#: still, at most :data:`START_LOOKS` times. The first search of a settled period decides
#: alone, as it always did (a set-up settled for one search only: kingplay 70003 at 10 plies);
#: a later search finds the start where :data:`START_AGREE` of them agree on its numbering.
#: Why: the start was searched on a settled period's first frame only, and one frame's
#: codec noise decides the held-out doubt. Kingplay 70048 (dim, a shadow, h264 at 238
#: kbit/s): its set-up stood still 1.5 s, the first frame's held-out doubt was 30 nats, and
#: 8 of the 15 frames searched every 0.1 s after it passed, so the game never started.
START_LOOK_S = 0.1
START_LOOKS = 8
#: ... searches of one settled period that must agree after its first.
START_AGREE = 2


class StartSearches:
    """When a settled board is searched for its start, and whether the searches of one
    settled period agree on a numbering (:data:`START_LOOK_S`)."""

    def __init__(self) -> None:
        self._since: float | None = None  # the settled period searched
        self._looks = 0  # searches made in it
        self._next = 0.0  # when the next is due
        self._found: dict[tuple[str, int, int], int] = {}  # (played, quarter turns, start): searches finding it
        self._first_found: dict[tuple[str, int, int], int] = {}  # ... the search that first found it
        self._steady = False  # the start last agreed was found by every search since its first

    def due(self, since: float, time: float) -> bool:
        """Whether the board settled since ``since`` is searched at ``time``: a new settled
        period's first frame, or :data:`START_LOOK_S` after its last search while fewer than
        :data:`START_LOOKS` were made."""
        if since != self._since:
            self._since, self._looks, self._next, self._found, self._first_found = since, 0, time, {}, {}
        if self._looks >= START_LOOKS or time < self._next:
            return False
        self._looks += 1
        self._next = time + START_LOOK_S
        return True

    @property
    def first(self) -> bool:
        """Whether the last search due was its settled period's first: the one frame a
        start is taught on (``BoardReader``). A later search's frame is the one whose codec
        noise let the set-up pass where others of the same still board did not, and a board
        one man's move into the game passes on some such frames too (kingplay 70048 after
        25-21: 4 of 11): a frame picked by its luck is no frame to teach the reader."""
        return self._looks == 1

    def agreed(self, found: tuple[str, int, int]) -> bool:
        """A search of this settled period found the start ``found`` (numbering and start):
        whether it stands, alone on the period's first search, or agreed by
        :data:`START_AGREE` of its searches."""
        self._found[found] = self._found.get(found, 0) + 1
        first = self._first_found.setdefault(found, self._looks)
        self._steady = self._found[found] == self._looks - first + 1
        return self.first or self._found[found] >= START_AGREE

    @property
    def steady(self) -> bool:
        """Whether the start last found (:meth:`agreed`) was found by every search of the
        settled period since the one that first found it: a pass that held from frame to
        frame, not one frame's codec noise letting it through between refusals (kingplay
        70048: found on the 3rd and 6th searches, refused on the 4th and 5th; the reader
        taught on the 6th's frame read the dark man on 25 as gone on the frames after it)."""
        return self._steady
