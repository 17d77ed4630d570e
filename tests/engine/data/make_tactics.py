"""The recipe of tactics.json: positions where one move, and only one, wins by force.

    python3 -m tests.engine.data.make_tactics --seed 50 --out six.json   # after make endgames
    python3 -m tests.engine.data.make_tactics --pieces 4 --out four.json
    (tactics.json: the six-piece positions first, then four-piece ones up to 50)

Candidates are seeded random positions of equal material (men, now and then a king), no
capture due for the side to move, at least two moves (three for four pieces).

With four pieces the table alone decides: the side to move wins within 13 plies, and
exactly one of its moves leads to a position the opponent loses.

With six pieces (three a side) a position is kept when, with the endgame table and
``--nodes`` per search:
- the side to move wins by force (the search proves a win in N plies), from equal material,
- every other move fails to win and scores no better than half a man,
- the first iteration (one ply, captures played out) does not play it: it takes a combination.
``depth`` is the shallowest iteration that plays the move without the table; the test
searches each position that deep (a fresh search is deterministic).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from makhos.engine import Move, Piece, Position, Rules
from makhos.engine.endgame import EndgameTable, tables_folder
from makhos.engine.rules import Colour
from makhos.engine.search import Limits, Searcher


def candidate(rng: random.Random, pieces: int) -> Position:
    side = pieces // 2
    squares = rng.sample(range(1, 33), pieces)
    kings = [rng.random() < 0.2 for _ in range(side)]
    placed = {}
    for i, square in enumerate(squares):
        colour = Colour.DARK if i < side else Colour.LIGHT
        crowning = square <= 4 if colour is Colour.DARK else square >= 29
        placed[square] = Piece.of(colour, kings[i % side] or crowning)
    return Position.from_pieces(placed, rng.choice(list(Colour)))


def from_table(position: Position, table: EndgameTable, rules: Rules, moves: list[Move]) -> tuple[Move, str] | None:
    """The one winning move of a four-piece position by the table, or None."""
    value = table.probe(position)
    if value is None or value.plies is None or value.outcome.value != "win" or value.plies > 13:
        return None
    winners = [m for m in moves if (v := table.probe(position.play(m))) is not None and v.outcome.value == "loss"]
    return (winners[0], str(value)) if len(winners) == 1 else None


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=50)
    parser.add_argument("--nodes", type=int, default=6_000)
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("tactics.json"))
    parser.add_argument("--seed", type=int, default=50, help="several seeds run side by side, then joined")
    parser.add_argument("--pieces", type=int, choices=(4, 6), default=6)
    args = parser.parse_args()
    table = EndgameTable.load(tables_folder())
    rules = Rules()
    rng = random.Random(args.seed)
    found: list[dict[str, object]] = []
    while len(found) < args.count:
        position = candidate(rng, args.pieces)
        material = [(position.dark & ~position.kings).bit_count(), (position.dark & position.kings).bit_count()]
        if material != [(position.light & ~position.kings).bit_count(), (position.light & position.kings).bit_count()]:
            continue  # a crowning-row man made a king on one side only
        moves = position.legal_moves(rules)
        if len(moves) < (3 if args.pieces == 4 else 2) or position.has_capture():
            continue
        if args.pieces == 4:
            chosen = from_table(position, table, rules, moves)
            if chosen is None:
                continue
            best, score = chosen
        else:
            found_six = six_piece(position, table, rules, moves, args.nodes)
            if found_six is None:
                continue
            best, score = found_six
        depth = next((d for d in range(1, 11)
                      if Searcher(rules).search(position, Limits(depth=d)).best == best), None)
        if depth is None or depth < 2:
            continue
        found.append({"fen": position.fen(), "best": [str(best)], "score": score, "depth": depth})
        print(len(found), found[-1], flush=True)
        args.out.write_text(json.dumps(found, indent=1) + "\n")
    return 0


def six_piece(position: Position, table: EndgameTable, rules: Rules, moves: list[Move], nodes: int) -> tuple[Move, str] | None:
    """The one winning move of a six-piece position by the search with the table, or None."""
    first = Searcher(rules, table=table).search(position, Limits(nodes=nodes))
    if not (first.score.is_forced and first.score.value > 0) or first.best is None:
        return None
    others = [-Searcher(rules, table=table).search(position.play(m), Limits(nodes=nodes)).score.value
              for m in moves if m != first.best]
    if max(others) > 50:
        return None  # another move wins too, or stands well: no single combination
    return first.best, str(first.score)


if __name__ == "__main__":
    sys.exit(main())
