"""``makhos read --source IMAGE``: the board in one photograph, as text or JSON."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from .flags import add_board_profile, add_source, source_of


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "read",
        help="read the board in one image",
        description="Find the board in an image and print what stands on each square, as 8 rows "
                    "of 8 characters in the board's own frame (row 0 along the edge from the first "
                    "corner to the second): '.' empty or unplayed, 'l'/'d' light/dark man, "
                    "'L'/'D' light/dark king.",
        epilog="examples:\n  makhos read --source board.jpg\n  makhos read --source board.jpg --json\n"
               "  makhos read --source board.jpg --board-profile board1.json   # as makhos calibrate set it up",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_source(parser, help="a photograph of the board (JPEG, PNG, ...)", old_positional="image")
    parser.add_argument("--json", action="store_true",
                        help='print {"corners", "grid", "confidence", "played_colour"}')
    add_board_profile(parser, "board profile from makhos calibrate (the same camera): its corners "
                              "(refitted if the board moved a little), lens, squares in play, "
                              "numbering and piece set, instead of finding them from the pieces")
    parser.add_argument("--model", type=Path, help=argparse.SUPPRESS)  # default: the bundled one
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from makhos.calibration.reader import read_photograph, square_reader
    from makhos.vision.classifier import model_path
    from makhos.vision.photo import read_photo
    from makhos.vision.reading import LABELS
    from makhos.vision.rectify import played_cells
    from makhos.vision.sources import SourceError, read_image

    source = source_of(args)
    profile = None
    if args.board_profile is not None:
        from makhos.calibration.profile import BoardProfile

        profile = BoardProfile.load(args.board_profile)  # a bad profile stops before any work
    model = model_path(args.model) if args.model is not None else None  # checked before any work
    try:
        image = read_image(source)
    except SourceError as error:
        raise ValueError(str(error)) from None
    if profile is not None:
        location, probabilities = read_photograph(profile, args.board_profile, image, model_path(model))
        played = profile.played
    else:
        # A lone photograph teaches nothing: the piece reader reads it zero-shot.
        photo = read_photo(square_reader(model=model), image)
        if photo is None:
            raise ValueError(f"no board found in {source}: is the whole board in view?")
        location, played = photo.orientation.location, photo.orientation.played
        probabilities = photo.probabilities
    labels = probabilities.argmax(axis=1)
    grid = [["."] * 8 for _ in range(8)]
    for (row, col), label in zip(played_cells(played), labels):
        grid[row][col] = LABELS[label]
    rows = ["".join(row) for row in grid]
    if args.json:
        print(json.dumps({"corners": [[round(float(x), 1), round(float(y), 1)] for x, y in location.corners],
                          "grid": rows, "confidence": round(float(location.confidence), 3),
                          "played_colour": played}))
    else:
        print("\n".join(rows))
    return 0
