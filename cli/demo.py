"""``makhos demo``: the bundled sample video through the whole pipeline to the live page."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any
import urllib.request
from pathlib import Path

from .. import models
from .live import LiveBoard, LiveRun
from .run import (add_live_arguments, add_profile_argument, print_urls, referee_token,
                  serve_until_interrupted)

SAMPLE = models.path(models.SAMPLE_VIDEO)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "demo",
        help="play the bundled sample game through the pipeline to the live page",
        description="Play a synthetic game video (made by the project's renderer) as if it were a "
                    "live camera: board finding, square reading, refereeing, the event log and the "
                    "live page. No webcam, Redis or internet needed.",
        epilog="examples:\n  makhos demo                 # then open the printed URL\n"
               "  makhos demo --port 5001\n"
               "  makhos demo --check         # record as fast as possible, check, exit",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_live_arguments(parser)
    add_profile_argument(parser)
    parser.add_argument("--check", action="store_true",
                        help="record the whole sample at full speed, serve one event, compare the "
                             "PDN with the sample's true game, and exit (0 when equal)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if not SAMPLE.exists():
        raise FileNotFoundError(f"sample video missing: {SAMPLE} (make it: python -m lab.videos.sample)")
    token = referee_token(args)
    settings: dict[str, Any] = {}
    if args.board_profile is not None:
        from makhos.calibration.profile import BoardProfile

        profile = BoardProfile.load(args.board_profile)
        settings = {"rules": profile.rules, "first_mover": profile.first_mover}
    live = LiveRun(LiveBoard(source=str(SAMPLE), board=args.board, token=token, host=args.host,
                             port=args.port, speed=None if args.check else 1.0,
                             profile=args.board_profile,
                             **settings))
    if args.check:
        return check(live)
    print("makhos demo: a 35-second sample game, played as if live. Look at:\n"
          "  - the board page: moves appear as the hand leaves the board; at about 0:12 light\n"
          "    moves twice (an irregularity) and puts the piece back;\n"
          "  - the referee console: the alert (with a beep), then 'corrected'; the camera view\n"
          "    with the detected grid and what was read on each square.")
    print_urls(live, token)
    return serve_until_interrupted(live, "demo")


def check(live: LiveRun) -> int:
    """Record the sample, read one event back over HTTP, compare with the true game."""
    from makhos.engine.pdn import read_game

    board = live.plan.board
    try:
        live.start()
        if not live.wait_recorded(timeout=600):
            print("makhos demo --check: recording did not finish in 10 minutes", file=sys.stderr)
            return 1
        if live.failed is not None:
            print(f"makhos demo --check: {live.failed}", file=sys.stderr)
            return 1
        event = first_event(f"{live.url}/api/board/{board}/events")
        recorded = read_game(urllib.request.urlopen(f"{live.url}/api/board/{board}/pdn", timeout=10)
                             .read().decode())
        truth = read_game(SAMPLE.with_suffix(".pdn").read_text(encoding="utf-8"))
    finally:
        live.close()
    same = recorded.game.positions() == truth.game.positions()
    print(f"makhos demo --check: served event {event['kind']!r}; recorded "
          f"{len(recorded.game.plies)} plies, true game {len(truth.game.plies)}: "
          f"{'the same game' if same else 'DIFFERENT'}")
    return 0 if same else 1


def first_event(url: str) -> dict[str, Any]:
    """The first event of the board's SSE stream (each message: ``{"event": ..., "state": ...}``)."""
    with urllib.request.urlopen(url, timeout=10) as stream:
        for raw in stream:
            line = raw.decode().strip()
            if line.startswith("data:"):
                event: dict[str, Any] = json.loads(line[5:])["event"]
                return event
    raise ValueError(f"{url} closed before sending an event")
