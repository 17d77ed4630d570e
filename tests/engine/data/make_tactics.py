"""The recipe of tactics.json: positions where one move, and only one, wins by force.

    python3 tests/engine/data/make_tactics.py [--count 50]   # after make endgames

Candidates are seeded random positions of three pieces a side with equal material (men,
now and then a king), no capture due for the side to move. A position is kept when, with
the endgame table (``make endgames``) and ``--nodes`` per search:
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

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from engine import Piece, Position, Rules  # noqa: E402
from engine.endgame import EndgameTable  # noqa: E402
from engine.rules import Colour  # noqa: E402
from engine.search import Limits, Searcher  # noqa: E402


def candidate(rng: random.Random) -> Position:
    squares = rng.sample(range(1, 33), 6)
    kings = [rng.random() < 0.2 for _ in range(3)]
    placed = {}
    for i, square in enumerate(squares):
        colour = Colour.DARK if i < 3 else Colour.LIGHT
        crowning = square <= 4 if colour is Colour.DARK else square >= 29
        placed[square] = Piece.of(colour, kings[i % 3] or crowning)
    return Position.from_pieces(placed, rng.choice(list(Colour)))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=50)
    parser.add_argument("--nodes", type=int, default=6_000)
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("tactics.json"))
    parser.add_argument("--seed", type=int, default=50, help="several seeds run side by side, then joined")
    args = parser.parse_args()
    table = EndgameTable.load(ROOT / "data" / "endgames")
    rules = Rules()
    rng = random.Random(args.seed)
    found: list[dict[str, object]] = []
    while len(found) < args.count:
        position = candidate(rng)
        material = [(position.dark & ~position.kings).bit_count(), (position.dark & position.kings).bit_count()]
        if material != [(position.light & ~position.kings).bit_count(), (position.light & position.kings).bit_count()]:
            continue  # a crowning-row man made a king on one side only
        moves = position.legal_moves(rules)
        if len(moves) < 2 or position.has_capture():
            continue
        first = Searcher(rules, table=table).search(position, Limits(nodes=args.nodes))
        if not (first.score.is_forced and first.score.value > 0) or first.best is None:
            continue
        others = [-Searcher(rules, table=table).search(position.play(m), Limits(nodes=args.nodes)).score.value
                  for m in moves if m != first.best]
        if max(others) > 50:
            continue  # another move wins too, or stands well: no single combination
        depth = next((d for d in range(1, 11)
                      if Searcher(rules).search(position, Limits(depth=d)).best == first.best), None)
        if depth is None or depth < 2:
            continue
        found.append({"fen": position.fen(), "best": [str(first.best)], "score": str(first.score),
                      "depth": depth})
        print(len(found), found[-1], flush=True)
        args.out.write_text(json.dumps(found, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
