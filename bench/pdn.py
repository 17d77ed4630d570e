"""Round trip of the record: random games written as PDN, read back by two readers.

    python -m bench.pdn                 # 1,000 games, seed 33
    python -m bench.pdn --games 200 --seed 7

The games (``lab.pdn_check.random_games``) start from every start the rules name and from
random legal positions, light moving first in some, with random legal plies and about one
irregular ply in twelve, and attempts taken back before some plies; they are written as one event's PDN, then read back by the
project's reader (``engine.pdn``) and by ``lab.pdn_check.GrammarReader`` (PDN's published
grammar and the board's geometry, no rules engine). Prints the games, plies and irregular
plies written, and every game where either reader gives back other moves, positions,
irregular plies, corrections, result or tags.
"""

from __future__ import annotations

import argparse
import random
import time

from makhos.engine import Position, Rules

from bench.machine import describe
from lab.pdn_check import disagreements, random_game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=33)
    args = parser.parse_args(argv)
    print(describe())
    rng = random.Random(args.seed)
    started = time.process_time()
    games = [random_game(rng) for _ in range(args.games)]
    plies = [p for g in games for p in g.game.plies]
    found = disagreements(games)
    set_ups = sum(g.game.start != Position.start(Rules()) for g in games)
    corrections = sum(len(c) for g in games for c in g.corrections.values())
    print(f"{len(games):,} games ({set_ups:,} from a set-up or a position), {len(plies):,} plies, "
          f"{sum(p.is_irregular for p in plies):,} irregular, {corrections:,} corrections; written, "
          f"read back by both readers: "
          f"{len(games) - len({d.split(' (')[0] for d in found}):,} of {len(games):,} the same "
          f"({time.process_time() - started:.1f} s CPU)")
    for line in found:
        print("  " + line)
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
