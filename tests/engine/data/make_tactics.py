"""The recipe of tactics.json: positions where one move, and only one, wins by force.

    python3 tests/engine/data/make_tactics.py [--count 50]

Candidates come from seeded random games (random play leaves combinations on the board).
A position is kept when, searched with the endgame table (where built) at a node budget
of ``--nodes`` per move:
- the side to move has no capture (a compulsory capture is no combination),
- the best move gains at least a man and a half over the evaluation before it, or wins by force,
- every other move scores at least a man and a half worse (the win is the one move),
- a search of one ply, captures played out, does not find it (it takes a combination).
``depth`` is the shallowest iteration that plays the move without the table: the test
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

from engine import Position, Rules  # noqa: E402
from engine.endgame import EndgameTable  # noqa: E402
from engine.search import Limits, Searcher  # noqa: E402

GAIN = 150


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=50)
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("tactics.json"))
    args = parser.parse_args()
    try:
        table = EndgameTable.load(ROOT / "data" / "endgames")
    except FileNotFoundError:
        table = None
    rng = random.Random(50)
    found: list[dict[str, object]] = []
    seen: set[str] = set()
    while len(found) < args.count:
        position = Position.start()
        for _ in range(rng.randrange(8, 40)):
            moves = position.legal_moves()
            if not moves:
                break
            position = position.play(rng.choice(moves))
        moves = position.legal_moves()
        if len(moves) < 2 or position.has_capture() or position.fen() in seen:
            continue
        seen.add(position.fen())
        before = Searcher(Rules(), table=table).evaluate(position)
        first = Searcher(Rules(), table=table).search(position, Limits(nodes=args.nodes))
        if first.score.value - before < GAIN or first.best is None:
            continue  # nothing to win here: the cheap test first
        scores = []
        for move in moves:
            child = Searcher(Rules(), table=table).search(position.play(move), Limits(nodes=args.nodes))
            scores.append((-child.score.value, str(move)))
        scores.sort(reverse=True)
        (best, best_move), (second, _) = scores[0], scores[1]
        if best - before < GAIN or best - second < GAIN:
            continue
        # Without the table: the test runs where no table was built.
        depth = next((d for d in range(1, 17)
                      if str(Searcher(Rules()).search(position, Limits(depth=d)).best) == best_move), None)
        if depth is None or depth < 2:
            continue  # a search of one ply (and its captures) already sees it: no combination
        found.append({"fen": position.fen(), "best": [best_move], "score": best, "depth": depth})
        print(len(found), found[-1], flush=True)
        args.out.write_text(json.dumps(found, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
