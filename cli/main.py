"""The ``makhos`` command: one sub-command per module of this package."""

from __future__ import annotations

import argparse
import importlib
import sys
from importlib.metadata import PackageNotFoundError, version

#: Sub-command modules; each defines ``register(subparsers)`` that adds its parser and
#: sets ``func`` (taking the parsed args, returning an exit status).
COMMANDS = ("makhos.cli.demo", "makhos.cli.run", "makhos.cli.calibrate", "makhos.cli.read", "makhos.cli.perft", "makhos.cli.analyse", "makhos.cli.record", "makhos.cli.serve", "makhos.cli.worker")


def _version() -> str:
    try:
        return version("makhos-cam")
    except PackageNotFoundError:
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="makhos",
        description="Thai checkers (หมากฮอส) from a camera: read, referee, record, broadcast.",
    )
    parser.add_argument("--version", action="version", version=f"makhos-cam {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args) or 0
    except KeyboardInterrupt:
        return 130
    except (ValueError, FileNotFoundError) as error:
        print(f"makhos {args.command}: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
