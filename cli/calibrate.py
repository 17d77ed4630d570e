"""``makhos calibrate --source SOURCE``: the board profile of one camera, in about a minute."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from makhos.engine import Colour

from .flags import add_output, add_source
from .progress import Progress
from .rules_args import add_rules_arguments, rules_from_args

if TYPE_CHECKING:  # the command imports OpenCV and the network only when it runs
    import numpy as np

    from makhos.calibration.profile import BoardProfile


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "calibrate",
        help="make a camera's board profile: lens, corners, numbering, piece set",
        description="Watch the camera while you (1) show it the EMPTY board, tilting or sliding it "
                    "a little for a few seconds, then (2) set up the start position with no hand "
                    "over the board. Writes the board profile: the lens (from the empty board's "
                    "inner corners), the corners, the colour of the squares in play and the "
                    "numbering (from the start position), the rules, and the piece set's "
                    "adaptation (from the start position). Use it with makhos run --board-profile.",
        epilog="examples:\n  makhos calibrate --source 0 -o board1.json\n"
               "  makhos calibrate --source calib_frames/ -o board1.json --men 12\n"
               "  makhos calibrate --source rtsp://10.0.0.21/stream -o board7.json --first-mover dark",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_source(parser)
    add_output(parser, "board profile to write (default profile.json)", default=Path("profile.json"))
    parser.add_argument("--frames", type=int, default=3600,
                        help="stop after this many frames of a camera (default 3600, 2 minutes at 30 fps)")
    parser.add_argument("--views", type=int, default=12,
                        help="distinct empty-board views wanted before stopping (default 12)")
    parser.add_argument("--first-mover", choices=("auto", "dark", "light"), default="auto",
                        help="who moves first at this event (default: inferred from the first move)")
    add_rules_arguments(parser)
    parser.add_argument("--model", type=Path, help=argparse.SUPPRESS)  # default: the bundled one
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from makhos.calibration.calibrator import Calibrator, FrameKind
    from makhos.vision.classifier import model_path
    from makhos.vision.sources import ImageFolder, SourceError, open_source

    model = model_path(args.model)
    calibrator = Calibrator(rules=rules_from_args(args), model=model, views_wanted=args.views,
                            first_mover=None if args.first_mover == "auto" else Colour(args.first_mover))
    source = open_source(args.source)
    total = len(source.paths()) if isinstance(source, ImageFolder) else args.frames
    print(f"makhos calibrate: watching {source.describe()}\n"
          "  1. show the EMPTY board, tilting or sliding it a little\n"
          "  2. set up the start position, hands away", flush=True)
    seen = {kind: 0 for kind in FrameKind}
    try:
        with Progress(total, "frames") as progress:
            for frame in source:
                seen[calibrator.offer(frame.image)] += 1
                progress.update(1)
                if calibrator.done or progress.done >= total:
                    break
    except SourceError as error:
        raise ValueError(str(error)) from None
    print("frames: " + ", ".join(f"{kind.value} {n}" for kind, n in seen.items()))
    profile = calibrator.profile()
    profile.save(args.output)
    describe(profile, args.output)
    return 0


def describe(profile: BoardProfile, path: Path) -> None:
    """What the profile holds, in a few lines a person can check."""
    if profile.camera is None:
        print("lens: not calibrated (no empty board seen); corners are read in the raw image")
    else:
        c = profile.camera
        print(f"lens: {c.views} views, reprojection error {c.rms:.2f} px, focal "
              f"{c.lens.matrix[0, 0]:.0f} px, bend {c.lens.bend:+.3f} (k1; barrel below 0)")
    print(f"board: squares in play {profile.played}, numbering turned {profile.quarter_turns} "
          f"quarter(s) from the corner nearest the image's top-left")
    if profile.adaptation is None:
        print("piece set: not adapted (the start position has no men)")
    else:
        a = profile.adaptation
        print(f"piece set: light {_lab(a.light_colour)}, dark {_lab(a.dark_colour)}; piece bias "
              f"{a.piece_bias:+.2f}, king threshold {a.king_threshold:+.2f} (log-odds)")
    print(f"wrote {path}; use it with: makhos run --source SOURCE --board-profile {path}")


def _lab(colour: np.ndarray) -> str:
    return "Lab(" + ", ".join(f"{v:.0f}" for v in colour) + ")"
