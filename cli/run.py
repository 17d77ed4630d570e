"""``makhos run --source SOURCE``: watch one board and serve its live page, in one process."""

from __future__ import annotations

import argparse
import os
import secrets
import sys
from pathlib import Path

from makhos.engine import Colour, Rules

from .flags import add_board, add_board_profile, add_events, add_old_spelling, add_source, add_speed
from .live import LiveBoard, LiveRun
from .rules_args import add_rules_arguments, rules_from_args
from .serve import TOKEN_ENV


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "run",
        help="watch one board with a camera and serve its live page",
        description="Read a camera (or a video as if live), referee the game, record it in the "
                    "event log and serve the live page, referee console and API.",
        epilog="examples:\n  makhos run --source 0                      # the first webcam\n"
               "  makhos run --source 0 --board-profile board1.json  # as makhos calibrate set it up\n"
               "  makhos run --source rtsp://10.0.0.21/stream --board 7 --events hall.db\n"
               "  makhos run --source game.mp4 --speed 1 --port 5001",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_live_arguments(parser)
    add_source(parser)
    add_speed(parser, "play a video file at FACTOR times its own pace (1: as if live; default: as "
                      "fast as it is read)")
    add_old_spelling(parser, "--realtime", "speed", constant=1.0)
    parser.add_argument("--start", type=float, default=0.0, metavar="SECONDS",
                        help="play a video file from this many seconds in (the rest of a game)")
    add_events(parser)
    parser.add_argument("--first-mover", choices=("auto", "dark", "light"),
                        help="who moves first (default: the profile's, else inferred from the first move)")
    add_profile_argument(parser)
    add_rules_arguments(parser)
    parser.set_defaults(func=run)


def add_live_arguments(parser: argparse.ArgumentParser) -> None:
    add_board(parser)
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=5000, help="port (default 5000)")
    parser.add_argument("--token", help=f"referee token (or ${TOKEN_ENV}; default: a new random one)")


def add_profile_argument(parser: argparse.ArgumentParser) -> None:
    add_board_profile(parser, "board profile from makhos calibrate: corners, numbering, lens, piece "
                              "set, rules and first mover (--men, --rules, --first-mover override)")


def rules_and_first_mover(args: argparse.Namespace, profile_path: Path | None
                          ) -> tuple[Rules, Colour | None]:
    """The game's settings: the flags given, else the board profile's (at ``profile_path``),
    else the defaults. A profile that cannot be read stops here."""
    from makhos.calibration.profile import BoardProfile

    profile = BoardProfile.load(profile_path) if profile_path else None
    rules = rules_from_args(args) if profile is None or args.men or args.rules else profile.rules
    if args.first_mover is not None:
        return rules, None if args.first_mover == "auto" else Colour(args.first_mover)
    return rules, profile.first_mover if profile is not None else None


def referee_token(args: argparse.Namespace) -> str:
    return args.token or os.environ.get(TOKEN_ENV) or secrets.token_urlsafe(8)


def print_urls(live: LiveRun, token: str) -> None:
    board = live.plan.board
    lines = [f"  live board       {live.url}/board/{board}",
             f"  hall             {live.url}/",
             f"  referee console  {live.url}/referee/{board}?token={token}  (alerts, camera view)",
             f"  PDN              {live.url}/api/board/{board}/pdn"]
    if live.desk is not None:
        lines.append(f"  calibration      {live.url}/referee/{board}/calibration?token={token}")
    print("\n".join(lines + ["Press Ctrl-C to stop."]), flush=True)


def serve_until_interrupted(live: LiveRun, command: str = "run") -> int:
    """Serve until Ctrl-C (0), or until the camera loop fails (1, its reason said)."""
    try:
        live.start()
        while not live.stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        print("stopping", file=sys.stderr)
    finally:
        live.close()
    if live.failed is not None:
        print(f"makhos {command}: {live.failed}", file=sys.stderr)
        return 1
    return 0


def run(args: argparse.Namespace) -> int:
    from makhos.vision.sources import SourceError

    token = referee_token(args)
    rules, first_mover = rules_and_first_mover(args, args.board_profile)
    live = LiveRun(LiveBoard(
        source=args.source, board=args.board, events=args.events, rules=rules,
        first_mover=first_mover, token=token, host=args.host, port=args.port,
        speed=args.speed, profile=args.board_profile, start=args.start))
    print(f"makhos run: watching {live.worker.source.describe()}")
    try:
        resumed = live.resumed()
    except SourceError as error:
        live.close()
        raise ValueError(str(error)) from None
    if resumed is not None:
        print(f"makhos run: {resumed}", flush=True)
    print_urls(live, token)
    return serve_until_interrupted(live)
