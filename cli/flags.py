"""One spelling per idea on the command line, the same in every sub-command.

As a git or ffmpeg user expects, a flag names the same thing wherever it appears (the
table is README.md's, under Commands): ``--source``, ``--board-profile``, ``--hall-profile``,
``--events``, ``-o/--output``, ``--speed``, ``--board``, ``--frames``. An old spelling still
works for a release and says on standard error what replaces it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

#: The canonical spelling of each idea, by the ``dest`` it parses into (read by the test
#: that holds every command to it).
SPELLINGS: dict[str, tuple[str, ...]] = {
    "board_profile": ("--board-profile",),
    "hall_profile": ("--hall-profile",),
    "events": ("--events",),
    "output": ("-o", "--output"),
    "source": ("--source",),
    "speed": ("--speed",),
    "board": ("--board",),
    "frames": ("--frames",),  # the folder of the camera's pictures: a worker's, a server's
}

SOURCE_HELP = "webcam index (0), video file, image folder, or camera URL (RTSP/HTTP MJPEG)"
EVENTS_HELP = "event log: a SQLite file, or JSON lines when it ends .jsonl"


class DeprecatedAlias(argparse.Action):
    """An old spelling: stores into the new one's ``dest`` and says so on standard error."""

    def __init__(self, option_strings: Sequence[str], dest: str, replacement: str = "",
                 constant: Any = None, **kwargs: Any) -> None:
        self.replacement = replacement
        self.constant = constant
        kwargs.setdefault("nargs", 0 if constant is not None else None)
        super().__init__(option_strings, dest, help=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        if values is None or values == []:  # an optional positional left out
            if self.constant is None:
                return
        old = option_string or f"the positional {self.metavar or self.dest.upper()}"
        print(f"{parser.prog}: {old} is deprecated, use {self.replacement}", file=sys.stderr)
        setattr(namespace, self.dest, self.constant if self.constant is not None else values)


def add_old_spelling(parser: argparse.ArgumentParser, old: str, dest: str, **kwargs: Any) -> None:
    """Keep ``old`` (an option, or a positional name) working as the idea ``dest``."""
    new = "/".join(SPELLINGS[dest])
    if old.startswith("-"):
        parser.add_argument(old, dest=dest, action=DeprecatedAlias, replacement=new, **kwargs)
    else:  # a positional that became --source: optional now, and not in the usage line
        parser.add_argument(dest, action=DeprecatedAlias, replacement=new, nargs="?",
                            metavar=old.upper(), default=None, **kwargs)


def add_source(parser: argparse.ArgumentParser, help: str = SOURCE_HELP,
               required: bool = True, old_positional: str | None = None) -> None:
    """``--source``; a command that took its source as a positional keeps it for a release
    (then ``--source`` cannot be argparse-required: :func:`source_of` checks it)."""
    parser.add_argument("--source", required=required and old_positional is None,
                        help=help + (" (required)" if required and old_positional else ""),
                        default=None, type=str if old_positional is None else Path)
    if old_positional is not None:
        add_old_spelling(parser, old_positional, "source", type=Path)


def source_of(args: argparse.Namespace) -> Path:
    """The ``--source`` of a command that also took it as a positional."""
    if args.source is None:
        raise ValueError("--source is required")
    source: Path = args.source
    return source


def add_board_profile(parser: argparse.ArgumentParser, help: str, old: str | None = "--profile") -> None:
    parser.add_argument("--board-profile", type=Path, metavar="FILE", help=help)
    if old is not None:
        add_old_spelling(parser, old, "board_profile", type=Path)


def add_hall_profile(parser: argparse.ArgumentParser, help: str, old: str) -> None:
    parser.add_argument("--hall-profile", type=Path, metavar="FILE", help=help)
    add_old_spelling(parser, old, "hall_profile", type=Path)


def add_events(parser: argparse.ArgumentParser, default: Path | None = Path("events.db"),
               help: str = EVENTS_HELP) -> None:
    suffix = f" (default {default})" if default is not None else ""
    parser.add_argument("--events", type=Path, default=default, metavar="LOG", help=help + suffix)


def add_output(parser: argparse.ArgumentParser, help: str, default: Path | None = None,
               old: str | None = None) -> None:
    parser.add_argument("-o", "--output", type=Path, default=default, metavar="FILE", help=help)
    if old is not None:
        add_old_spelling(parser, old, "output", type=Path)


def add_speed(parser: argparse.ArgumentParser, help: str, default: float | None = None) -> None:
    parser.add_argument("--speed", type=float, default=default, metavar="FACTOR", help=help)


def add_board(parser: argparse.ArgumentParser, help: str = "board id (default 1)",
              required: bool = False, many: bool = False) -> None:
    """``--board``; ``many``: given once per board of a process watching several."""
    parser.add_argument("--board", default=None if required else "1", required=required,
                        metavar="ID", help=help, action="append" if many else "store")
