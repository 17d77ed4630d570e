"""The recipe of game_tactics.json: forced gains of material from game histories (#35).

    python3 -m tests.engine.data.make_game_tactics --count 100 --out tests/engine/data/game_tactics.json

Unlike tactics.json (random endings decided by the endgame table), every position here was
reached in a game from the match's openings, and is searched with that game's history and
count (``GamePosition``). The games: each side plays the search at ``--game-nodes`` a move,
but a random legal move one ply in four (seeded), so that chances are left on the board
as players leave them.

A position is kept when the side to move has no capture due, a first look (``--screen-nodes``)
sees the gain, and, searched fresh with its history at ``--nodes``:
- the best move scores at least ``--gain`` (a man, less the evaluation's small terms) above
  the material on the board now, and the principal variation, played out for 12 plies
  and then its captures, does win that material: a forced gain within 12 plies;
- every other move scores at least ``--gain`` less (``exclude=``): one move wins;
- the material on the board is within two men (a decided game has no combinations left);
- a search of one ply (captures played out) does not play it: it takes a combination.
``depth`` is the shallowest iteration that plays the move; the test searches each position
that deep (a fresh search is deterministic).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from makhos.engine import Position, Rules
from makhos.engine.game import Game
from makhos.engine.rules import Colour
from makhos.engine.search import GamePosition, Limits, Searcher

MAN, KING = 100, 260


def material(position: Position, side: Colour) -> int:
    """Men and kings of ``side`` minus the opponent's, in hundredths of a man."""
    mine = position.dark if side is Colour.DARK else position.light
    theirs = position.light if side is Colour.DARK else position.dark
    kings = position.kings
    return (MAN * ((mine & ~kings).bit_count() - (theirs & ~kings).bit_count())
            + KING * ((mine & kings).bit_count() - (theirs & kings).bit_count()))


def gain_on_line(at: GamePosition, line: tuple, rules: Rules) -> int | None:
    """The material the line wins for the side to move within 12 plies (then its captures
    played out along the line); None when the line is shorter than that and not over."""
    side = at.position.turn
    position = at.position
    for index, move in enumerate(line):
        if index >= 12 and not any(m.is_capture for m in position.legal_moves(rules)):
            break
        position = position.play(move)
    else:
        if position.legal_moves(rules) and len(line) < 12:
            return None
    return material(position, side) - material(at.position, side)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--nodes", type=int, default=60_000)
    parser.add_argument("--screen-nodes", type=int, default=4_000, help="a first look at every position")
    parser.add_argument("--game-nodes", type=int, default=1_500)
    parser.add_argument("--gain", type=int, default=90)
    parser.add_argument("--seed", type=int, default=36)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    from bench.search import openings

    rules = Rules()
    rng = random.Random(args.seed)
    kept: list[dict[str, object]] = []
    seen: set[Position] = set()
    out = Path(args.out)
    for opening in openings(400, seed=args.seed):
        game = Game(rules, Position.from_fen(opening))
        player = Searcher(rules)
        while game.result() is None and len(game.plies) < 120 and len(kept) < args.count:
            at = GamePosition.of(game, len(game.plies))
            position = at.position
            moves = position.legal_moves(rules)
            if position not in seen and len(moves) > 1 and not moves[0].is_capture and len(game.plies) >= 6:
                seen.add(position)
                case = examine(game, at, args, rules)
                if case is not None:
                    kept.append(case)
                    out.write_text(json.dumps(kept, indent=1) + "\n")
                    print(f"{len(kept)}: {case}", flush=True)
            if rng.random() < 0.25:
                move = rng.choice(moves)
            else:
                found = player.search_at(at, Limits(nodes=args.game_nodes)).best
                assert found is not None
                move = found
            game.play(move)
        if len(kept) >= args.count:
            break
    return 0


def examine(game: Game, at: GamePosition, args: argparse.Namespace, rules: Rules) -> dict[str, object] | None:
    side = at.position.turn
    now = material(at.position, side)
    if abs(now) > 2 * MAN:  # a game already decided: many moves win, none is a combination
        return None
    screen = Searcher(rules).search_at(at, Limits(nodes=args.screen_nodes))
    if screen.score.value - now < args.gain:
        return None
    best = Searcher(rules).search_at(at, Limits(nodes=args.nodes))
    if best.best is None or best.score.value - now < args.gain:
        return None
    gain = gain_on_line(at, best.pv, rules)
    if gain is None or gain < MAN:
        return None
    other = Searcher(rules).search(at.position, Limits(nodes=args.nodes), history=at.history,
                                   count_left=at.count_left, exclude=[best.best])
    if other.best is not None and other.score.value > best.score.value - args.gain:
        return None
    if Searcher(rules).search_at(at, Limits(depth=1)).best == best.best:
        return None
    depth = next((d for d in range(2, 16) if Searcher(rules).search_at(at, Limits(depth=d)).best == best.best), None)
    if depth is None:
        return None
    plies = [str(p.move) for p in game.plies]
    return {"start": game.start.fen(), "moves": plies, "fen": at.position.fen(), "best": [str(best.best)],
            "score": str(best.score), "gain": gain, "depth": depth,
            "line": " ".join(str(m) for m in best.pv[:12])}


if __name__ == "__main__":
    sys.exit(main())
