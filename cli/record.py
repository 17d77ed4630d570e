"""``makhos record VIDEO``: a whole video file to a PDN and an event log."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine import Colour
from engine.pdn import Numbering

from .progress import Progress
from .rules_args import add_rules_arguments, rules_from_args


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "record",
        help="record a game from a video file to PDN",
        description="Read a video of a game, referee it, and write the PDN and the event log.",
        epilog="examples:\n  makhos record game.mp4 -o game.pdn\n"
        "  makhos record game.mp4 --events events.jsonl --first-mover dark --men 12\n"
        "  makhos record game.mp4 --events events.jsonl --resume --start 95  # the rest of a game",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("video", type=Path, help="video file (any format OpenCV's FFmpeg reads)")
    parser.add_argument("-o", "--output", type=Path, help="PDN file to write (default: VIDEO.pdn)")
    parser.add_argument("--events", type=Path, help="also write the events as JSON lines")
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
    parser.add_argument("--board", default="board-1", help="board id in the events")
    parser.add_argument("--model", type=Path, help=argparse.SUPPRESS)  # default: the bundled one
    add_rules_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import cv2

    from events import GameEvent, SQLiteLog
    from recorder import BoardSession
    from recorder.diagnosis import Diagnosis, held_up
    from tracker import GameTracker, TrackerConfig
    from vision.classifier import SquareClassifier, model_path
    from vision.pipeline import BoardReader
    from vision.sources import SourceError, VideoFile

    if not args.video.exists():
        raise FileNotFoundError(f"no video {args.video}")
    if args.resume and (args.events is None or not args.events.is_file()):
        raise FileNotFoundError("--resume takes up the game of an --events log: give one that exists")
    model = model_path(args.model)
    rules = rules_from_args(args)
    first = None if args.first_mover == "auto" else Colour(args.first_mover)
    # No referee watches a recording: of several lines through a gap, the likeliest is taken.
    tracker = GameTracker(args.board, rules, TrackerConfig(first_mover=first, offline=True))
    log = SQLiteLog()
    history = []
    if args.resume:
        lines = args.events.read_text(encoding="utf-8").splitlines()
        history = [log.append(GameEvent.from_json(line)) for line in lines if line.strip()]
        tracker.restore(e for e in history if e.board == args.board)
    session = BoardSession(BoardReader(SquareClassifier(model)), tracker, log)
    resumed = session.resumed(args.start)
    if resumed is not None:
        print(f"makhos record: {resumed}", flush=True)
    events = []
    capture = cv2.VideoCapture(str(args.video))
    skipped = round(args.start * (capture.get(cv2.CAP_PROP_FPS) or 30.0))
    total = int(capture.get(cv2.CAP_PROP_FRAME_COUNT)) - skipped
    diagnosis = Diagnosis()
    try:
        with Progress(total, "frames", enabled=sys.stderr.isatty()) as progress:
            for frame in VideoFile(args.video, start=args.start):
                events += session.feed(frame.image, frame.timestamp)
                if session.last is not None:
                    diagnosis.observe(session.last)
                progress.update(1)
    except SourceError as error:
        raise ValueError(str(error)) from None
    pdn = session.pdn({"Event": args.video.stem}, Numbering(args.numbering))
    game = session.tracker.game
    why = diagnosis.explain(game is not None, len(game.plies) if game is not None else 0,
                            total if total > 0 else None)
    if pdn is None:
        print(f"makhos record: no game found in {args.video}: " + "; ".join(why),
              file=sys.stderr)
        return 1
    stopped = held_up(session.tracker.record)
    for line in why + ([stopped] if stopped else []):
        print(f"makhos record: {args.video}: {line}", file=sys.stderr)
    output = args.output or args.video.with_suffix(".pdn")
    output.write_text(pdn, encoding="utf-8")
    if args.events:
        args.events.write_text("".join(e.to_json() + "\n" for e in history + events), encoding="utf-8")
    alerts = sum(1 for e in events if e.kind.value in ("irregularity", "board_mismatch"))
    game = session.tracker.game
    plies = len(game.plies) if game is not None else 0
    print(f"{output}: {plies} plies, {alerts} alert(s)")
    return 0
