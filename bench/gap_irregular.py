"""The gap search with one irregular ply (#42): how often it finds the line played, and
what it costs on the path that decides a move.

    python -m bench.gap_irregular --samples 300

Random positions of random games (up to 60 plies in). Two kinds of board are searched,
each as a tracker searches after a gap (six plies fit):

- ``irregular``: a line of 1 to ``IRREGULAR_PLIES`` plies, one of them an irregular ply of
  the catalogue (a chain stopped early, a capture missed), its end seen exactly: whether the
  search with one irregular ply finds it (and it alone), and its time.
- ``no line``: the board with one piece put on an empty square, which no line explains
  (a hand's move, a misread): the worst case, where the legal search finds nothing and the
  irregular one searches all it may. Its time is the legal search's plus the irregular one's.
  With an irregular alert open, the legal search runs from the alert's board too: that
  case is timed as ``no line, alert open`` (the same board searched from the start, then
  from the start with the same piece moved elsewhere, as an attempt leaves it).
- ``rivals``: a legal line of 1 to 6 plies, its end seen exactly: the search for lines with one
  irregular ply, as long as the shortest legal lines and to a board one of them leads to,
  that a tracker runs beside them (``tracker.gaps.irregular_lines_seen``): how often there
  is one (only the glimpses then tell them apart), and its time, on top of the legal one.
- ``parity``: a legal line of 1 to 6 plies, its end seen exactly, as a tracker takes it after
  a gap (the shortest line, of at most 5 plies), then the line of one ply more to the same board, the other
  side to move after it (:func:`tracker.parity.other_parity`), searched once when the record
  takes the change: how often there is one, and the time of that search (the shortest line's
  is the tracker's as before).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np

from makhos.engine import Rules
from makhos.engine.changes import irregular_plies
from makhos.engine.game import Game
from makhos.engine.gaps import Sight, gap_lines, irregular_gap_lines
from makhos.engine.position import Position, place
from makhos.tracker import TrackerConfig
from makhos.tracker.gaps import IRREGULAR_PLIES
from makhos.tracker.parity import other_parity


def random_position(rng: random.Random) -> Position:
    game = Game()
    for _ in range(rng.randint(0, 60)):
        if game.result() is not None:
            break
        game.play(rng.choice(game.legal_moves()))
    return game.position


def irregular_line(position: Position, rng: random.Random) -> tuple[Position, str] | None:
    """The end of a random line of 1 to IRREGULAR_PLIES plies with one irregular ply, and
    the line as text; None where the line found no irregular ply to make."""
    plies = rng.randint(1, IRREGULAR_PLIES)
    at = rng.randrange(plies)
    text = []
    for k in range(plies):
        if k == at:
            choices = irregular_plies(position)
            if not choices:
                return None
            ply = rng.choice(choices)
            position = Position(*ply.board, turn=position.turn.opponent)
            text.append(f"!{ply.shown}")
            continue
        moves = position.legal_moves()
        if not moves:
            return None
        move = rng.choice(moves)
        position = position.play(move)
        text.append(str(move))
    return position, " ".join(text)


def legal_line(position: Position, rng: random.Random) -> Position:
    """The end of a random legal line of 1 to 6 plies (shorter where the game ends)."""
    for _ in range(rng.randint(1, 6)):
        moves = position.legal_moves()
        if not moves:
            break
        position = position.play(rng.choice(moves))
    return position


def rivals(start: Position, end: Position) -> tuple[bool, float] | None:
    """Whether a line with one irregular ply, as long as the shortest legal lines to
    ``end``, leads to a board one of them does, and the time of that search alone; None
    when no legal line leads there."""
    sight = Sight.exact(end.board)
    lines = gap_lines(start, sight, None, 6)
    if not lines:
        return None
    clock = time.perf_counter()
    found = irregular_gap_lines(start, sight, None, len(lines[0]))
    seconds = ms(clock)
    return any(line.plies == len(lines[0]) for line in found), seconds


def parity(start: Position, end: Position) -> tuple[bool, float] | None:
    """Whether a line of the other parity leads from ``start`` to the board where the
    record's shortest line to ``end`` leads, and the time of that search alone (the
    shortest line is searched as before); None when no line leads there."""
    lines = gap_lines(start, Sight.exact(end.board), None, 6)
    if not lines or len(lines[0]) + 1 > TrackerConfig().gap_plies:
        return None  # as the tracker, which looks no further than a gap's plies
    after = start
    for move in lines[0]:
        after = after.play(move)
    clock = time.perf_counter()
    kept = other_parity(start, after, 0, len(lines[0]), Rules(), None, ()) is not None
    return kept, ms(clock)


def searched_lines(search: Callable[[Position, Position], tuple[bool, float] | None], rng: random.Random,
                   samples: int) -> tuple[int, list[float]]:
    """How often ``search`` (:func:`parity`, :func:`rivals`) found its line from a random
    position to a board a legal line of a few plies leads to, and its times (ms)."""
    found, times = 0, []
    for _ in range(samples):
        start = random_position(rng)
        searched = search(start, legal_line(start, rng))
        if searched is not None:
            found += searched[0]
            times.append(searched[1])
    return found, times


def ms(clock: float) -> float:
    return 1000 * (time.perf_counter() - clock)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    attempts = random.Random(args.seed + 2)  # the first two kinds draw as before
    found, alone, tried = 0, 0, 0
    irregular_ms: list[float] = []
    worst_ms: list[float] = []
    alert_ms: list[float] = []
    for _ in range(args.samples):
        start = random_position(rng)
        made = irregular_line(start, rng)
        if made is not None:
            end, text = made
            clock = time.perf_counter()
            lines = irregular_gap_lines(start, Sight.exact(end.board), None, IRREGULAR_PLIES)
            irregular_ms.append(ms(clock))
            tried += 1
            ends = {line.positions(start)[-1].board for line in lines}
            found += end.board in ends
            alone += ends == {end.board} and len(lines) == 1
        pieces = list(start.pieces().items())
        empty = [s for s in range(1, 33) if start.piece_at(s) is None]
        if not pieces or not empty:
            continue
        square, piece = rng.choice(pieces)
        moved = place(place(start.board, square, None), rng.choice(empty), piece)
        clock = time.perf_counter()
        if not gap_lines(start, Sight.exact(moved), None, 6):
            irregular_gap_lines(start, Sight.exact(moved), None, IRREGULAR_PLIES)
        worst_ms.append(ms(clock))
        clock = time.perf_counter()
        if not gap_lines(start, Sight.exact(moved), None, 6):
            # the alert's board: the same piece moved elsewhere by the side to move, an attempt
            attempt = place(place(start.board, square, None), attempts.choice(empty), piece)
            alerted = Position(*attempt, turn=start.turn.opponent)
            if not gap_lines(alerted, Sight.exact(moved), None, 6):
                irregular_gap_lines(start, Sight.exact(moved), None, IRREGULAR_PLIES)
        alert_ms.append(ms(clock))
    kept, parity_ms = searched_lines(parity, random.Random(args.seed + 1), args.samples)
    with_rival, rival_ms = searched_lines(rivals, random.Random(args.seed + 3), args.samples)
    for name, times in (("irregular", irregular_ms), ("no line", worst_ms),
                        ("no line, alert open", alert_ms), ("rivals", rival_ms), ("parity", parity_ms)):
        t = np.array(times)
        print(f"{name}: {len(t)} boards, median {np.median(t):.1f} ms, p95 {np.percentile(t, 95):.1f} ms, "
              f"max {t.max():.1f} ms")
    print(f"irregular lines found {found}/{tried}, the one line alone {alone}/{tried}; "
          f"a line of the other parity kept {kept}/{len(parity_ms)}; a rival with one irregular ply "
          f"{with_rival}/{len(rival_ms)}")


if __name__ == "__main__":
    main()
