"""Record synthetic game videos end to end and compare with their truth.

    python bench/record.py --videos 50            # held-out palettes, seeds 10000..
    python bench/record.py --videos 3 --plies 12  # a quick look

Each video is rendered once into data/videos/ (with its true PDN and events beside it),
then decoded and recorded through the real pipeline (BoardReader -> GameTracker) on one
core. Prints: games recorded move-perfect, injected irregularities reported with the right
kind, moves recorded that were not played, the delay from the hand leaving to the move
event (frames at 30 fps), and speed as a multiple of real time.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.pdn import read_game  # noqa: E402
from events import EventKind  # noqa: E402
from events.details import MovePlayed  # noqa: E402
from models.render import sample_scene  # noqa: E402
from models.videos import script_game  # noqa: E402
from models.videos.render import write_video  # noqa: E402
from models.videos.script import FPS  # noqa: E402
from recorder import BoardSession  # noqa: E402
from tracker import GameTracker  # noqa: E402
from vision.classifier import SquareClassifier  # noqa: E402
from vision.pipeline import BoardReader  # noqa: E402
from vision.sources import VideoFile  # noqa: E402

#: How the tracker reports each injected irregularity: (event kind, rule or None).
EXPECTED = {
    ("irregularity", "missed capture"): (EventKind.IRREGULARITY, "missed capture"),
    ("irregularity", "wrong side"): (EventKind.IRREGULARITY, "wrong side"),
    ("mismatch", "illegal move"): (EventKind.BOARD_MISMATCH, None),
    ("mismatch", "pieces"): (EventKind.BOARD_MISMATCH, None),
    ("takeback", None): (EventKind.TAKEBACK, None),
}
WINDOW = 4 * FPS  # frames after the truth within which the report must come


def make_video(seed: int, folder: Path, plies: int) -> Path:
    path = folder / f"game-{seed}-{plies}.mp4"
    if not path.exists():
        script = script_game(seed, plies=plies, irregularities=2)
        scene = sample_scene(np.random.default_rng(seed), held_out=True, elevation=(35.0, 90.0))
        write_video(script, scene, path, seed=seed)
    return path


def record(path: Path, classifier: SquareClassifier) -> tuple[BoardSession, list, float, int]:
    session = BoardSession(BoardReader(classifier), GameTracker("bench"))
    events, frames, busy = [], 0, 0.0
    for frame in VideoFile(path):
        start = time.perf_counter()
        events += session.feed(frame.image, frame.timestamp)
        busy += time.perf_counter() - start
        frames += 1
    return session, events, busy, frames


def compare(path: Path, session: BoardSession, events: list) -> dict:
    truth_game = read_game(path.with_suffix(".pdn").read_text()).game
    truth = [json.loads(line) for line in path.with_suffix(".truth.jsonl").read_text().splitlines()]
    game = session.tracker.game
    perfect = game is not None and game.positions() == truth_game.positions()
    frame_of = {id(e): round(e.time * FPS) for e in events}
    reported, injected = 0, 0
    for t in truth:
        key = (t["kind"], t["rule"])
        if key not in EXPECTED:
            continue
        injected += 1
        kind, rule = EXPECTED[key]
        if any(e.kind is kind and (rule is None or getattr(e.detail, "rule", None) == rule)
               and t["frame"] <= frame_of[id(e)] <= t["frame"] + WINDOW for e in events):
            reported += 1
    moves = [e for e in events if isinstance(e.detail, MovePlayed) and not e.detail.irregular]
    truth_moves = [t for t in truth if t["kind"] == "move"]
    delays, used = [], set()
    for t in truth_moves:
        match = next((e for e in moves if id(e) not in used and e.move == t["move"]
                      and frame_of[id(e)] >= t["frame"] - 1), None)
        if match is not None:
            used.add(id(match))
            delays.append(frame_of[id(match)] - t["frame"])
    return {"perfect": perfect, "injected": injected, "reported": reported,
            "false_moves": len(moves) - len(used), "delays": delays}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--videos", type=int, default=50)
    parser.add_argument("--plies", type=int, default=24)
    parser.add_argument("--first-seed", type=int, default=10_000)
    parser.add_argument("--folder", type=Path, default=ROOT / "data" / "videos")
    args = parser.parse_args()
    classifier = SquareClassifier()
    totals = {"perfect": 0, "injected": 0, "reported": 0, "false_moves": 0}
    delays, busy, frames = [], 0.0, 0
    for k in range(args.videos):
        seed = args.first_seed + k
        path = make_video(seed, args.folder, args.plies)
        session, events, seconds, count = record(path, classifier)
        result = compare(path, session, events)
        busy += seconds
        frames += count
        delays += result.pop("delays")
        for key in totals:
            totals[key] += int(result[key])
        print(f"{path.name}: perfect={result['perfect']} irregularities {result['reported']}/"
              f"{result['injected']} false moves {result['false_moves']}", flush=True)
    n = args.videos
    print(f"games move-perfect: {totals['perfect']}/{n} ({100 * totals['perfect'] / n:.1f} %)")
    print(f"injected irregularities reported with the right kind: {totals['reported']}/{totals['injected']}")
    print(f"moves recorded that were not played: {totals['false_moves']}")
    if delays:
        print(f"delay hand-leaves -> move event: median {np.median(delays):.0f}, "
              f"p95 {np.percentile(delays, 95):.0f} frames at {FPS} fps")
    print(f"speed: {frames / busy:.0f} frames/s = {frames / busy / FPS:.1f}x real time "
          f"(one core, excluding decoding); peak memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
