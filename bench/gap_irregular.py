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
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from makhos.engine.changes import irregular_plies
from makhos.engine.game import Game
from makhos.engine.gaps import Sight, gap_lines, irregular_gap_lines
from makhos.engine.position import Position, place
from makhos.tracker.gaps import IRREGULAR_PLIES


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


def ms(clock: float) -> float:
    return 1000 * (time.perf_counter() - clock)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    found, alone, tried, irregular_ms, worst_ms = 0, 0, 0, [], []
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
    for name, times in (("irregular", irregular_ms), ("no line", worst_ms)):
        t = np.array(times)
        print(f"{name}: {len(t)} boards, median {np.median(t):.1f} ms, p95 {np.percentile(t, 95):.1f} ms, "
              f"max {t.max():.1f} ms")
    print(f"irregular lines found {found}/{tried}, the one line alone {alone}/{tried}")


if __name__ == "__main__":
    main()
