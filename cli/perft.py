"""``makhos perft DEPTH``: count the legal-move tree, one line per depth."""

from __future__ import annotations

import argparse

from makhos.engine import Position
from makhos.engine.perft import perft

from .rules_args import add_rules_arguments, rules_from_args


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "perft",
        help="count move paths to a depth (checks the move generator)",
        description="Print 'depth leaves' for every depth from 1 to DEPTH.",
        epilog="examples:\n  makhos perft 6\n  makhos perft 5 --men 12\n"
        "  makhos perft 2 --fen 'B:BK18:W15,22' --rules '{\"captured_removal\": \"immediate\"}'",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("depth", type=int, help="deepest depth to count")
    parser.add_argument("--fen", help="start from this PDN FEN instead of the rules' start")
    add_rules_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.depth < 1:
        raise ValueError("DEPTH must be at least 1")
    rules = rules_from_args(args)
    position = Position.from_fen(args.fen) if args.fen else Position.start(rules)
    for depth in range(1, args.depth + 1):
        print(depth, perft(position, depth, rules), flush=True)
    return 0
