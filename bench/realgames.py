"""What the tracker makes of the real, time-ordered webcam frames of ../shared/realdata.

    python -m bench.realgames

The frames (``julie-robot-webcam/log*/More/my_photo-NN.jpg``) are a few seconds apart, so
each is held for two seconds of "video" (the gate sees a still board) before the next. The
game is the 12-man game on the light squares. Prints, per folder, the events the tracker
raised and the plies it recorded. The frames begin in mid-game, so the first settled reading
is taken as the start, as a referee would confirm it. Skips when ../shared is absent.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from makhos.engine import Rules
from makhos.session import BoardSession
from makhos.tracker import GameTracker
from makhos.vision.classifier import SquareClassifier
from makhos.vision.reading import labels_of
from makhos.vision.pipeline import BoardReader
from makhos.vision.sources import read_image

REAL = ROOT.parent / "shared" / "realdata" / "julie-robot-webcam"
HOLD_FRAMES = 30  # frames per photo, at 15 fps: two seconds still


def photos(folder: Path) -> list[Path]:
    found = [(int(m.group(1)), p) for p in folder.glob("my_photo-*.jpg")
             if (m := re.search(r"my_photo-(\d+)", p.name))]
    return [p for _, p in sorted(found)]


def main() -> int:
    if not REAL.is_dir():
        print(f"skipped: {REAL} is absent")
        return 0
    classifier = SquareClassifier()
    for folder in sorted(REAL.glob("log*/More")):
        frames = photos(folder)
        if len(frames) < 2:
            continue
        session = BoardSession(BoardReader(classifier), GameTracker("real", Rules(men_per_side=12)))
        time, events, seen = 0.0, [], []
        for path in frames:
            image = read_image(path)
            for _ in range(HOLD_FRAMES):
                time += 1 / 15
                events += session.feed(image, time)
                reading = session.last.reading
                if session.tracker.game is None and reading is not None:
                    events += session.tracker.start_from(reading.position(), time)
            reading = session.last.reading if session.last else None
            seen.append(f"{path.name}: {labels_of(reading.probabilities) if reading else 'no reading'}")
        print(f"\n== {folder.relative_to(REAL)}: {len(frames)} photos")
        for line in seen:
            print("  ", line)
        for event in events:
            print(f"   event {event.kind.value}: {event.move or ''} {event.reason or ''}".rstrip())
        game = session.tracker.game
        print(f"   plies recorded: {len(game.plies) if game else 'no game started'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
