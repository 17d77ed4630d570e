"""``makhos analyse GAME.pdn``: every position's score and best move, and the moves that cost most."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from makhos.engine import Position, Rules
from makhos.engine.analysis import PlyReview, review
from makhos.engine.endgame import EndgameTable, tables_folder
from makhos.engine.game import Game
from makhos.engine.pdn import PdnGame, read_games, write_game
from makhos.engine.sanity import game_over, impossibility
from makhos.engine.search import Limits, Searcher

from .flags import add_output


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "analyse",
        help="score every position of a game and mark its mistakes",
        description="Search every position of a PDN game: print each move with its score (from "
                    "the mover's side, in men; 'win in N' counts plies to a forced end), the best "
                    "move where the one played cost half a man or more, and the moves that cost "
                    "most. --output writes the game back with ?/?? marks and the scores as comments.",
        epilog="examples:\n  makhos analyse game.pdn\n  makhos analyse game.pdn --seconds 0.3 -o annotated.pdn\n"
               "  makhos analyse 'W:W14,22:B18,30' --json   # one position: score, best move, line",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("pdn", metavar="FEN|PDN", help="a position as FEN, or a PDN file (the first game "
                        "unless --game; a game without moves is its start position)")
    parser.add_argument("--game", type=int, default=1, help="which game of the file, from 1")
    parser.add_argument("--seconds", type=float, default=1.0, help="search time per position (default 1)")
    parser.add_argument("--depth", type=int, help="search to this depth instead of for a time")
    add_output(parser, "write the annotated game here ('-' for standard output)", old="--out")
    parser.add_argument("--tables", type=Path,
                        help="folder of the endgame tables (make endgames; default: $MAKHOS_ENDGAMES, "
                        "else $XDG_DATA_HOME/makhos/endgames); used when present")
    parser.add_argument("--worst", type=int, default=3, help="how many costliest moves to list (default 3)")
    parser.add_argument("--json", action="store_true", help="one position's analysis as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.seconds <= 0 and args.depth is None:
        raise ValueError("--seconds must be positive")
    if args.depth is not None and args.depth < 1:
        raise ValueError("--depth must be at least 1")
    chosen = _game(args.pdn, args.game)
    game = chosen.game
    why = impossibility(game.start, game.rules)
    if why is not None:
        raise ValueError(f"no game reaches that position: {why}")
    tables = args.tables or tables_folder()
    table = EndgameTable.load_if_built(tables, game.rules.captured_removal)
    if table is None:
        print(f"(no endgame table in {tables}: run `make endgames` for exact endings)", file=sys.stderr)
    limits = Limits(depth=args.depth) if args.depth is not None else Limits(seconds=args.seconds)
    searcher = Searcher(game.rules, table=table)
    if not game.plies:
        return _one_position(searcher, game.start, limits, args.json)
    reviews = review(game, searcher, limits,
                     progress=lambda done, total: print(f"\r{done}/{total} positions", end="", file=sys.stderr))
    print(file=sys.stderr)
    for item in reviews:
        print(_line(item))
    worst = sorted((r for r in reviews if r.cost > 0), key=lambda r: -r.cost)[: args.worst]
    if worst:
        print("\ncostliest moves:")
        for item in worst:
            print(f"  {_number(item.index)} {item.played}{item.mark}  cost {item.cost / 100:.2f}"
                  f"  (best {item.before.best}, {item.before.score})")
    if args.output:
        notes = {r.index: (r.mark, r.comment()) for r in reviews}
        text = write_game(game, chosen.tags, notes=notes)
        if str(args.output) == "-":
            sys.stdout.write(text)
        else:
            args.output.write_text(text, encoding="utf-8")
            print(f"wrote {args.output}")
    return 0


def _game(argument: str, number: int) -> PdnGame:
    """The game of a PDN file, or a game that starts at a FEN and has no move yet."""
    path = Path(argument)
    if path.is_file():
        games = read_games(path.read_text(encoding="utf-8"))
        if not 1 <= number <= len(games):
            raise ValueError(f"{path} holds {len(games)} game(s), not a game {number}")
        return games[number - 1]
    try:
        start = Position.from_fen(argument)
    except ValueError as error:
        raise ValueError(f"{argument!r} is neither a PDN file nor a FEN ({error})") from None
    return PdnGame(Game(Rules(), start), {}, [])


def _one_position(searcher: Searcher, position: Position, limits: Limits, as_json: bool) -> int:
    """Score, best move and line of one position."""
    over = game_over(position)
    if over is not None:
        raise ValueError(over)
    found = searcher.search(position, limits)
    line = [str(move) for move in found.pv]
    if as_json:
        print(json.dumps({"fen": position.fen(), "score": str(found.score), "best": line[0] if line else None,
                          "line": line, "depth": found.depth, "nodes": found.nodes, "exact": found.exact}))
    else:
        print(f"{position.fen()}\nscore {found.score} (side to move), best {line[0] if line else '-'}, "
              f"line {' '.join(line) or '-'} (depth {found.depth}, {found.nodes} nodes)")
    return 0


def _number(index: int) -> str:
    return f"{index // 2 + 1}." + ("" if index % 2 == 0 else "..")


def _line(item: PlyReview) -> str:
    move = "--" if item.played is None else str(item.played)
    text = f"{_number(item.index):>6} {move + item.mark:<14} {str(item.after):>12}"
    if item.irregular:
        text += "  (irregular: not judged)"
    best = item.before.best
    if item.mark and best is not None:
        text += f"  best {best} {item.before.score}, line {' '.join(map(str, item.before.pv[:6]))}"
    return text + (f"  ({item.note})" if item.note else "")
