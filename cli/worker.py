"""``makhos worker``: one camera of a tournament hall (or several: ``worker.boards``), each
board's events into the hall's log.

Workers talk only to the log. With Redis, the Redis password *is* the hall's credential
(the per-hall token): give it in the URL or, to keep it out of ``ps``, with ``--hall-token``
or ``$MAKHOS_HALL_TOKEN``. (``--token`` is the referee token of ``serve``, ``run`` and
``demo``; a worker has no referee console.) A worker listens on no port at all.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from makhos.events import open_log

from .flags import add_board, add_board_profile, add_events, add_hall_profile, add_source, add_speed
from .rules_args import add_rules_arguments

if TYPE_CHECKING:
    from makhos.session import BoardSession
    from makhos.session.annotate import CameraView
    from makhos.vision.networks import Networks
    from makhos.worker.boards import Board

TOKEN_ENV = "MAKHOS_HALL_TOKEN"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "worker",
        help="watch one board of a hall (or several) and append its events to the hall's log",
        description="Read one board's camera (or replay a recorded game), referee it and append "
                    "the events to the log: SQLite by default, Redis Streams with --redis. "
                    "A restarted worker resumes the game from the log. Several --board watch "
                    "several cameras in one process (sources from --hall-profile), sharing "
                    "the reading networks; a board that fails leaves the others running.",
        epilog="examples:\n  makhos worker --source 0 --board 1\n"
               "  makhos worker --source rtsp://10.0.0.21/stream --board 7 --redis redis://10.0.0.2/0\n"
               f"  {TOKEN_ENV}=S makhos worker --hall-profile hall.json --board 7 --redis redis://10.0.0.2/0\n"
               "  makhos worker --hall-profile hall.json --board 1 --board 2 --board 3\n"
               "  makhos worker --source 0 --board 1 --board-profile board1.json\n"
               "  makhos worker --source 0 --board 1 --frames frames/   # makhos serve --frames frames/\n"
               "  makhos worker --source replay:game.pdn --speed 20 --board 3 --redis redis://127.0.0.1/0",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    # Required: a hall has many boards, and a worker that guessed would write into another's log.
    add_board(parser, help="board id (as in the hall profile); once per board that this "
                           "process watches", required=True, many=True)
    add_source(parser, required=False,
               help="webcam index, video file, image folder, camera URL, or replay:GAME.pdn "
                    "(default: the board's source in --hall-profile)")
    add_hall_profile(parser, "hall profile JSON (boards: sources, players, board profiles)", old="--profile")
    add_board_profile(parser, "this camera's board profile from makhos calibrate (default: the "
                              "board's \"profile\" in --hall-profile): corners, numbering, lens, piece "
                              "set, rules and first mover (--men, --rules, --first-mover override)",
                      old=None)
    parser.add_argument("--redis", metavar="URL", help="redis://[:password@]host:port/db (default: "
                                                       "the SQLite file of --events)")
    add_events(parser)
    parser.add_argument("--hall-token", help=f"hall token = the Redis password (or ${TOKEN_ENV})")
    parser.add_argument("--token", help=argparse.SUPPRESS)  # only to say where it went
    add_speed(parser, "play a replay at FACTOR times the game's pace (default 1), or a video "
                      "file at FACTOR times its own (default: as fast as it is read)")
    parser.add_argument("--ply-seconds", type=float, default=10.0,
                        help="game seconds per ply of a replay (default 10)")
    parser.add_argument("--start", type=float, default=0.0, metavar="SECONDS",
                        help="read a video file from this many seconds in (a restarted worker "
                             "takes its video up where the log ends by itself)")
    parser.add_argument("--frames", type=Path, metavar="FOLDER",
                        help="keep the camera's pictures in FOLDER, which makhos serve --frames "
                             "reads: <board>.jpg, the annotated camera view (referee console), and "
                             "the rectified board at each ply of each game (the review report; the "
                             "board page's picture where the hall profile turns it on), whole games "
                             "pruned, the oldest first, beyond 48 MB a board")
    parser.add_argument("--outbox", type=Path, metavar="FILE",
                        help="events the log has not taken yet, kept on disk and sent by the "
                             "next run (default: makhos-outbox-BOARD.jsonl here)")
    parser.add_argument("--first-mover", choices=("auto", "dark", "light"),
                        help="who moves first (default: the board profile's, else inferred from "
                             "the first move)")
    add_rules_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from makhos.events import LogUnavailable
    from makhos.events.store import check_redis_url
    from makhos.vision.networks import Networks
    from makhos.vision.sources import SourceError
    from makhos.worker.boards import watch_boards
    from makhos.worker.loop import EventsHeld

    if args.token is not None:
        raise ValueError("the Redis password is --hall-token (--token is the "
                         "referee token of serve, run and demo)")
    target = check_redis_url(args.redis) if args.redis is not None else args.events  # before any other work
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    if (args.speed is not None and args.speed <= 0) or args.ply_seconds <= 0:
        raise ValueError("--speed and --ply-seconds must be positive")
    named = _boards(args)
    networks = Networks()  # loaded once, shared by the boards' threads
    # Several boards: a decoding thread each (the boards keep the cores busy, and each
    # decoding thread holds frames of its own); one board: FFmpeg's choice.
    decoder_threads = 1 if len(named) > 1 else None
    boards = [_board(args, board, target, networks, decoder_threads) for board in named]
    try:
        boards[0].log.boards()  # once: a log never reached is a wrong address, not an outage
    except LogUnavailable as error:
        raise ValueError(f"cannot reach the event log ({error}): is Redis running there, and is "
                         "the URL right? (a worker stops when its log is away at start, and "
                         "waits for it when it goes away later)") from None
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    for board in boards:
        print(f"makhos worker: board {board.config.board} from {board.source.describe()} into "
              f"{'redis' if args.redis else args.events}", flush=True)
    if len(boards) > 1:
        failures = watch_boards(boards, stop)
        for failure in failures:
            print(f"makhos worker: {failure}", file=sys.stderr)
        return 1 if failures else 0
    try:
        boards[0].worker().run(stop)
    except SourceError as error:
        raise ValueError(str(error)) from None
    except (EventsHeld, LogUnavailable) as error:
        stopped = "stopped while waiting for the log" if isinstance(error, LogUnavailable) else "stopped"
        print(f"makhos worker: {stopped}: {error}", file=sys.stderr)
        return 1
    return 0


def _boards(args: argparse.Namespace) -> list[str]:
    """The boards named; with several, each one's camera comes from the hall profile, and
    the flags that name one board's things are refused (which board would they be?)."""
    boards: list[str] = args.board
    if len(boards) == 1:
        return boards
    if args.hall_profile is None:
        raise ValueError("several --board take their sources from --hall-profile")
    for flag, value in (("--source", args.source), ("--board-profile", args.board_profile),
                        ("--outbox", args.outbox), ("--start", args.start or None)):
        if value is not None:
            raise ValueError(f"{flag} is one board's: with several --board, each board's comes "
                             "from --hall-profile (the outbox: makhos-outbox-BOARD.jsonl here)")
    return boards


def _board(args: argparse.Namespace, board: str, target: Path | str, networks: Networks,
           decoder_threads: int | None) -> Board:
    """One board's worker, as the flags and the hall profile set it up; each board has its
    own connection to the log, and reads with the process's networks."""
    from makhos.worker.boards import Board
    from makhos.worker.inputs import open_input
    from makhos.worker.loop import WorkerConfig
    from makhos.worker.profile import BoardPlan, board_plan

    from .run import rules_and_first_mover

    plan = board_plan(args.hall_profile, board) if args.hall_profile else BoardPlan(board)
    spec = args.source or plan.source
    if spec is None:
        raise ValueError(f"no --source, and no source for board {board} in the profile")
    board_profile = args.board_profile or plan.profile
    # Read (and checked) before anything starts: a wrong numbering or colour model must not
    # referee a game, and a worker started in a hall should fail where someone sees it.
    rules, first_mover = rules_and_first_mover(args, board_profile)
    spool = args.outbox or Path(f"makhos-outbox-{board}.jsonl")
    config = WorkerConfig(board=board, rules=rules, players=plan.players, first_mover=first_mover,
                          spool=spool)
    source = open_input(spec, speed=args.speed, seconds_per_ply=args.ply_seconds, profile=board_profile,
                        start=args.start, view=camera_view(args.frames, board), networks=networks,
                        decoder_threads=decoder_threads)
    return Board(config, open_log(target, password=args.hall_token or os.environ.get(TOKEN_ENV)), source,
                 kept_plies(args.frames, board))


def camera_view(frames: Path | None, board: str) -> CameraView | None:
    """The annotated camera view kept in ``frames`` for the referee's console (None: no folder)."""
    if frames is None:
        return None
    from makhos.session.annotate import CameraView

    return CameraView(frames, board)


def kept_plies(frames: Path | None, board: str) -> Callable[[BoardSession], None] | None:
    """The observer that keeps each ply's rectified board in ``frames`` (None: no folder)."""
    if frames is None:
        return None
    from makhos.session.kept import KeptPlies

    return KeptPlies(frames, board).observe
