"""After a gap: the plies played while nobody watched, found when the board is seen again.

A gap is a stretch of ``gap_after`` seconds or more without a settled reading: a recorder
restarted from its log, a camera unplugged and back, a recording paused, a board lost and
found again. When the first boards after it fit no story of the game (one or two plies
are stories already), the legal lines of up to ``gap_plies`` plies that lead there are
searched (:func:`engine.gaps.gap_lines`) under what the reading allows on each square,
and the lines whose boards the reading supports as well as the best are kept. A ply
takes ``shortest_ply`` seconds at least (a hand in, a piece moved, the hand out), which
bounds how many plies fit the gap.

A stretch with readings the tracker never followed is a gap too: readings that came one at
a time between hands, each broken off before it was confirmed (a hand over the board for
most of every ply, a king read as a man and back). They are no record, but they are seen:
each is a glimpse of some board on the way, so among lines that end on the same board (the
same plies in another order) the one whose boards, in order, explain the glimpses best is
the one played (:func:`glimpsed`). So are reads through a cover: an arm resting on the board
keeps every frame covered while the players play on under it, and the board, read once each
time it goes quiet under the arm, is glimpsed between their plies
(``vision.pipeline.BoardReader._glimpse``, :meth:`tracker.tracker.GameTracker.glimpse`).

What the tracker then does (:meth:`tracker.acting.Acts.gap`): one line, its plies are
recorded as seen after the gap; several, a notice for the referee lists them (offline,
the likeliest is recorded and marked unconfirmed). A line with one irregular ply of the
catalogue (a chain stopped early, a capture missed) may explain the board too
(:func:`irregular_lines_seen`): where no legal line fits, or as the rival of the legal lines
to the same board in as many plies, chosen only where the glimpses support it by the
margin (:func:`irregular_lead`). Its irregular ply is alerted and stands as the camera
would have recorded it (:meth:`tracker.acting.Acts.gap_irregular`). None, the board stays
a board no move explains, the mismatch it always was: an irregular position change is the
last resort (#42).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from makhos.engine import Colour, Move, Piece, Position, Rules
from makhos.engine.gaps import IrregularLine, Sight, gap_lines, irregular_gap_lines
from makhos.engine.position import Board
from makhos.engine.squares import BIT
from makhos.events.game import MatchGame
from makhos.vision.reading import CLASS_INDEX, LABELS, Reading

from .config import TrackerConfig
from .scoring import board_classes, contradicted, log_probabilities, score_boards

if TYPE_CHECKING:
    from .stories import Story  # stories import the parity, which imports this module

#: The sight's planes, in the order of :class:`engine.gaps.Sight`'s fields.
_PLANES = (None, Piece.DARK_MAN, Piece.DARK_KING, Piece.LIGHT_MAN, Piece.LIGHT_KING)


@dataclass(frozen=True)
class GapLines:
    """The lines that explain a board seen after a gap, likeliest first."""

    mover: Colour  # who made the first ply of each line
    lines: tuple[tuple[Move, ...], ...]
    board: Board  # where the likeliest line leads


def sight(reading: Reading, tolerance: float) -> Sight:
    """What may stand on each square: every piece (or none) within ``tolerance`` nats of
    the square's likeliest, as the tracker's own test of a board that matches
    (:func:`tracker.scoring.contradicted`) allows it."""
    log_p = log_probabilities(reading)
    allowed = log_p >= log_p.max(axis=1, keepdims=True) - tolerance
    planes = []
    for piece in _PLANES:
        column = allowed[:, CLASS_INDEX[piece]]
        planes.append(sum(BIT[s + 1] for s in np.flatnonzero(column)))
    return Sight(*planes)


def most_plies(seconds: float, config: TrackerConfig) -> int:
    """How many plies fit ``seconds`` unseen."""
    return min(config.gap_plies, int(seconds / config.shortest_ply))


#: Lines through a gap, each with the side that made its first ply.
Lines = list[tuple[Colour, tuple[Move, ...]]]


def gap_lines_seen(record: MatchGame, seen: Sight, most: int, fixed_first_mover: bool,
                   come_back: bool = False) -> Lines:
    """The shortest legal lines of at most ``most`` plies from the game's position to the
    board read (``seen``: what the reading allows); none when no line fits. Lines in
    which a piece comes back (:func:`comes_back`) only with ``come_back``."""
    found: Lines = []
    for side in record.movers(fixed_first_mover):
        start = record.position_for(side)
        lines = (gap_lines(start, seen, record.rules, most) if come_back
                 else _witnessed_lines(start, seen, record.rules, most))
        found += [(side, line) for line in lines]
    return kings_own_lines(record, _shortest(found), seen, fixed_first_mover)


def lines_on_alert(record: MatchGame, alerted: Position, seen: Sight, most: int) -> Lines:
    """The shortest legal lines of at most ``most`` plies from ``alerted``, the board of an
    open irregular alert (its side to move playing on), to the board read.

    An attempt alerted and then played on from under an arm resting on the board is a
    gap's line from the attempt's board (kingplay 70058: 8-18 alerted, then 22x15 9x18 30-19
    5-9 unseen): from the game's position it is five plies with one irregular, past what
    that search looks for (``IRREGULAR_PLIES``), and it is the attempt the camera saw."""
    return [(alerted.turn, line) for line in _witnessed_lines(alerted, seen, record.rules, most)]


def irregular_lines_on_alert(record: MatchGame, alerted: Position, seen: Sight, most: int) -> IrregularLines:
    """The shortest lines of at most ``most`` plies (and ``IRREGULAR_PLIES``) from
    ``alerted``, the board of an open irregular alert (its side to move playing on), to the
    board read, with one irregular ply of the catalogue, the rest legal. Asked only where no
    legal line fits from the alert nor from the game, and no irregular line from the game.

    Play that went on from an alerted attempt may hold an irregular ply of its own (kingplay
    70139: 10-19 with a capture due, alerted; then 23x16x7 2x11 and 9x2, a chain stopped
    after its first jump, while the players' hands hid the board): from the game's position
    that is two irregular plies, which no search looks for, and the game stopped there with
    every later board "not as the game stands", though the board after them was read right
    on every square."""
    return [(alerted.turn, line) for line in
            irregular_gap_lines(alerted, seen, record.rules, min(most, IRREGULAR_PLIES))]


#: The most plies of a line with one irregular ply: such a line explains far more boards than
#: a legal one (a misread or a board moved by hand is some irregular line of five or six
#: plies), and its search grows as fast: a short sequence is the referee's reading (#42),
#: past that the board is a mismatch. Four keeps the search within tens of milliseconds on
#: a board read noisily (bench.gaps --part search).
IRREGULAR_PLIES = 4

#: Lines through a gap with one irregular ply, each with the side that made its first ply.
IrregularLines = list[tuple[Colour, IrregularLine]]


def irregular_lines_seen(record: MatchGame, seen: Sight, most: int, fixed_first_mover: bool,
                         legal: Lines | None = None) -> IrregularLines:
    """The shortest lines of at most ``most`` plies from the game's position to the board
    read with one irregular ply of the catalogue, the rest legal (kingplay 70047's 21x10
    then 3x14 stopped after its first jump, under an arm).

    Where the ``legal`` lines fit, only the lines as long as theirs to a board one of them
    leads to: the same plies in another order, one of them a capture missed, often lead to
    the same board (kingplay 70068: 23-18 11-16 28-24, then 3-8 with a capture due, then
    26-23, which eight legal orders of the same plies explain). Only what the camera
    glimpsed on the way tells them apart (:func:`irregular_lead`); a line of more plies,
    or to another board the reading allows, is no rival of theirs. Their length bounds the
    search, not ``IRREGULAR_PLIES``: a board they explain is no noisy board that some
    irregular line of many plies fits."""
    if legal:
        return _rivals(record, legal, fixed_first_mover)
    found = [(side, line) for side in record.movers(fixed_first_mover)
             for line in irregular_gap_lines(record.position_for(side), seen, record.rules, min(most, IRREGULAR_PLIES))]
    shortest = min((line.plies for _, line in found), default=0)
    return [(side, line) for side, line in found if line.plies == shortest]


def _rivals(record: MatchGame, legal: Lines, fixed_first_mover: bool) -> IrregularLines:
    """The lines with one irregular ply, as long as the ``legal`` lines, to a board one of
    them leads to (each board searched as seen exactly: the search prunes as it does on
    a board seen for certain)."""
    plies = len(legal[0][1])
    boards = {line_positions(record.position_for(side), line)[-1].board for side, line in legal}
    return [(side, line) for board in sorted(boards) for side in record.movers(fixed_first_mover)
            for line in irregular_gap_lines(record.position_for(side), Sight.exact(board), record.rules, plies)
            if line.plies == plies]


def kings_own_lines(record: MatchGame, found: Lines, seen: Sight, fixed_first_mover: bool) -> Lines:
    """The lines ``found``, unless they keep a king where the reading sees none while a man
    of its side comes where none stood: then the king's own flight, in fewer plies, if
    one leads there with at most one man of that side kept that the reading missed.

    A king read side-on is often read as a man, and its square, left behind, as a man or
    nothing; a man on the board's edge may be missed. Then the line that fits the reading
    best marches a man to where the king landed and leaves the king unseen on its square
    (kingplay 70024: 24-19 ... 19-15 for the king's 29-15, three plies invented). A king
    that moves stays a king: the fewest plies, each piece keeping who it is, is the
    referee's reading of the board, at the cost of one man misread as gone."""
    flights = {_king_flown(record.position_for(side), line_positions(record.position_for(side), line)[-1].board, seen)
               for side, line in found}
    shorter: Lines = []
    for relaxed, missed in (flight for flight in flights if flight is not None):
        for mover in record.movers(fixed_first_mover):
            origin = record.position_for(mover)
            shorter += [(mover, kept) for kept in _witnessed_lines(origin, relaxed, record.rules, len(found[0][1]) - 1)
                        if _missed(line_positions(origin, kept)[-1].board, missed) <= 1]
    return _shortest(shorter) or found


def _king_flown(start: Position, end: Board, seen: Sight) -> tuple[Sight, int] | None:
    """Where a line from ``start`` to ``end`` leaves a king unmoved on a square the reading
    sees maybe empty and brings a man of its side where none stood: the sight that makes
    that king leave its square and allows a king where the man came, and a man of its side
    where the line moved one away (the squares missed); None when no king is so left."""
    dark, light, kings = end
    for mine, had, side, other in ((dark, start.dark, "dark", "light"), (light, start.light, "light", "dark")):
        left = had & start.kings & mine & kings & seen.empty
        came = mine & ~kings & ~had
        if not (left and came):
            continue
        missed = had & ~start.kings & ~mine
        keep = ~left
        allowed = {f"{side}_man": getattr(seen, f"{side}_man") | missed,
                   f"{side}_king": getattr(seen, f"{side}_king") | came,
                   f"{other}_man": getattr(seen, f"{other}_man"), f"{other}_king": getattr(seen, f"{other}_king")}
        return replace(seen, empty=seen.empty | left, **{name: bits & keep for name, bits in allowed.items()}), missed
    return None


def _missed(board: Board, missed: int) -> int:
    """How many of the squares ``missed`` (read empty) ``board`` holds a piece on."""
    dark, light, _ = board
    return ((dark | light) & missed).bit_count()


def _witnessed_lines(start: Position, seen: Sight, rules: Rules | None, most: int) -> list[tuple[Move, ...]]:
    """The legal lines of at most ``most`` plies from ``start`` to the board ``seen`` that
    the board witnesses: none in which a piece comes back (:func:`comes_back`)."""
    return [line for line in gap_lines(start, seen, rules, most) if not comes_back(line)]


def a_ply_more(start: Position, seen: Sight, rules: Rules | None, plies: int) -> bool:
    """Whether a legal line of ``plies`` plies from ``start``, no piece coming back
    (:func:`comes_back`), leads to a board ``seen`` allows on every square: a story of a
    ply fewer, read surely otherwise somewhere, may have left one unseen
    (``GameTracker._read_well``)."""
    return any(not comes_back(line) for line in gap_lines(start, seen, rules, plies, least=plies))


def comes_back(line: tuple[Move, ...]) -> bool:
    """Whether a piece of ``line`` comes back to a square it left earlier in the line (a
    king out and home again), not captured meanwhile.

    Such plies leave no trace on the board seen after the gap: they are there only to give
    the side the turns the other side's moves need, and any out-and-home of any piece does
    that as well. Nothing the camera saw says they were played, so recording them is
    inventing them (kingplay 70068: after a gap under a bump, a board misread on three
    squares was "explained" only by lines with a light king out and back, and the likeliest
    was recorded). Where only such lines fit, no legal line does (:func:`irregular_lines_seen`
    is asked, and failing it the board stays one the game does not explain, said as such).

    >>> from makhos.engine import Move
    >>> comes_back((Move((23, 18)), Move((3, 8)), Move((25, 21)), Move((8, 3))))
    True
    >>> comes_back((Move((23, 18)), Move((3, 8)), Move((25, 21)), Move((8, 12))))
    False
    """
    for first in range(len(line)):
        square, visited = line[first].end, {line[first].start, line[first].end}
        for ply in range(first + 1, len(line)):
            move = line[ply]
            if (ply - first) % 2 == 1:
                if square in move.captured:
                    break  # taken: another piece may come there
            elif move.start == square:
                if move.end in visited:
                    return True
                square = move.end
                visited.add(square)
    return False


def _shortest(found: Lines) -> Lines:
    """The shortest of the lines ``found``."""
    shortest = min((len(line) for _, line in found), default=0)
    return [(side, line) for side, line in found if len(line) == shortest]


def likeliest(record: MatchGame, found: Lines, reading: Reading, margin: float,
              glimpses: tuple[Reading, ...] = (), start: Position | None = None) -> GapLines | None:
    """Of the lines ``found``, those that the reading and the ``glimpses`` met on the way
    (:func:`glimpsed`) support within ``margin`` of the best of them; None when none.
    ``start``: where the lines start (None: the game's position for their first mover)."""
    if not found:
        return None
    positions = [line_positions(start or record.position_for(side), line) for side, line in found]
    kept = _ranked(positions, reading, margin, glimpses)
    mover = found[kept[0]][0]
    return GapLines(mover, tuple(found[k][1] for k in kept if found[k][0] is mover), positions[kept[0]][-1].board)


def likeliest_irregular(record: MatchGame, found: IrregularLines, reading: Reading,
                        glimpses: tuple[Reading, ...] = (),
                        start: Position | None = None) -> tuple[Colour, IrregularLine, Board] | None:
    """Of the lines with one irregular ply ``found``, the one the reading and the
    ``glimpses`` support best, with its side and the board it leads to; None when none.
    ``start``: where the lines start (None: the game's position for their first mover)."""
    if not found:
        return None
    positions = [line.positions(start or record.position_for(side)) for side, line in found]
    best = _ranked(positions, reading, 0.0, glimpses)[0]
    return found[best][0], found[best][1], positions[best][-1].board


def irregular_lead(record: MatchGame, legal: GapLines, irregular: tuple[Colour, IrregularLine, Board],
                   reading: Reading, glimpses: tuple[Reading, ...]) -> float:
    """By how much the reading and the glimpses met on the way (:func:`glimpsed`) support
    the ``irregular`` line (:func:`likeliest_irregular`) more than the likeliest of the
    ``legal`` lines of as many plies, in nats (negative: less).

    A legal line is the better story where nothing tells them apart (#42: an irregular
    change is the last resort). The irregular line is the one played where the glimpses
    lead to it by the margin, a story's lead over any other: its irregular ply is then
    alerted and stands as the camera would have recorded it. Where they lean to it by
    less, the legal line is recorded unconfirmed: the tracker is not sure of its plies."""
    side, line, _ = irregular
    return line_lead(line.positions(record.position_for(side)),
                     line_positions(record.position_for(legal.mover), legal.lines[0]), reading, glimpses)


def line_lead(line: list[Position], other: list[Position], reading: Reading,
              glimpses: tuple[Reading, ...]) -> float:
    """By how much the reading (their last boards) and the glimpses met on the way
    (:func:`glimpsed`) support the positions of ``line`` more than those of ``other``, in
    nats (negative: less). Where both end on the same board, only the glimpses tell them
    apart (:func:`irregular_lead`; a side moving twice over a gap against a line through it,
    ``GameTracker._witnessed_gap``)."""
    return _whole(line, reading, glimpses) - _whole(other, reading, glimpses)


def _whole(positions: list[Position], reading: Reading, glimpses: tuple[Reading, ...]) -> float:
    """How well a line's ``positions`` explain the reading (their last board) and the
    ``glimpses`` on the way."""
    last = score_boards(log_probabilities(reading), board_classes([positions[-1].board]))[0]
    return float(last) + glimpsed(glimpses, positions)


def _ranked(positions: list[list[Position]], reading: Reading, margin: float,
            glimpses: tuple[Reading, ...]) -> list[int]:
    """The lines whose ``positions`` the reading (their last board) and the ``glimpses``
    (:func:`glimpsed`) support within ``margin`` of the best, best first."""
    scores = score_boards(log_probabilities(reading), board_classes([p[-1].board for p in positions]))
    if glimpses and len(positions) > 1:
        scores += [glimpsed(glimpses, p) for p in positions]
    order = np.argsort(-scores, kind="stable")
    return [int(k) for k in order if scores[k] >= scores[order[0]] - margin]


def glimpsed(glimpses: tuple[Reading, ...], positions: list[Position]) -> float:
    """How well a line's ``positions`` (its start, then the board after each ply) explain
    the ``glimpses``, readings met in time order on the way: the log-likelihood of each
    glimpse under a board of the line, boards taken in the line's order (a glimpse never
    goes back to a board before the one an earlier glimpse saw), the best such matching.

    A glimpse of a board between hands may be a misread or a board in transit; it counts
    as a reading does, square by square, so a square read with confidence weighs most."""
    classes = board_classes([p.board for p in positions])
    best = np.zeros(len(positions))
    for glimpse in glimpses:
        # best[i]: the best matching of the glimpses so far, the last one on board i or before
        best = np.maximum.accumulate(best + score_boards(log_probabilities(glimpse), classes))
    return float(best[-1])


def first_seen(glimpses: tuple[Reading, ...], board: Board, tolerance: float, now: float) -> float:
    """When ``board`` was first glimpsed: the time of the first of the ``glimpses`` that no
    square contradicts by more than ``tolerance`` (:func:`tracker.scoring.contradicted`),
    else ``now``."""
    classes = board_classes([board])[0]
    return next((g.time for g in glimpses
                 if not contradicted(log_probabilities(g), classes, tolerance)), now)


def labelled(board: Board, unsure: frozenset[int]) -> str:
    """``board`` as 32 labels in square order, '?' on the squares ``unsure`` (a captured man
    perhaps lifted), as a relight weighs boards."""
    return "".join("?" if s in unsure else LABELS[k] for s, k in enumerate(board_classes([board])[0], 1))


class PliesBeyond:
    """The boards a ply further on from a board a relight weighs (``vision.relight.Further``),
    while the time since the game last followed a reading fits more plies: a camera's own
    gap, of a sort the stories (one or two plies) do not hold (``known_squares_doubted``).

    Built on the camera's thread from the stories, called from the relight's: it holds its
    own positions, each board's with its side to move and the plies it is on."""

    def __init__(self, rules: Rules | None, most: int, unsure: frozenset[int],
                 boards: dict[str, tuple[Position, int]]) -> None:
        self._rules, self._most, self._unsure = rules, most, unsure
        self._boards = dict(boards)

    @classmethod
    def of(cls, stories: list[Story], turn: Colour, rules: Rules | None, most: int,
           unsure: frozenset[int]) -> PliesBeyond | None:
        """From the boards of ``stories`` of plies from a position with ``turn`` to move, as
        labelled for a relight (:func:`labelled`); None where none of them is fewer plies on
        than ``most``."""
        boards: dict[str, tuple[Position, int]] = {}
        for story in stories:
            h = story.hypothesis
            if h is None or h.pending:
                continue
            mover = story.mover or turn
            after = mover if len(h.moves) % 2 == 0 else mover.opponent
            boards.setdefault(labelled(story.board, unsure), (Position(*h.board, turn=after), len(h.moves)))
        if all(plies >= most for _, plies in boards.values()):
            return None
        return cls(rules, most, unsure, boards)

    def __call__(self, board: str) -> list[str]:
        """The boards one legal ply on from ``board`` (none where no more plies fit, or where
        ``board`` is none this knows)."""
        if board not in self._boards:
            return []
        position, plies = self._boards[board]
        if plies >= self._most:
            return []
        out = []
        for move in position.legal_moves(self._rules):
            after = position.play(move)
            labels = labelled(after.board, self._unsure)
            self._boards.setdefault(labels, (after, plies + 1))
            out.append(labels)
        return out


def line_positions(position: Position, line: tuple[Move, ...]) -> list[Position]:
    """The positions of ``line`` from ``position``: the start, then one after each ply."""
    positions = [position]
    for move in line:
        positions.append(positions[-1].play(move))
    return positions
