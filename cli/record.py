"""``makhos record --source VIDEO``: a whole video file to a PDN and an event log."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from makhos.engine import Colour
from makhos.engine.pdn import Numbering
from makhos.events import GameEvent

if TYPE_CHECKING:
    from makhos.session.review import ReviewCamera

from .flags import add_board, add_events, add_output, add_source, source_of
from .progress import Progress
from .rules_args import add_rules_arguments, rules_from_args


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "record",
        help="record a game from a video file to PDN",
        description="Read a video of a game, referee it, and write the PDN and the event log.",
        epilog="examples:\n  makhos record --source game.mp4 -o game.pdn\n"
        "  makhos record --source game.mp4 --events events.jsonl --first-mover dark --men 12\n"
        "  makhos record --source game.mp4 --events events.jsonl --resume --start 95  # the rest of a game",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_source(parser, help="video file (any format OpenCV's FFmpeg reads)", old_positional="video")
    add_output(parser, "PDN file to write (default: the video's name with .pdn)")
    add_events(parser, default=None, help="also write the events to this log: JSON lines when it "
                                          "ends .jsonl, else SQLite")
    parser.add_argument("--resume", action="store_true",
                        help="take up the game of the --events log where it ends, and add to it")
    parser.add_argument("--start", type=float, default=0.0, metavar="SECONDS",
                        help="read the video from this many seconds in")
    parser.add_argument("--first-mover", choices=("auto", "dark", "light"), default="auto",
                        help="who moves first (default: inferred from the first move)")
    parser.add_argument("--numbering", choices=[n.value for n in Numbering],
                        default=Numbering.FIRST_MOVER.value,
                        help="squares in the PDN: 'first mover' (the rules': the first mover "
                        "starts on 25-32, default) or 'colour' (dark on 25-32 always)")
    parser.add_argument("--report", type=Path, metavar="HTML",
                        help="also write a review report: each ply beside the camera's picture of "
                        "it (pictures in HTML_files/ beside it)")
    add_board(parser, help="board id in the events (default 1)")
    parser.add_argument("--model", type=Path, help=argparse.SUPPRESS)  # default: the bundled one
    add_rules_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """The video through the one camera loop (:class:`worker.loop.Worker`), as a camera of the
    hall would be, into a log that is written as it goes: a killed record loses nothing."""
    import threading

    from makhos.events import open_log
    from makhos.session import BoardSession
    from makhos.session.diagnosis import Diagnosis, held_up
    from makhos.session.review import ReviewCamera
    from makhos.vision.classifier import model_path
    from makhos.vision.sources import SourceError
    from makhos.worker.inputs import CameraInput
    from makhos.worker.loop import Worker, WorkerConfig

    video = source_of(args)
    if not video.exists():
        raise FileNotFoundError(f"no video {video}")
    if args.resume and (args.events is None or not args.events.is_file()):
        raise FileNotFoundError("--resume takes up the game of an --events log: give one that exists")
    if not args.resume and args.events is not None and args.events.suffix != ".jsonl" \
            and args.events.exists():
        raise ValueError(f"{args.events} exists: give --resume to add to its game, or another --events")
    model = model_path(args.model) if args.model is not None else None  # checked before any work
    first = None if args.first_mover == "auto" else Colour(args.first_mover)
    log = open_log(args.events if args.events is not None else ":memory:", fresh=not args.resume)
    if args.resume and log.boards() and args.board not in log.boards():
        raise ValueError(f"{args.events} holds no game of board {args.board} (it holds "
                         f"{', '.join(log.boards())}): give its --board")
    # Beside the log, the events accepted and not yet written: a killed record loses none of
    # them, and ``--resume`` writes them first.
    spool = None if args.events is None else args.events.with_name(args.events.name + ".outbox")
    if spool is not None and not args.resume:
        spool.unlink(missing_ok=True)  # a new recording: an old one's leftovers are not its
    diagnosis = Diagnosis(frame_rate=frame_rate(video))
    review = ReviewCamera() if args.report is not None else None

    def observe(session: BoardSession) -> None:
        counted = diagnosis.frames
        if session.last is not None:
            diagnosis.observe(session.last)
        if review is not None:
            review.observe(session)
        progress.update(diagnosis.frames - counted)  # the bar below, made once the frames to come are known

    # No referee watches a recording: of several lines through a gap, the likeliest is taken.
    config = WorkerConfig(board=args.board, rules=rules_from_args(args), first_mover=first,
                          offline=True, spool=spool)
    camera = CameraInput(str(video), model=model, start=args.start)
    worker = Worker(config, log, camera, observe)
    stop = threading.Event()
    try:
        worker.start_session(stop)
    except SourceError as error:
        raise ValueError(str(error)) from None
    session = worker.session
    assert session is not None and isinstance(worker.source, CameraInput)  # start_session made it
    resumed = session.resumed(args.start)
    if resumed is not None:
        print(f"makhos record: {resumed}", flush=True)
    total = frames_from(video, worker.source.begin)  # a resumed record reads from the log's end
    with Progress(total, "frames", enabled=sys.stderr.isatty()) as progress:
        try:
            worker.run(stop)
        except SourceError as error:
            raise ValueError(str(error)) from None
    pdn = session.pdn({"Event": video.stem}, Numbering(args.numbering))
    game = session.tracker.game
    plies = len(game.plies) if game is not None else 0
    why = diagnosis.explain(game is not None, plies, total if total > 0 else None)
    if pdn is None:
        unstarted = session.unstarted.reason  # what the log was told: why the set-up was not read
        print(f"makhos record: no game found in {video}: " + "; ".join(why + ([unstarted] if unstarted else [])),
              file=sys.stderr)
        return 1
    stopped = held_up(session.tracker.logged_game)
    for line in why + ([stopped] if stopped else []):
        print(f"makhos record: {video}: {line}", file=sys.stderr)
    output = args.output or video.with_suffix(".pdn")
    output.write_text(pdn, encoding="utf-8")
    events = log.read_board(args.board)
    alerts = sum(1 for e in events if e.kind.value in ("irregularity", "board_mismatch"))
    print(f"{output}: {plies} plies, {alerts} alert(s)")
    if review is not None:
        write_review(args.report, pdn, events, args.board, review, video, Numbering(args.numbering))
        print(f"{args.report}: the review report")
    return 0


def frame_rate(video: Path) -> float | None:
    """The frames a second a video's header announces (None when it announces none)."""
    import cv2

    capture = cv2.VideoCapture(str(video))
    try:
        return capture.get(cv2.CAP_PROP_FPS) or None
    finally:
        capture.release()


def frames_from(video: Path, second: float) -> int:
    """The frames a video's header announces from ``second`` on (0 when it announces none)."""
    import cv2

    capture = cv2.VideoCapture(str(video))
    try:
        fps = capture.get(cv2.CAP_PROP_FPS) or 30.0
        return max(int(capture.get(cv2.CAP_PROP_FRAME_COUNT)) - round(second * fps), 0)
    finally:
        capture.release()


def write_review(path: Path, pdn: str, events: list[GameEvent], board: str, review: ReviewCamera,
                 video: Path, numbering: Numbering) -> None:
    """The report of what the camera kept, beside the PDN."""
    from makhos.server.report import Camera, write_report

    review.finish()
    camera = Camera(review.pictures, review.stretches, review.share_read)
    write_report(path, pdn, events, board, camera, video, numbering)
