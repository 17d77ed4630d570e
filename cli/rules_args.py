"""The ``--rules`` / ``--men`` options shared by every command that plays a game."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from makhos.engine import Rules


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--men", type=int, choices=(8, 12), help="men per side (default 8)")
    parser.add_argument(
        "--rules",
        metavar="SETTINGS",
        help="rule settings as JSON or a JSON file, e.g. '{\"captured_removal\": \"immediate\"}'",
    )


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The Rules named by ``--rules`` and ``--men`` (``--men`` wins)."""
    settings: dict[str, Any] = {}
    if args.rules:
        text = args.rules
        if not text.lstrip().startswith("{"):
            text = Path(text).read_text(encoding="utf-8")
        try:
            settings = json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(f"--rules is not valid JSON: {error}") from None
        if not isinstance(settings, dict):
            raise ValueError("--rules must be a JSON object")
    if args.men:
        settings["men_per_side"] = args.men
    return Rules.from_dict(settings)
