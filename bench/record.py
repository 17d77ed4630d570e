"""Record synthetic game videos end to end and compare with their truth.

    python -m bench.record --videos 50            # calm camera, held-out palettes, seeds 10000..
    python -m bench.record --videos 3 --plies 12  # a quick look
    python -m bench.record --set stress --videos 60 --folder /work/cache/i20   # hostile cameras
    python -m bench.record --set stress --videos 60 --render-only             # render, no record
    python -m bench.record --set irregular --videos 50 --plies 12 --folder /work/cache/i21
    python -m bench.record --set quarter --videos 16 --plies 10   # any side of the table
    python -m bench.record --set corrections --videos 12 --plies 16 --folder /work/cache/corrections
    python -m bench.record --set corrections --videos 200 --plies 16 --readings  # rules alone

Each video is rendered once into ``--folder`` (with its true PDN, events and, for the
hostile sets, the camera's nuisances beside it), then decoded and recorded through the real
pipeline (BoardReader -> GameTracker) on one core. Prints: games recorded move-perfect,
injected irregularities reported with the right kind, moves recorded that were not played,
the delay from the hand leaving to the move event, and speed as a multiple of real time
(decoding included). For scripts with attempts taken back and chains stopped then answered,
also how many were written right in the recorded PDN. ``--readings`` feeds the same scripts
to the tracker as certain readings (no rendering, no vision): the rules side alone.

Sets: ``calm`` (seeds 10000..: a camera bolted down, 30 fps, OpenCV's writer), ``steady``
(seeds 40000..: the calm camera on games without irregularities, for ``bench/gaps.py``),
``irregular`` (seeds 40000.. too, other games: calm camera, one to three irregularities a game
of every kind of the catalogue in docs/RULES.md, corrected or played on; a third start with
kings), ``tuning``
(seeds 30000..: every nuisance of :mod:`lab.videos.nuisances` drawn at random; the set
looked at while developing), ``quarter`` (seeds 50000..: the camera behind either player or
at either side of the table, a quarter turn by seed mod 4, elevation 35-70 degrees, 12 men a
side in every other group of four), ``corrections`` (seeds 60100..: calm camera, three
irregularities a game, each either an attempt of the catalogue taken back (``{corrected:
...}`` in the score) or a capture chain stopped early and answered at once, with no pause,
a glance's or a second's) and ``stress`` (seeds 20000..: never looked at while tuning).
In the stress set the camera wobble cycles through the table's levels (0, 1, 2, 3 and
5 px at 720p, by seed mod 5), the frame rate through 15, 25, 30 and 60 fps (by seed div 5)
and the codec alternates (MPEG-4 Part 2, H.264, by seed mod 2), so that 50 videos give ten
a cell; everything else is drawn at random per video.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import threading
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any, Callable

import numpy as np

from makhos.engine import Rules, Setup
from makhos.engine import Colour, Piece, Position
from makhos.engine.game import Game
from makhos.engine.pdn import read_game
from makhos.events import EventKind
from makhos.events.details import MovePlayed
from makhos.events.game import MatchGame
from lab.render import sample_scene
from lab.videos import GameScript, script_game
from lab.videos.script import CORRECTIONS, FPS
from lab.videos.nuisances import CODECS, FRAME_RATES, WOBBLE_LEVELS, sample_nuisances
from lab.videos.render import shot_starts, write_video
from makhos.events import GameEvent, SQLiteLog
from makhos.session import BoardSession
from makhos.tracker import GameTracker, TrackerConfig
from makhos.vision.classifier import model_path
from makhos.vision.reading import Reading
from makhos.worker.inputs import CameraInput
from makhos.worker.loop import Worker, WorkerConfig

#: Seconds a chain may rest unfinished before it is called stopped early: a partial chain's
#: report is due only then (TrackerConfig.chain_patience).
PATIENCE_S = TrackerConfig().chain_patience
WINDOW_S = 4.0  # seconds after the truth within which the report must come
FIRST_SEED = {"calm": 10_000, "stress": 20_000, "tuning": 30_000, "steady": 40_000,
              "irregular": 40_000, "quarter": 50_000, "corrections": 60_100}
#: The corrections set draws a chain stopped and answered as often as the seven attempts
#: together: chains of two jumps are rare in a random game, and the stop is waited for.
CORRECTION_KINDS = CORRECTIONS + ("stop and reply",) * 6


def corrections_script(seed: int, plies: int) -> GameScript:
    """A game of the corrections set: three irregularities, every attempt taken back."""
    return script_game(seed, plies=plies, irregularities=3, kinds=CORRECTION_KINDS, corrected=1.0)


def make_video(seed: int, folder: Path, plies: int, kind: str = "calm") -> Path:
    """Render one video of the set ``kind`` (once: an existing file is reused)."""
    path = folder / f"{kind}-{seed}-{plies}.mp4"
    if path.exists() and path.with_suffix(".truth.jsonl").exists():
        return path
    if kind == "irregular":
        # A third of the games start with kings (so a king can land beyond), and each has
        # one to three irregularities, every kind of the catalogue drawn at random.
        rules = Rules(setup=Setup.TWO_KINGS) if seed % 3 == 0 else Rules()
        script = script_game(seed, rules, plies=plies, irregularities=1 + seed // 3 % 3)
        scene = sample_scene(np.random.default_rng(seed), held_out=True, elevation=(35.0, 90.0))
        write_video(script, scene, path, seed=seed)
        return path
    if kind == "corrections":
        scene = sample_scene(np.random.default_rng(seed), held_out=True, elevation=(35.0, 90.0))
        write_video(corrections_script(seed, plies), scene, path, seed=seed)
        return path
    if kind == "quarter":
        # The camera behind either player or at either side of the table (a quarter turn
        # by seed mod 4), low to high, men on either colour; every other game has 12 men.
        k = seed - FIRST_SEED["quarter"]
        rules = Rules(men_per_side=12) if k // 4 % 2 else Rules()
        script = script_game(seed, rules, plies=plies, irregularities=0)
        scene = sample_scene(np.random.default_rng(seed), held_out=True, elevation=(35.0, 70.0),
                             azimuth=(k % 4) * np.pi / 2)
        write_video(script, scene, path, seed=seed)
        return path
    if kind in ("calm", "steady"):
        script = script_game(seed, plies=plies, irregularities=2 if kind == "calm" else 0)
        scene = sample_scene(np.random.default_rng(seed), held_out=True, elevation=(35.0, 90.0))
        write_video(script, scene, path, seed=seed)
        return path
    script = script_game(seed, plies=plies, irregularities=0)
    rng = np.random.default_rng([seed, 7])
    duration = float(shot_starts(script)[-1])
    if kind == "stress":
        k = seed - FIRST_SEED["stress"]
        nuisances = sample_nuisances(rng, duration, wobble_px=WOBBLE_LEVELS[k % 5],
                                     fps=FRAME_RATES[(k // 5) % 4], codec=CODECS[k % 2])
    else:
        nuisances = sample_nuisances(rng, duration)
    scene = sample_scene(np.random.default_rng(seed), held_out=True, elevation=(35.0, 90.0),
                         size=nuisances.size)
    write_video(script, scene, path, seed=seed, nuisances=nuisances)
    return path


def video_fps(path: Path) -> float:
    described = path.with_suffix(".nuisances.json")
    return float(json.loads(described.read_text())["fps"]) if described.exists() else 30.0


def record(path: Path, model: Path | None, observer: Callable[[BoardSession], None] | None = None,
           ) -> tuple[BoardSession, list[GameEvent], float, int]:
    """Record one video through the product's one camera loop (as ``makhos record`` does);
    the seconds of CPU it took, decoding included (a shared machine's wall clock says more
    about the neighbours than about us), and the video's frames. ``observer`` sees the
    session after each frame the source hands on (it passes over frames the vision would
    not look at, ``vision.sources.VideoFile``'s ``pace``)."""
    import cv2

    capture = cv2.VideoCapture(str(path))
    frames = int(capture.get(cv2.CAP_PROP_FRAME_COUNT))
    capture.release()
    log = SQLiteLog()
    worker = Worker(WorkerConfig(board="bench"), log, CameraInput(str(path), model=model), observer)
    start = time.process_time()
    worker.run(threading.Event())
    seconds = time.process_time() - start
    assert worker.session is not None  # run() started it
    return worker.session, log.read_board("bench"), seconds, frames


def compare(path: Path, session: BoardSession, events: list[GameEvent]) -> dict[str, Any]:
    truth_game = read_game(path.with_suffix(".pdn").read_text()).game
    truth = [json.loads(line) for line in path.with_suffix(".truth.jsonl").read_text().splitlines()]
    game = session.tracker.game
    perfect = game is not None and game.positions() == truth_game.positions()
    fps = video_fps(path)
    frame_of = {id(e): round(e.time * fps) for e in events}
    reported: dict[str, list[bool]] = {}
    report_delays: list[float] = []
    for t in truth:
        if t["kind"] != "irregularity":
            continue
        due = t["frame"] + (PATIENCE_S * fps if t["rule"] == "partial chain" else 0)
        said = [frame_of[id(e)] for e in events if getattr(e.detail, "rule", None) == t["rule"]
                and t["frame"] - 1 <= frame_of[id(e)] <= due + WINDOW_S * fps]
        reported.setdefault(t["rule"], []).append(bool(said))
        if said:
            report_delays.append(max(0.0, said[0] - due) / fps)
    irregular_plies = sum(p.is_irregular for p in truth_game.plies)
    marked = game is not None and sum(p.is_irregular for p in game.plies) == irregular_plies
    moves = [e for e in events if isinstance(e.detail, MovePlayed) and not e.detail.irregular]
    truth_moves = [t for t in truth if t["kind"] == "move"]
    delays: list[float] = []
    used: set[int] = set()
    for t in truth_moves:
        match = next((e for e in moves if id(e) not in used and e.move == t["move"]
                      and frame_of[id(e)] >= t["frame"] - 1), None)
        if match is not None:
            used.add(id(match))
            delays.append((frame_of[id(match)] - t["frame"]) / fps)
    return {"perfect": perfect, "marked": perfect and marked, "reported": reported,
            "false_moves": len(moves) - len(used), "delays": delays,
            "report_delays": report_delays, "fps": fps,
            **corrections_written(truth, truth_game, session.tracker.logged_game.current)}


def corrections_written(truth: list[dict[str, Any]], truth_game: Game,
                        record: MatchGame) -> dict[str, list[bool]]:
    """Each attempt taken back and each chain stopped then answered, written right or not:
    the attempt read back from the recorded PDN before the ply that followed it; the stopped
    chain as an irregular ply to the true board, then the reply. ``extra``: corrections
    written that nobody made."""
    written = read_game(record.pdn(times=False))
    game = written.game
    attempts = [(index, c.move) for index, cs in written.corrections.items() for c in cs]
    out: dict[str, list[bool]] = {"corrections": [], "stop_and_reply": []}
    plies = 0
    for t in truth:
        if t["kind"] == "corrected" and t["move"]:
            out["corrections"].append((plies, t["move"]) in attempts)
            if (plies, t["move"]) in attempts:
                attempts.remove((plies, t["move"]))
        elif t["kind"] == "stood" and t["rule"] == "partial chain":
            truth_plies = truth_game.plies
            out["stop_and_reply"].append(
                len(game.plies) > plies + 1 and game.plies[plies].is_irregular
                and str(game.plies[plies].move) == t["move"]
                and game.plies[plies].after == truth_plies[plies].after
                and game.plies[plies + 1].move == truth_plies[plies + 1].move)
        plies += {"move": 1, "stood": 1, "takeback": -1}.get(t["kind"], 0)
    return {**out, "extra": [True] * len(attempts)}


def feed_readings(script: GameScript) -> MatchGame:
    """The script's boards to a tracker as certain readings at the script's frame rate (a
    hand shot: its board for the first fifth, nothing while the hand is over the board, the
    board after for the last fifth), each event numbered and read back as a log does."""
    tracker = GameTracker("bench", config=TrackerConfig())
    readings: dict[frozenset[tuple[int, str]], Position] = {}
    seq, frame = 0, 0
    for shot in script.shots:
        for k in range(shot.frames):
            frame += 1
            board = shot.board if not shot.path or k < shot.frames / 5 else (
                shot.after if k >= 4 * shot.frames / 5 else None)
            reading = None
            if board is not None:
                key = frozenset(board.items())
                if key not in readings:
                    pieces = {s: Piece(p) for s, p in board.items()}
                    readings[key] = Position.from_pieces(pieces, Colour.DARK)
                reading = Reading.certain(readings[key], frame / FPS)
            for event in tracker.observe(frame / FPS, reading):
                seq += 1
                tracker.logged(event.with_seq(seq))
    return tracker.logged_game.current


def readings_run(first: int, count: int, plies: int) -> int:
    """``--readings``: the corrections set's scripts as certain readings."""
    right: dict[str, list[bool]] = {"corrections": [], "stop_and_reply": [], "extra": []}
    perfect = 0
    for seed in range(first, first + count):
        script = corrections_script(seed, plies)
        assert script.game is not None
        record = feed_readings(script)
        perfect += record.game.positions() == script.game.positions()
        for key, said in corrections_written([asdict(e) for e in script.events], script.game,
                                             record).items():
            right[key] += said
    print(f"scripts as certain readings (no vision), seeds {first}-{first + count - 1}: "
          f"move-perfect {perfect}/{count}")
    print_corrections(right)
    return 0


def print_corrections(right: dict[str, list[bool]]) -> None:
    print(f"attempts taken back written right: {sum(right['corrections'])}/{len(right['corrections'])}; "
          f"chains stopped then answered written right: {sum(right['stop_and_reply'])}/"
          f"{len(right['stop_and_reply'])}; corrections written that nobody made: {len(right['extra'])}")


def table(title: str, rows: dict[Any, list[bool]], order: list[Any]) -> None:
    print(f"move-perfect games by {title}:")
    for key in order:
        if key in rows:
            good, n = sum(rows[key]), len(rows[key])
            print(f"  {key!s:>6}: {good}/{n} ({100 * good / n:.0f} %)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", choices=tuple(FIRST_SEED), default="calm")
    parser.add_argument("--model", type=Path,
                        help="read with this square classifier file (default: the piece reader, "
                             "adapted on each game's start)")
    parser.add_argument("--videos", type=int, default=50)
    parser.add_argument("--plies", type=int, help="plies a game (default: 24 calm, 3 hostile)")
    parser.add_argument("--first-seed", type=int, help="default: the set's own")
    parser.add_argument("--folder", type=Path, default=Path("data") / "videos")
    parser.add_argument("--render-only", action="store_true", help="render the videos, record none")
    parser.add_argument("--readings", action="store_true",
                        help="corrections set: feed the scripts as certain readings, render nothing")
    parser.add_argument("--minutes", type=float,
                        help="start no new video after this many minutes (a shared machine); "
                        "the figures then cover the videos done, and say how many")
    args = parser.parse_args()
    plies = args.plies or (24 if args.set in ("calm", "steady") else 3)
    first = FIRST_SEED[args.set] if args.first_seed is None else args.first_seed
    if args.readings:
        if args.set != "corrections":
            parser.error("--readings goes with --set corrections")
        return readings_run(first, args.videos, plies)
    if args.render_only:
        for k in range(args.videos):
            print(make_video(first + k, args.folder, plies, args.set), flush=True)
        return 0
    import cv2

    cv2.setNumThreads(1)
    model = model_path(args.model) if args.model is not None else None  # None: the piece reader
    totals = {"perfect": 0, "marked": 0, "false_moves": 0}
    reported: dict[str, list[bool]] = {}
    written: dict[str, list[bool]] = {"corrections": [], "stop_and_reply": [], "extra": []}
    delays, report_delays, busy, frames = [], [], 0.0, 0
    # Keyed by the nuisance's value as the video's description holds it (px, codec name, fps).
    by_wobble: dict[float, list[bool]] = {}
    by_codec: dict[str, list[bool]] = {}
    by_fps: dict[float, list[bool]] = {}
    speed_720p30 = [0.0, 0]  # CPU seconds, video seconds
    stop = time.monotonic() + 60 * args.minutes if args.minutes else np.inf
    n = 0
    for k in range(args.videos):
        if time.monotonic() > stop:
            print(f"out of time after {n} of {args.videos} videos", flush=True)
            break
        seed = first + k
        path = make_video(seed, args.folder, plies, args.set)
        session, events, seconds, count = record(path, model)
        n += 1
        result = compare(path, session, events)
        busy += seconds
        frames += count
        delays += result.pop("delays")
        report_delays += result.pop("report_delays")
        for key in totals:
            totals[key] += int(result[key])
        for rule, said in result["reported"].items():
            reported.setdefault(rule, []).extend(said)
        for key in written:
            written[key] += result[key]
        described = path.with_suffix(".nuisances.json")
        nz = json.loads(described.read_text()) if described.exists() else None
        if nz is not None:
            by_wobble.setdefault(nz["wobble_px"], []).append(result["perfect"])
            by_codec.setdefault(nz["codec"], []).append(result["perfect"])
            by_fps.setdefault(nz["fps"], []).append(result["perfect"])
            if tuple(nz["size"]) == (1280, 720) and nz["fps"] == 30.0:
                speed_720p30[0] += seconds
                speed_720p30[1] += count / 30.0
        tag = "" if nz is None else (f" [{nz['size'][0]}x{nz['size'][1]} {nz['fps']:.0f} fps "
                                     f"{nz['codec']} wobble {nz['wobble_px']:.1f} px]")
        said = [f"{rule} {sum(v)}/{len(v)}" for rule, v in result["reported"].items()]
        print(f"{path.name}: perfect={result['perfect']} irregular plies marked={result['marked']} "
              f"irregularities [{', '.join(said)}] false moves {result['false_moves']} corrections "
              f"{sum(result['corrections'])}/{len(result['corrections'])} stopped chains "
              f"{sum(result['stop_and_reply'])}/{len(result['stop_and_reply'])}{tag}", flush=True)
    print(f"games move-perfect: {totals['perfect']}/{n} ({100 * totals['perfect'] / n:.1f} %)")
    print(f"games recorded to their end with every irregular ply marked: {totals['marked']}/{n}")
    right = sum(sum(v) for v in reported.values())
    print(f"injected irregularities reported with the right kind: {right}/"
          f"{sum(len(v) for v in reported.values())}")
    for rule in sorted(reported):
        print(f"  {rule:>20}: {sum(reported[rule])}/{len(reported[rule])}")
    if report_delays:
        frames_30 = 30 * np.asarray(report_delays)
        print(f"delay board settled -> irregularity reported: median {np.median(frames_30):.1f}, "
              f"p95 {np.percentile(frames_30, 95):.1f} frames at 30 fps (a partial chain counted "
              f"from the end of its {PATIENCE_S:.0f} s patience)")
    print(f"moves recorded that were not played: {totals['false_moves']}")
    if any(written.values()):
        print_corrections(written)
    if delays:
        ms = 1000 * np.asarray(delays)
        print(f"delay hand-leaves -> move event: median {np.median(ms):.0f} ms, p95 "
              f"{np.percentile(ms, 95):.0f} ms (= {np.percentile(ms, 95) * 30 / 1000:.1f} frames at 30 fps)")
    if by_wobble:
        table("camera wobble (px at 720p)", by_wobble, sorted(by_wobble))
        table("codec", by_codec, sorted(by_codec))
        table("frame rate", by_fps, sorted(by_fps))
    print(f"speed: {frames / busy:.0f} frames/s of CPU (decoding included, one core); "
          f"peak memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")
    if speed_720p30[0] > 0:
        print(f"makhos record speed on 720p30: {speed_720p30[1] / speed_720p30[0]:.1f}x real time "
              f"(decoding included, one core, CPU time)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
