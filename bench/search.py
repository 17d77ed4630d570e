"""The analysis engine's figures: speed, strength, tactics and exactness (one core).

    python3 -m bench.search speed                   # nodes/s, depth in 1 s: start + 20 middlegames
    python3 -m bench.search match --opponent depth2 --results out/match-depth2.jsonl
    python3 -m bench.search match --opponent tenth --results out/match-tenth.jsonl
    python3 -m bench.search match ... --nodes 130000  # a node budget instead of 1 s (load-free)
    python3 -m bench.search tactics                 # tests/engine/data/tactics.json at 1 s each
    python3 -m bench.search exactness               # 200 positions vs minimax; the table vs its rules

A match plays ``--games`` games (default 400) from 200 openings, each opening once with
either colour; every finished game is appended to ``--results`` as one JSON line, so a
match stopped at any point goes on where it stopped when the same command is run again
(``--chunk N`` plays N more games and exits). The score counts a win 1, a draw 1/2; its
error is the standard error of the mean over games, and the line prints the 95 % interval.

Timing figures depend on the load: each line prints the 1-minute load average beside it.
A node budget (``--nodes``) makes a match independent of the load: the same moves whatever
else runs. The lead reruns the timed figures on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from pathlib import Path


from makhos.engine import CapturedRemoval, Position, Rules
from makhos.engine.endgame import EndgameTable, Outcome
from makhos.engine.game import Game, Outcome as GameOutcome
from makhos.engine.rules import Colour
from makhos.engine.search import Limits, Searcher

ROOT = Path(__file__).resolve().parents[1]
MIDDLEGAMES = ROOT / "bench" / "data" / "middlegames.fen"
TACTICS = ROOT / "tests" / "engine" / "data" / "tactics.json"
TABLES = ROOT / "data" / "endgames"
#: Plies after which a match game is adjudicated (by the table if it covers the position, else a draw).
MAX_PLIES = 200


def load() -> str:
    return f"load {os.getloadavg()[0]:.2f}" if hasattr(os, "getloadavg") else "load ?"


def table_or_none(rules: Rules) -> EndgameTable | None:
    try:
        return EndgameTable.load(TABLES, rules.captured_removal)
    except FileNotFoundError:
        return None


def middlegames() -> list[Position]:
    lines = MIDDLEGAMES.read_text().splitlines()
    return [Position.from_fen(line) for line in lines if line.strip() and not line.startswith("#")]


# ---------------------------------------------------------------- speed


def speed(args: argparse.Namespace) -> int:
    print(f"python {sys.version.split()[0]}, {load()}")
    rows = [("start", Position.start())] + [(f"middlegame {i + 1}", p) for i, p in enumerate(middlegames())]
    depths = []
    for name, position in rows:
        searcher = Searcher()
        cpu = time.process_time()
        limits = Limits(nodes=args.nodes) if args.nodes else Limits(seconds=args.seconds)
        analysis = searcher.search(position, limits)
        cpu = time.process_time() - cpu
        depths.append(analysis.depth)
        budget = f"{args.nodes:,} nodes" if args.nodes else f"{args.seconds:g} s"
        print(f"{name:<14} depth {analysis.depth:>2} in {budget}  {analysis.nodes:>8,} nodes  {cpu:5.2f} s cpu"
              f"  {analysis.nodes / analysis.seconds:>9,.0f} nodes/s wall  {analysis.nodes / max(cpu, 1e-9):>9,.0f}"
              f" nodes/s cpu  {analysis.score}  {analysis.best}  ({load()})", flush=True)
    print(f"middlegames: mean depth {sum(depths[1:]) / len(depths[1:]):.1f}, least {min(depths[1:])}")
    start = Position.start()
    for depth in (10, 12, 13):
        cpu = time.process_time()
        analysis = Searcher().search(start, Limits(depth=depth))
        cpu = time.process_time() - cpu
        print(f"start to depth {depth}: {analysis.nodes:,} nodes, {cpu:.2f} s cpu"
              f" ({analysis.nodes / cpu:,.0f} nodes/s), {analysis.score}, {' '.join(map(str, analysis.pv[:8]))}")
    return 0


# ---------------------------------------------------------------- match


def openings(count: int, plies: int = 4, seed: int = 24) -> list[str]:
    """``count`` distinct positions ``plies`` random moves from the start (as FEN)."""
    rng = random.Random(seed)
    seen: dict[str, None] = {}
    while len(seen) < count:
        position = Position.start()
        for _ in range(plies):
            position = position.play(rng.choice(position.legal_moves()))
        seen[position.fen()] = None
    return list(seen)


def play_game(start: str, first: Limits, second: Limits, table: EndgameTable | None) -> tuple[float, int, str]:
    """One game from ``start``: ``first`` plays the side to move there. Returns the first
    player's score (1, 1/2, 0), the plies played and how it ended."""
    rules = Rules()
    game = Game(rules, Position.from_fen(start))
    players = {game.position.turn: (Searcher(rules, table=table), first),
               game.position.turn.opponent: (Searcher(rules, table=table), second)}
    first_colour = game.position.turn
    while game.result() is None and len(game.plies) < MAX_PLIES:
        position = game.position
        if table is not None and (position.dark | position.light).bit_count() <= table.max_pieces:
            value = table.probe(position)
            assert value is not None
            if value.outcome is Outcome.DRAW:
                return 0.5, len(game.plies), "table draw"
            winner = position.turn if value.outcome is Outcome.WIN else position.turn.opponent
            return (1.0 if winner is first_colour else 0.0), len(game.plies), "table"
        searcher, limits = players[position.turn]
        analysis = searcher.analyse_game_position(game, len(game.plies), limits)
        assert analysis.best is not None
        game.play(analysis.best)
    result = game.result()
    if result is None:
        return 0.5, len(game.plies), "ply limit"
    if result.outcome is GameOutcome.DRAW:
        return 0.5, len(game.plies), result.reason
    won = result.outcome is GameOutcome.win_for(first_colour)
    return (1.0 if won else 0.0), len(game.plies), result.reason


def match(args: argparse.Namespace) -> int:
    mine = Limits(nodes=args.nodes) if args.nodes else Limits(seconds=args.seconds)
    if args.opponent == "depth2":
        theirs = Limits(depth=2)
    elif args.nodes:
        theirs = Limits(nodes=max(args.nodes // 10, 1))
    else:
        theirs = Limits(seconds=args.seconds / 10)
    table = table_or_none(Rules())
    starts = openings(args.games // 2)
    results = Path(args.results)
    results.parent.mkdir(parents=True, exist_ok=True)
    done = {}
    if results.exists():
        for line in results.read_text().splitlines():
            if line.strip():
                record = json.loads(line)
                done[record["game"]] = record
    todo = [g for g in range(args.games) if g not in done][: args.chunk or None]
    print(f"{len(done)} of {args.games} games done; playing {len(todo)} ({load()})", flush=True)
    for index in todo:
        start = starts[index // 2]
        engine_first = index % 2 == 0
        began = time.perf_counter()
        if engine_first:
            score, plies, reason = play_game(start, mine, theirs, table)
        else:
            score, plies, reason = play_game(start, theirs, mine, table)
            score = 1.0 - score
        record = {"game": index, "opening": start, "engine_first": engine_first, "score": score,
                  "plies": plies, "end": reason, "seconds": round(time.perf_counter() - began, 1),
                  "limits": str(mine), "opponent": str(theirs)}
        with results.open("a") as out:
            out.write(json.dumps(record) + "\n")
        done[index] = record
        print(f"game {index}: {score} in {plies} plies ({reason}), {record['seconds']} s; "
              f"{summary(list(done.values()))} ({load()})", flush=True)
    print(summary(list(done.values())))
    return 0


def summary(records: list[dict]) -> str:
    n = len(records)
    if not n:
        return "no games"
    scores = [r["score"] for r in records]
    mean = sum(scores) / n
    var = sum((s - mean) ** 2 for s in scores) / (n - 1) if n > 1 else 0.0
    error = math.sqrt(var / n)
    wins = sum(s == 1.0 for s in scores)
    draws = sum(s == 0.5 for s in scores)
    return (f"{n} games: +{wins} ={draws} -{n - wins - draws}, score {mean:.3f} ± {error:.3f}"
            f" (95 %: {mean - 1.96 * error:.3f}-{mean + 1.96 * error:.3f})")


# ---------------------------------------------------------------- tactics


def tactics(args: argparse.Namespace) -> int:
    cases = json.loads(TACTICS.read_text())
    table = None if args.no_table else table_or_none(Rules())
    found = 0
    for case in cases:
        searcher = Searcher(table=table)
        analysis = searcher.search(Position.from_fen(case["fen"]), Limits(seconds=args.seconds))
        ok = str(analysis.best) in case["best"]
        found += ok
        print(f"{'ok  ' if ok else 'MISS'} {case['fen']:<50} wants {'/'.join(case['best']):<12}"
              f" found {analysis.best} {analysis.score} depth {analysis.depth}", flush=True)
    print(f"tactics: {found} of {len(cases)} found within {args.seconds:g} s,"
          f" {'with' if table else 'without'} the endgame table ({load()})")
    return 0


# ---------------------------------------------------------------- exactness


def exactness(args: argparse.Namespace) -> int:
    from lab.exactness import TooLarge, random_position, solve_by_minimax, table_agrees_with_rules

    rules = Rules(count_on_claim=False, count_rule_moves=1)
    rng = random.Random(7)
    agree = skipped = 0
    by_pieces: dict[int, int] = {}
    started = time.perf_counter()
    trial = 0
    while trial < args.positions:
        pieces = rng.randint(2, 6)
        position = random_position(rng, pieces, kings=0.3 if pieces <= 4 else 0.05)
        try:
            expected = solve_by_minimax(position, rules, max_states=args.max_states)
        except TooLarge:
            skipped += 1
            continue
        trial += 1
        by_pieces[pieces] = by_pieces.get(pieces, 0) + 1
        found = Searcher(rules).search(position)
        same = found.exact and found.score.value == expected
        agree += same
        if not same:
            print(f"DIFFERS {position.fen()}: search {found.score} ({found.score.value}), minimax {expected}")
        if trial % 20 == 0:
            print(f"{trial} compared, {agree} agree, {skipped} skipped", flush=True)
    print(f"search vs minimax: {agree} of {args.positions} positions agree (values and results);"
          f" pieces: {dict(sorted(by_pieces.items()))}; {skipped} drawn positions skipped (reference"
          f" tree over {args.max_states:,} states); {time.perf_counter() - started:.0f} s")
    for removal in CapturedRemoval:
        table = table_or_none(Rules(captured_removal=removal))
        if table is None:
            print("no endgame table: run make endgames")
            continue
        checked, wrong = table_agrees_with_rules(table, pieces=3)
        print(f"endgame table ({removal.value}) vs a one-ply search by the rules: {checked:,}"
              f" three-piece positions, {wrong} differ", flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("speed")
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--nodes", type=int, default=0, help="a node budget instead of time (load-free)")
    p.set_defaults(func=speed)
    p = sub.add_parser("match")
    p.add_argument("--opponent", choices=("depth2", "tenth"), required=True,
                   help="the same search limited to 2 plies, or given a tenth of the time/nodes")
    p.add_argument("--results", required=True, help="JSON lines file; the match resumes from it")
    p.add_argument("--games", type=int, default=400)
    p.add_argument("--chunk", type=int, default=0, help="play at most this many more games")
    p.add_argument("--seconds", type=float, default=1.0, help="per move (default 1)")
    p.add_argument("--nodes", type=int, default=0, help="a node budget per move instead of time")
    p.set_defaults(func=match)
    p = sub.add_parser("tactics")
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--no-table", action="store_true", help="search without the endgame table")
    p.set_defaults(func=tactics)
    p = sub.add_parser("exactness")
    p.add_argument("--positions", type=int, default=200)
    p.add_argument("--max-states", type=int, default=20_000, help="largest reference tree to solve")
    p.set_defaults(func=exactness)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
