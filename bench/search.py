"""The analysis engine's figures: speed, strength, tactics and exactness (one core).

    python3 -m bench.search speed                   # nodes/s, depth in 1 s: start + 20 middlegames
    python3 -m bench.search match --opponent depth2 --results out/match-depth2.jsonl
    python3 -m bench.search match --opponent tenth --results out/match-tenth.jsonl
    python3 -m bench.search match ... --nodes 130000  # a node budget instead of 1 s (load-free)
    python3 -m bench.search tactics                 # tests/engine/data/tactics.json at 1 s each
    python3 -m bench.search tactics --set game --nodes 200000   # forced gains from game histories
    python3 -m bench.search exactness               # 200 positions vs minimax; the table vs its rules
    python3 -m bench.search reuse                   # one searcher through long games vs fresh ones (#35)
    python3 -m bench.search reuse --engine ef002a7  # the same for the engine of a git revision
    python3 -m bench.search stopped                 # answers of budget-stopped searches (#44)
    python3 -m bench.search match --opponent previous --nodes 20000 --results out/m-prev.jsonl
    python3 -m bench.search match --opponent minimax --nodes 20000 --results out/m-minimax.jsonl

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
import importlib.util
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from collections.abc import Callable
from types import ModuleType
from typing import Any


from bench.machine import engine_path
from makhos.engine import CapturedRemoval, Move, Position, Rules
from makhos.engine.endgame import EndgameTable, Outcome, tables_folder
from makhos.engine.game import Game, Outcome as GameOutcome
from makhos.engine.rules import Colour
from makhos.engine import search as current_search
from makhos.engine.search import GamePosition, Limits, Searcher

ROOT = Path(__file__).resolve().parents[1]
MIDDLEGAMES = ROOT / "bench" / "data" / "middlegames.fen"
TACTICS = ROOT / "tests" / "engine" / "data" / "tactics.json"
GAME_TACTICS = ROOT / "tests" / "engine" / "data" / "game_tactics.json"
TABLES = tables_folder()  # where make endgames wrote them
#: The last commit before #35 (the search that kept its tables between positions): the
#: previous engine of a match and of the reuse check. Not "main": main moves.
BEFORE_35 = "ef002a7"
#: Plies after which a match game is adjudicated (by the table if it covers the position, else a draw).
MAX_PLIES = 200


def engine_at(revision: str | None) -> ModuleType:
    """The search module of a git revision (``engine/search.py`` as committed there), run on
    today's rules: the "previous engine" of a match or of the reuse check. None: today's."""
    if revision is None:
        return current_search
    text = subprocess.run(["git", "show", f"{revision}:engine/search.py"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout
    name = f"makhos.engine._search_at_{''.join(c if c.isalnum() else '_' for c in revision)}"
    if name in sys.modules:
        return sys.modules[name]
    folder = Path(tempfile.mkdtemp(prefix="makhos-engine-"))
    (folder / "search.py").write_text(text)
    spec = importlib.util.spec_from_file_location(name, folder / "search.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "makhos.engine"
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


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
    print(f"python {sys.version.split()[0]}, {engine_path()}, {load()}")
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
    for depth in (12, 13, 14):
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


#: A player of a match: makes its choice in the game as it stands.
Player = Callable[[Game], Move]
#: Makes a new player for each game (a searcher's state never crosses games).
PlayerMaker = Callable[[], Player]


def searcher_player(engine: ModuleType, limits: Limits, table: EndgameTable | None,
                    keep_table: bool = False) -> PlayerMaker:
    """The search of ``engine`` (today's, or a revision's: :func:`engine_at`) at ``limits``,
    one searcher for the whole game, as the analyst and ``makhos analyse`` use it."""
    def make() -> Player:
        searcher = (engine.Searcher(Rules(), table=table, keep_table=True) if keep_table
                    else engine.Searcher(Rules(), table=table))
        engine_limits = engine.Limits(depth=limits.depth, seconds=limits.seconds, nodes=limits.nodes)

        def play(game: Game) -> Move:
            at = GamePosition.of(game, len(game.plies))
            best: Move | None = searcher.search(at.position, engine_limits, history=at.history,
                                                count_left=at.count_left).best
            assert best is not None
            return best
        return play
    return make


def minimax_player(depth: int) -> PlayerMaker:
    """The baseline: plain minimax (alpha-beta, which changes no choice) to ``depth`` plies
    over the rules' ``legal_moves``, material only (a man 1, a king 3), the first of equal
    moves; a side with no move has lost. Like the outside engine's minimax player of #35."""
    rules = Rules()

    def value(position: Position, left: int, alpha: int, beta: int) -> int:
        moves = position.legal_moves(rules)
        if not moves:
            return -1_000
        if left == 0:
            mine = position.dark if position.turn is Colour.DARK else position.light
            theirs = position.light if position.turn is Colour.DARK else position.dark
            kings = position.kings
            return ((mine & ~kings).bit_count() - (theirs & ~kings).bit_count()
                    + 3 * ((mine & kings).bit_count() - (theirs & kings).bit_count()))
        best = -10_000
        for move in moves:
            best = max(best, -value(position.play(move), left - 1, -beta, -alpha))
            alpha = max(alpha, best)
            if alpha >= beta:
                break
        return best

    def make() -> Player:
        def play(game: Game) -> Move:
            position = game.position
            best_move, best, alpha = None, -10_000, -10_000
            for move in position.legal_moves(rules):
                score = -value(position.play(move), depth - 1, -10_000, -alpha)
                if score > best:
                    best_move, best, alpha = move, score, max(alpha, score)
            assert best_move is not None
            return best_move
        return play
    return make


def play_game(start: str, first: PlayerMaker, second: PlayerMaker, table: EndgameTable | None) -> tuple[float, int, str]:
    """One game from ``start``: ``first`` plays the side to move there. Returns the first
    player's score (1, 1/2, 0), the plies played and how it ended."""
    rules = Rules()
    game = Game(rules, Position.from_fen(start))
    players = {game.position.turn: first(), game.position.turn.opponent: second()}
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
        game.play(players[position.turn](game))
    result = game.result()
    if result is None:
        return 0.5, len(game.plies), "ply limit"
    if result.outcome is GameOutcome.DRAW:
        return 0.5, len(game.plies), result.reason
    won = result.outcome is GameOutcome.win_for(first_colour)
    return (1.0 if won else 0.0), len(game.plies), result.reason


def match(args: argparse.Namespace) -> int:
    mine = Limits(nodes=args.nodes) if args.nodes else Limits(seconds=args.seconds)
    table = table_or_none(Rules())
    if args.opponent == "depth2":
        theirs: object = Limits(depth=2)
        opponent = searcher_player(current_search, Limits(depth=2), table)
    elif args.opponent == "previous":
        theirs = f"engine at {args.previous}, {mine}"
        opponent = searcher_player(engine_at(args.previous), mine, table)
    elif args.opponent == "minimax":
        theirs = f"minimax depth {args.minimax_depth}"
        opponent = minimax_player(args.minimax_depth)
    else:
        theirs = Limits(nodes=max(args.nodes // 10, 1)) if args.nodes else Limits(seconds=args.seconds / 10)
        assert isinstance(theirs, Limits)
        opponent = searcher_player(current_search, theirs, table)
    me = searcher_player(current_search, mine, table, keep_table=args.keep_table)
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
            score, plies, reason = play_game(start, me, opponent, table)
        else:
            score, plies, reason = play_game(start, opponent, me, table)
            score = 1.0 - score
        record = {"game": index, "opening": start, "engine_first": engine_first, "score": score,
                  "plies": plies, "end": reason, "seconds": round(time.perf_counter() - began, 1),
                  "limits": str(mine), "keep_table": args.keep_table, "opponent": str(theirs)}
        with results.open("a") as out:
            out.write(json.dumps(record) + "\n")
        done[index] = record
        print(f"game {index}: {score} in {plies} plies ({reason}), {record['seconds']} s; "
              f"{summary(list(done.values()))} ({load()})", flush=True)
    print(summary(list(done.values())))
    return 0


def summary(records: list[dict[str, Any]]) -> str:
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
            f" (95 %: {max(mean - 1.96 * error, 0.0):.3f}-{min(mean + 1.96 * error, 1.0):.3f})")


# ---------------------------------------------------------------- tactics


def game_position(case: dict[str, Any]) -> GamePosition:
    """A case of game_tactics.json as the game left it: the position, its history and count."""
    game = Game(Rules(), Position.from_fen(case["start"]))
    for text in case["moves"]:
        game.play_text(text)
    at = GamePosition.of(game, len(game.plies))
    assert at.position.fen() == case["fen"]
    return at


def tactics(args: argparse.Namespace) -> int:
    """``--set table``: tests/engine/data/tactics.json (endings, one winning move); ``--set
    game``: game_tactics.json (forced gains of material within 12 plies, from game
    histories, searched with them). Each at ``--seconds`` of wall time, or ``--nodes``
    (load-free: about 200,000 nodes is a second of a quiet core)."""
    path = GAME_TACTICS if args.set == "game" else TACTICS
    cases = json.loads(path.read_text())
    table = None if args.no_table else table_or_none(Rules())
    limits = Limits(nodes=args.nodes) if args.nodes else Limits(seconds=args.seconds)
    found = 0
    cpu_all = 0.0
    for case in cases:
        searcher = Searcher(table=table)
        cpu = time.process_time()
        if args.set == "game":
            analysis = searcher.search_at(game_position(case), limits)
        else:
            analysis = searcher.search(Position.from_fen(case["fen"]), limits)
        cpu = time.process_time() - cpu
        cpu_all += cpu
        ok = str(analysis.best) in case["best"]
        found += ok
        print(f"{'ok  ' if ok else 'MISS'} {case['fen']:<50} wants {'/'.join(case['best']):<12}"
              f" found {analysis.best} {analysis.score} depth {analysis.depth}, {cpu:.2f} s cpu", flush=True)
    budget = f"{args.nodes:,} nodes" if args.nodes else f"{args.seconds:g} s"
    print(f"tactics ({path.name}): {found} of {len(cases)} found within {budget} each"
          f" ({cpu_all / max(len(cases), 1):.2f} s cpu on average),"
          f" {'with' if table else 'without'} the endgame table ({engine_path()}, {load()})")
    return 0


# ---------------------------------------------------------------- reuse (#35)


def long_games(count: int, nodes: int, max_plies: int = 160) -> list[Game]:
    """``count`` games of self-play at ``nodes`` a move from the match's openings, to their
    end or ``max_plies``: long histories, kings, shuttles and counts, all deterministic."""
    games = []
    for start in openings(count, seed=35):
        game = Game(Rules(), Position.from_fen(start))
        searcher = Searcher()
        while game.result() is None and len(game.plies) < max_plies:
            analysis = searcher.analyse_game_position(game, len(game.plies), Limits(nodes=nodes))
            assert analysis.best is not None
            game.play(analysis.best)
        games.append(game)
    return games


def searchable(at: GamePosition) -> bool:
    """Not drawn by the rules, not lost already: a position a search has a move for."""
    return not at.drawn and bool(at.position.legal_moves())


def spread(games: list[Game], from_ply: int, count: int) -> set[tuple[int, int]]:
    """``count`` (game, ply) spots spread evenly over the distinct searchable positions of
    ``games`` from ``from_ply`` on (with their history: two openings may meet in one game)."""
    distinct: dict[GamePosition, tuple[int, int]] = {}
    for g, game in enumerate(games):
        for i in range(from_ply, len(game.plies) + 1):
            at = GamePosition.of(game, i)
            if searchable(at):
                distinct.setdefault(at, (g, i))
    spots = sorted(distinct.values())
    step = max(len(spots) / count, 1.0)
    return {spots[int(k * step)] for k in range(min(count, len(spots)))}


def reuse(args: argparse.Namespace) -> int:
    """One searcher analyses every position of long games in order (the live analyst's
    way); at ``--positions`` of them, spread over the games past ply ``--from-ply``, its
    best move is compared with a fresh searcher's at the same node budget. Agreement
    counts where the fresh search's margin (its score minus the best other move's, by
    ``exclude``) exceeds the noise: the 90th percentile of how far the fresh score moves
    when the budget is doubled."""
    engine = engine_at(args.engine)
    print(f"engine {args.engine or 'this tree'}, {args.nodes:,} nodes a position, python"
          f" {sys.version.split()[0]}, {load()}", flush=True)
    began = time.process_time()
    games = long_games(args.games, args.game_nodes)

    chosen = spread(games, args.from_ply, args.positions)
    print(f"{len(games)} games of {', '.join(str(len(g.plies)) for g in games)} plies"
          f" from ply {args.from_ply} ({args.game_nodes:,} nodes a move), {len(chosen)} positions,"
          f" {time.process_time() - began:.0f} s cpu", flush=True)
    limits = engine.Limits(nodes=args.nodes)
    rows = []
    for g, game in enumerate(games):
        reused = engine.Searcher(Rules(), keep_table=True) if args.keep_table else engine.Searcher(Rules())
        for index in range(len(game.plies) + 1):
            at = GamePosition.of(game, index)
            if not searchable(at):
                continue
            kept = reused.search(at.position, limits, history=at.history, count_left=at.count_left)
            if (g, index) not in chosen:
                continue
            fresh = engine.Searcher(Rules()).search(at.position, limits, history=at.history,
                                                    count_left=at.count_left)
            # the margin and the noise by today's engine (an old one may have no exclude)
            other = Searcher().search(at.position, Limits(nodes=args.nodes), history=at.history,
                                      count_left=at.count_left, exclude=[fresh.best])
            doubled = engine.Searcher(Rules()).search(at.position, engine.Limits(nodes=2 * args.nodes),
                                                      history=at.history, count_left=at.count_left)
            margin = fresh.score.value - other.score.value if other.best is not None else 10 * MAN
            rows.append((g, index, kept, fresh, margin, abs(_clip(doubled.score.value) - _clip(fresh.score.value))))
            if len(rows) % 20 == 0:
                print(f"{len(rows)} positions, {time.process_time() - began:.0f} s cpu ({load()})", flush=True)
    noise = sorted(row[5] for row in rows)[int(0.9 * (len(rows) - 1))] if rows else 0
    clear = [row for row in rows if row[4] > noise]
    same_clear = sum(row[2].best == row[3].best for row in clear)
    same_all = sum(row[2].best == row[3].best for row in rows)
    identical = sum(row[2].score == row[3].score and row[2].best == row[3].best and row[2].depth == row[3].depth
                    and row[2].nodes == row[3].nodes for row in rows)
    for g, index, kept, fresh, margin, _ in rows:
        if kept.best != fresh.best and margin > noise:
            print(f"DIFFERS game {g} ply {index} {games[g].positions()[index].fen()}: reused {kept.best}"
                  f" {kept.score} d{kept.depth}, fresh {fresh.best} {fresh.score} d{fresh.depth},"
                  f" margin {margin / MAN:.2f}")
    print(f"reused vs fresh on {len(rows)} positions (plies {args.from_ply}+ of long games):"
          f" noise (90th percentile of |score(2N) - score(N)|) {noise / MAN:.2f} men;"
          f" margin above it: {same_clear} of {len(clear)} same best move;"
          f" all: {same_all} of {len(rows)} same best move, {identical} identical"
          f" (score, move, depth, nodes); {time.process_time() - began:.0f} s cpu ({engine_path()}, {load()})")
    return 0


# ---------------------------------------------------------------- stopped (#44)


def stopped(args: argparse.Namespace) -> int:
    """What a search stopped by its node budget answers, against what its last complete
    depth chose (a fresh search to that depth: the same iterations, run to their end).

    Each answer is one of (:func:`judged`): the last complete depth's move and score; a
    move the next depth prefers to the last complete depth's; or **stale**: a move the last
    complete depth never chose and the next depth neither chooses nor prefers (the bug of
    #44, goal 0).
    Positions: ``--positions`` spread over long self-play games, as ``reuse``."""
    engine = engine_at(args.engine)
    print(f"engine {args.engine or 'this tree'}, python {sys.version.split()[0]}, {engine_path()}, {load()}",
          flush=True)
    began = time.process_time()
    games = long_games(args.games, args.game_nodes)
    spots = [GamePosition.of(games[g], i) for g, i in sorted(spread(games, args.from_ply, args.positions))]
    print(f"{len(spots)} positions from ply {args.from_ply} of {len(games)} self-play games,"
          f" {time.process_time() - began:.0f} s cpu", flush=True)
    for budget in args.budgets:
        kinds = {"finished": 0, "deeper": 0, "stale": 0}
        for at in spots:
            found = engine.Searcher(Rules()).search(at.position, engine.Limits(nodes=budget), history=at.history,
                                                    count_left=at.count_left)
            kind, said = judged(engine, at, found)
            kinds[kind] += 1
            if said:
                print(f"{kind.upper()} {at.position.fen()} at {budget:,} nodes: {said}", flush=True)
        print(f"{budget:,} nodes: {len(spots)} positions, {kinds['finished']} answered with the last complete"
              f" depth, {kinds['deeper']} with a move the next depth prefers to it, **{kinds['stale']} stale**"
              f" (another move); {time.process_time() - began:.0f} s cpu ({load()})", flush=True)
    return 0


def judged(engine: ModuleType, at: GamePosition, found: Any) -> tuple[str, str]:
    """How a budget-stopped answer ``found`` (an Analysis of ``engine``) stands, and what to
    say of it: ``finished`` (the last complete depth's move and score, as a search to that
    depth gives them); ``deeper`` (another move, which the next depth chooses, or prefers in
    a search between the two moves: today's engine, by ``exclude``); else ``stale``."""
    def search(limits: Any, exclude: list[Move] | None = None) -> Any:
        searcher = Searcher(Rules()) if exclude is not None else engine.Searcher(Rules())
        more = {"exclude": exclude} if exclude is not None else {}
        return searcher.search(at.position, limits, history=at.history, count_left=at.count_left, **more)

    last = search(engine.Limits(depth=found.depth))
    if (found.best, found.score) == (last.best, last.score):
        return "finished", ""
    others = [move for move in at.position.legal_moves() if move not in (found.best, last.best)]
    duel = search(Limits(depth=found.depth + 1), others)
    deeper = search(engine.Limits(depth=found.depth + 1))
    kind = "stale" if found.best == last.best or found.best not in (duel.best, deeper.best) else "deeper"
    return kind, (f"{found.best} {found.score} d{found.depth}; depth {found.depth} chose {last.best} {last.score};"
                  f" depth {found.depth + 1} between the two {duel.best} {duel.score}, in all {deeper.best}"
                  f" {deeper.score}")


#: A man, in the search's units; scores are clipped at ten men when compared.
MAN = 100


def _clip(value: int) -> int:
    return max(-10 * MAN, min(10 * MAN, value))


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
    p.add_argument("--opponent", choices=("depth2", "tenth", "previous", "minimax"), required=True,
                   help="the same search limited to 2 plies, or given a tenth of the time/nodes; the"
                        " engine of --previous at the same limits; plain minimax to --minimax-depth")
    p.add_argument("--previous", default=BEFORE_35,
                   help=f"git revision of the previous engine (default {BEFORE_35}: the engine before #35)")
    p.add_argument("--minimax-depth", type=int, default=4)
    p.add_argument("--keep-table", action="store_true",
                   help="this engine keeps its transposition table between moves (Searcher(keep_table=True))")
    p.add_argument("--results", required=True, help="JSON lines file; the match resumes from it")
    p.add_argument("--games", type=int, default=400)
    p.add_argument("--chunk", type=int, default=0, help="play at most this many more games")
    p.add_argument("--seconds", type=float, default=1.0, help="per move (default 1)")
    p.add_argument("--nodes", type=int, default=0, help="a node budget per move instead of time")
    p.set_defaults(func=match)
    p = sub.add_parser("tactics")
    p.add_argument("--set", choices=("table", "game"), default="table",
                   help="tactics.json (endings) or game_tactics.json (forced gains in games)")
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--nodes", type=int, default=0, help="a node budget instead of time (load-free)")
    p.add_argument("--no-table", action="store_true", help="search without the endgame table")
    p.set_defaults(func=tactics)
    p = sub.add_parser("reuse", help="one searcher through long games against fresh ones (#35)")
    p.add_argument("--engine", default=None, help="a git revision's engine/search.py (default: this tree)")
    p.add_argument("--nodes", type=int, default=10_000, help="node budget of every search")
    p.add_argument("--positions", type=int, default=200)
    p.add_argument("--games", type=int, default=5)
    p.add_argument("--game-nodes", type=int, default=3_000, help="node budget of the self-play games")
    p.add_argument("--from-ply", type=int, default=20, help="compare positions from this ply on")
    p.add_argument("--keep-table", action="store_true", help="the reused searcher keeps its transposition table")
    p.set_defaults(func=reuse)
    p = sub.add_parser("stopped", help="answers of searches stopped by their budget (#44)")
    p.add_argument("--engine", default=None, help="a git revision's engine/search.py (default: this tree)")
    p.add_argument("--budgets", type=int, nargs="+", default=[20_000, 80_000, 160_000],
                   help="node budgets, each over every position")
    p.add_argument("--positions", type=int, default=200)
    p.add_argument("--games", type=int, default=5)
    p.add_argument("--game-nodes", type=int, default=3_000, help="node budget of the self-play games")
    p.add_argument("--from-ply", type=int, default=10, help="positions from this ply on")
    p.set_defaults(func=stopped)
    p = sub.add_parser("exactness")
    p.add_argument("--positions", type=int, default=200)
    p.add_argument("--max-states", type=int, default=20_000, help="largest reference tree to solve")
    p.set_defaults(func=exactness)
    args = parser.parse_args(argv)
    status: int = args.func(args)
    return status


if __name__ == "__main__":
    sys.exit(main())
