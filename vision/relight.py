"""What a board read in new light is known to show, after plies made under the hands: the
squares the rules pin.

Why: a shadow that falls while a ply is made under a hand (kingplay 70012: light plays
5-9 and dark 29x8 under hands as a person's shadow slides over the board) leaves the
reader, adapted to the old light, misreading 7-15 squares; the board the game last
accepted no longer labels the frame, so the reader cannot simply adapt on it again
(``BoardReader.relight``). The rules still pin most of the board: the plies that can have
been made since (the tracker's stories: one or two plies, the catalogue's irregular
plies) lead to a few boards. Each is checked the way a start is checked in any light
(:func:`vision.reader.read_held_out`): heads adapted to the board's labels on one half of
the squares read the other half. A board that is not the one on the table teaches labels
the frame contradicts, so its held-out read disagrees with it. The squares on which every
board the frame supports about as well as the best agrees are known; the others are left
to the reader (``'?'``), which, adapted on the known ones, reads them in the new light.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from .reading import side_probabilities

#: Nats of held-out fit within which a board is as well supported as the best: these boards
#: may all be the one on the table, so only the squares they agree on are known. As the start
#: check's margin (``start_check.HELD_OUT_MARGIN``). Wider leaves more squares to a reader
#: adapted without them, and its misreads there make a gap's line (kingplay 70021 at 8 nats:
#: 5 plies through a gap invented where 2 were made); under a deep shadow a man's
#: neighbouring step can fit better by more (``bench.relight``: 1 case of 60).
MARGIN = 4.0
#: The most nats of held-out doubt the best board may have (:func:`held_out_fit`, summed over
#: the 32 squares): a frame no board of the plies since explains (more plies were made under
#: an arm resting on the board: kingplay 70024, five plies, the best of the boards of two
#: doubted 61 nats) teaches nothing; under 70012's shadow the board on the table is doubted
#: 20 nats, the best 18.
DOUBT = 30.0
#: The fewest known squares holding pieces that are worth adapting on: fewer cannot carry
#: the light of the whole board.
FEWEST_PIECES = 6
#: The most boards weighed a ply further on than the stories (:func:`known_squares_doubted`):
#: past it, so many fit as well that little is known, and the weighing (about a millisecond
#: a board) would hold the relight up for seconds.
MOST_WEIGHED = 2000
#: The boards a ply on, among those that fit no better than the best of the stories, that the
#: weighing goes on from, the best fitting first (:func:`known_squares_doubted`): a board on
#: the way to the one on the table may fit worse than the stories' best, as where a ply of
#: the way is undone by a later one (a man moved into a capture and taken: kingplay 70104,
#: 8-11 then 29x8, the board after 8-11 further from the frame than the stories' best, the
#: board after 29x8 far nearer it).
BEAM = 8
_SIDE = {".": 0, "l": 1, "L": 1, "d": 2, "D": 2}


def held_out_fit(held: np.ndarray, boards: Sequence[str]) -> np.ndarray:
    """(K,) the log-likelihood of each of ``boards`` (32 labels each, '?' where the game
    cannot say: a captured man perhaps lifted) under its own held-out read ``held``
    (K, 32, 5): the sides only, since the rules, not the light, say which pieces are kings."""
    sides = np.array([[_SIDE.get(label, 0) for label in board] for board in boards])
    said = np.array([[label != "?" for label in board] for board in boards])
    p = side_probabilities(held.reshape(-1, 5)).reshape(len(boards), 32, 3)
    chosen = np.take_along_axis(p, sides[:, :, None], axis=2)[:, :, 0]
    fit: np.ndarray = (np.log(np.clip(chosen, 1e-6, None)) * said).sum(axis=1)
    return fit


def known_squares(held: np.ndarray, boards: Sequence[str], margin: float = MARGIN) -> str | None:
    """The labels of the squares every board within ``margin`` nats of the best held-out fit
    (:func:`held_out_fit`) agrees on, '?' on the others; None where even the best is doubted
    more than :data:`DOUBT` nats (the board on the table is none of them), or where the
    known squares hold fewer than :data:`FEWEST_PIECES` pieces, too few to adapt on.

    >>> held = np.zeros((2, 32, 5)); held[:, :8, 1] = 1.0; held[:, 8:, 0] = 1.0
    >>> known_squares(held, ["l" * 8 + "." * 24, "l" * 7 + "." * 25])
    'llllllll........................'
    >>> known_squares(held, ["l" * 8 + "." * 24, "l" * 7 + "." * 25], margin=20.0)
    'lllllll?........................'
    """
    fit = held_out_fit(held, boards)
    if fit.max() < -DOUBT:
        return None
    return _known([board for board, f in zip(boards, fit) if f >= fit.max() - margin])


#: The boards a ply further on from a board weighed (32 labels each), none where no more
#: plies than that board's fit the time since the game last followed a reading.
Further = Callable[[str], Sequence[str]]


def known_squares_doubted(held_out: Callable[[Sequence[str]], np.ndarray], boards: Sequence[str],
                          doubted: Sequence[str] = (), further: Further | None = None,
                          margin: float = MARGIN) -> str | None:
    """As :func:`known_squares`, with boards the frame may show that are never taught, only
    weighed as doubt: one that fits within ``margin`` of the best of ``boards``, or better,
    makes the squares it puts otherwise unknown. ``held_out``: the held-out read (K, 32, 5)
    of the boards given it. The doubts:

    - ``doubted``: boards the frame may show that no story since leads to (those the game
      left, a gap's read not well: ``GameTracker.boards_doubted``). Taught, a board the game
      left makes the reader read the game backwards for good (kingplay 70082: 6-9 taken
      back as a shadow fell, and the rest of the game invented over the misread squares);
      weighed as the doubt it is, it keeps the reader from being taught squares the frame
      does not tell (kingplay 70033: the board before the last two plies fitted within a
      nat of the one after them, which, taught whole, led to two plies nobody played).
    - ``further``: where more plies may have been made than ``boards`` hold (the board on the
      table then perhaps none of them), the boards a ply on from each that fits, ply after
      ply, that fit better than the best of ``boards``; the way to them goes on, too, from the
      :data:`BEAM` best fitting of the boards a ply on that fit no better, since a ply that a
      later one undoes (a man moved into a capture, then taken) leaves a board further from
      the frame than the stories' best on the way to one far nearer it. The stories hold one
      or two plies; under a sleeve or a shadow the players make more (kingplay 70068: three
      plies unseen, then a read in new light). The story's board nearest the board on the
      table then fits best, and alone within the margin it was taught whole: the squares of
      the ply it lacks, taught as they were, were read so for good, and the plies that
      followed were explained over them. A board further on is not taught for fitting best:
      among boards of many plies one fits the misreads of nearly any frame, as among a gap's
      lines. Nor does one that fits no better than the stories take squares away: more plies
      than the time usually holds need more evidence than fewer, and a frame no board explains
      (kingplay 70096: an arm resting on the board) has boards further on within the margin by
      chance, which, taken as doubt, left the reader few squares and a gap's line of four
      plies nobody played read through the rest.

    None where the boards that fit leave fewer than :data:`FEWEST_PIECES` pieces known, or
    are more than :data:`MOST_WEIGHED`."""
    weighed = list(dict.fromkeys(boards))
    fit = held_out_fit(held_out(weighed), weighed)
    if fit.max() < -DOUBT:
        return None
    close = [board for board, f in zip(weighed, fit) if f >= fit.max() - margin]
    doubts = [board for board in dict.fromkeys(doubted) if board not in close]
    close += [board for board, f in zip(doubts, _fits(held_out, doubts)) if f >= fit.max() - margin]
    seen, frontier = set(weighed) | set(doubts), list(close)
    while further is not None and frontier and _pieces(_agreement(close)) >= FEWEST_PIECES:
        new = [board for board in dict.fromkeys(b for f in frontier for b in further(f)) if board not in seen]
        if len(seen) + len(new) > MOST_WEIGHED:
            return None
        seen.update(new)
        fits = _fits(held_out, new)
        better = [board for board, f in zip(new, fits) if f > fit.max()]
        close += better
        ranked = [new[i] for i in np.argsort(-fits, kind="stable") if fits[i] <= fit.max()]
        frontier = better + ranked[:BEAM]
    return _known(close)


def _fits(held_out: Callable[[Sequence[str]], np.ndarray], boards: list[str]) -> np.ndarray:
    """The held-out fit of each of ``boards`` (none weighed where there are none)."""
    return held_out_fit(held_out(boards), boards) if boards else np.zeros(0)


def _agreement(boards: Sequence[str]) -> str:
    """The labels all ``boards`` agree on, '?' where they differ."""
    return "".join(labels[0] if len(set(labels)) == 1 else "?" for labels in zip(*boards))


def _pieces(known: str) -> int:
    """How many pieces the labels ``known`` hold."""
    return sum(label not in ".?" for label in known)


def _known(close: Sequence[str]) -> str | None:
    """The labels the boards ``close`` agree on, None where they leave fewer than
    :data:`FEWEST_PIECES` pieces known."""
    known = _agreement(close)
    return known if _pieces(known) >= FEWEST_PIECES else None
