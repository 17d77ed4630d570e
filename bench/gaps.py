"""Gaps: a recorder killed and started again, a camera that drops, and the plies nobody saw.

    python -m bench.gaps --videos 20 --folder /work/cache/i25      # every part
    python -m bench.gaps --videos 3 --part restart                  # a quick look
    python -m bench.gaps --part search                              # the search alone

The videos are the ``steady`` set of ``bench/record.py`` (a calm camera, games without
irregularities), rendered into ``--folder`` when missing.

- ``restart``: ``makhos run`` on a video (a real subprocess, as fast as it decodes) is
  killed with SIGKILL once its log has passed a random moment of the game, then started
  again with ``--start`` on the rest of the video, a random 0-30 s after the last event
  its log holds (what a restarted recorder knows; the frames it read after that event
  and lost are part of the gap).
- ``drop``: in this process, a worker watches the video through a source that stalls
  at a random moment (the worker says "camera lost") and comes back 0-30 s of video
  later ("back"), as an unplugged camera does.

A referee answers each gap notice as the console would: the line really played when the
notice lists it, else a dismissal. Then the game the log holds is compared with the
truth. Prints per game: the gap, the plies played in it, how they were recorded (unique:
recorded as seen after the gap; ambiguous: a notice; none: a board no line explains, a
mismatch; moves: a gap too short to be one, its plies recorded as moves)
- ``search``: the gap search alone, on random gaps of random games. and whether the game was recorded to its end; then the totals and the speed
of the gap search (the same search, timed on each gap's true boards).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

import numpy as np

ROOT = Path(__file__).resolve().parent.parent

from makhos.engine.game import Game
from makhos.engine.gaps import Sight, gap_lines
from makhos.engine.pdn import read_game
from makhos.events import EventKind, GameEvent, SQLiteLog
from makhos.events.decisions import ChooseLine, Dismiss
from makhos.events.details import CameraNotice, CameraStatus, Irregularity, IrregularityKind, MovePlayed
from makhos.events.game import replay
from bench.record import FIRST_SEED, make_video

if TYPE_CHECKING:  # the camera's side is imported only by the part that drops one
    from makhos.session import BoardSession
    from makhos.vision.pipeline import BoardReader
    from makhos.vision.sources import Frame
    from makhos.worker.inputs import CameraInput

BOARD = "1"
GAP_SECONDS = 30.0
PLIES = 20


@dataclass
class Outcome:
    """One game: its gap and what became of it."""

    name: str
    gap: float  # seconds from the last logged event to the frames coming back
    unseen: int  # plies the truth played in the gap
    how: str  # unique, ambiguous, none, or "-" (no ply in the gap)
    right: int  # plies of the gap recorded as played
    wrong: int  # plies recorded that were not played (the whole game), unconfirmed ones aside
    unconfirmed: int  # plies of a line that stood unchosen (play went on before the referee)
    unconfirmed_wrong: int  # ... of those, not the ply played
    complete: bool  # the game recorded move-perfect
    ended: bool  # recorded to its end: its last board the game's (a gap no line explains
    # standing as an irregular position change once play went on)
    search_ms: list[float] = field(default_factory=list)


def truth_of(video: Path) -> tuple[Game, list[float]]:
    """The true game and the video time of each of its plies."""
    game = read_game(video.with_suffix(".pdn").read_text(encoding="utf-8")).game
    truth = [json.loads(line) for line in video.with_suffix(".truth.jsonl").read_text().splitlines()]
    return game, [t["frame"] / 30.0 for t in truth if t["kind"] == "move"]


class Referee:
    """Answers gap notices from the log, with the line the truth played."""

    def __init__(self, db: Path, truth: Game) -> None:
        self.db, self.truth = db, truth
        self.answered: set[int] = set()
        self.notices = 0

    def answer(self) -> list[GameEvent]:
        log = SQLiteLog(self.db)
        try:
            events = log.read_board(BOARD)
            for index, event in enumerate(events):
                detail = event.detail
                if (not isinstance(detail, Irregularity) or detail.rule is not IrregularityKind.GAP
                        or event.seq in self.answered):
                    continue
                self.answered.add(event.seq)
                self.notices += 1
                done = len(replay(events[:index]).current.moves)
                plies = len(detail.lines[0].split())
                played = " ".join(str(p.move) for p in self.truth.plies[done:done + plies])
                action: Any = ChooseLine(event.seq, played) if played in detail.lines else Dismiss(event.seq)
                log.append(action.to_event(BOARD, event.game, time.time()))
            return events
        finally:
            log.close()


def ended(events: list[GameEvent], after: int) -> bool:
    return any(isinstance(e.detail, CameraNotice) and e.detail.status is CameraStatus.ENDED
               for e in events if e.seq > after)


def last_time(events: list[GameEvent]) -> float:
    kinds = (EventKind.GAME_STARTED, EventKind.MOVE, EventKind.IRREGULARITY, EventKind.BOARD_MISMATCH,
             EventKind.CROWNING_PENDING, EventKind.TAKEBACK)
    return max((e.time for e in events if e.kind in kinds), default=0.0)


def judge(name: str, video: Path, truth: Game, times: list[float], events: list[GameEvent],
          before: int, gap: float, resumed_at: float, recorded_before: int) -> Outcome:
    """What became of the gap from ``resumed_at - gap`` to ``resumed_at`` (events with
    seq > ``before`` came after it) and of the whole game."""
    record = replay(events).current
    unseen = sum(1 for t in times if t < resumed_at) - recorded_before
    after = [e for e in events if e.seq > before]
    # A notice first means several lines; plies marked as seen after the gap without one,
    # a single line; a board no line explains, none (perhaps found later, once the men
    # taken were lifted); else one or two plies after a short gap, the ordinary moves.
    noticed = any(isinstance(e.detail, Irregularity) and e.detail.rule is IrregularityKind.GAP for e in after)
    marked = any(isinstance(e.detail, MovePlayed) and e.detail.gap is not None for e in after)
    mismatch = any(e.kind is EventKind.BOARD_MISMATCH for e in after)
    how = "ambiguous" if noticed else "unique" if marked else "none" if mismatch else "moves"
    plies = record.game.plies
    # A legal ply recorded is right when the game made that very step somewhere (after a
    # gap that stood as one irregular change, the plies that follow are the game's later ones).
    played = {(ply.before.board, ply.after.board) for ply in truth.plies}
    wrong = [k for k, ply in enumerate(plies) if ply.irregularity is None
             and (ply.before.board, ply.after.board) not in played]
    unconfirmed = [k for k, m in enumerate(record.moves) if m.unconfirmed]
    gap_plies = range(recorded_before, recorded_before + unseen)
    right = sum(1 for k in gap_plies if k < len(plies) and plies[k].after == truth.plies[k].after)
    return Outcome(name, gap, unseen, how if unseen else "-", right,
                   len(set(wrong) - set(unconfirmed)), len(unconfirmed), len(set(wrong) & set(unconfirmed)),
                   record.game.positions() == truth.positions(),
                   record.game.position.board == truth.position.board,
                   search_ms(truth, recorded_before, unseen))


def search_ms(truth: Game, done: int, unseen: int) -> list[float]:
    """The gap search timed on the gap's true boards (the tracker's, given exact readings)."""
    if not 3 <= unseen <= 6 or done + unseen > len(truth.plies):
        return []
    start = truth.positions()[done]
    seen = truth.positions()[done + unseen]
    clock = time.perf_counter()
    gap_lines(start, Sight.exact(seen.board), truth.rules, 6)
    return [1000 * (time.perf_counter() - clock)]


def moments(rng: np.random.Generator, times: list[float]) -> tuple[float, float]:
    """A gap of 0-30 s, and a moment of the game for it to begin: after the start, and
    early enough for the video to show the game's last ply after it."""
    gap = rng.uniform(0.0, GAP_SECONDS)
    return gap, rng.uniform(times[0], max(times[0], times[-1] - gap - 1.0))


def setting(video: Path, rng: np.random.Generator, work: Path, part: str
            ) -> tuple[Game, list[float], Path, Referee, float, float]:
    """A game's truth, a fresh log for it, its referee, and its gap and moment."""
    truth, times = truth_of(video)
    db = work / f"{video.stem}-{part}.db"
    db.unlink(missing_ok=True)
    return (truth, times, db, Referee(db, truth)) + moments(rng, times)


# ---------------------------------------------------------------- part 1: restart


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def makhos_run(video: Path, db: Path, start: float, out: Any) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "makhos.cli.main", "run", "--source", str(video), "--events", str(db),
               "--board", BOARD, "--port", str(free_port()), "--token", "bench"]
    if start:
        command += ["--start", f"{start:.3f}"]
    return subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})


def restart(video: Path, rng: np.random.Generator, work: Path, timeout: float) -> Outcome:
    truth, times, db, referee, gap, moment = setting(video, rng, work, "restart")
    with (work / f"{video.stem}-restart.log").open("w") as out:
        process = makhos_run(video, db, 0.0, out)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.05)
            if db.exists() and last_time(referee.answer()) >= moment:
                break
        process.send_signal(signal.SIGKILL)
        process.wait()
        events = referee.answer()
        last = last_time(events)
        recorded = len(replay(events).current.moves)
        before = events[-1].seq if events else 0
        print(f"  killed at {last:.1f} s of the video after {recorded} plies; again {gap:.1f} s later",
              file=out, flush=True)
        process = makhos_run(video, db, last + gap, out)
        try:
            while time.monotonic() < deadline and process.poll() is None:
                time.sleep(0.2)
                events = referee.answer()
                if ended(events, before):
                    break
        finally:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
    events = referee.answer()
    return judge(video.stem, video, truth, times, events, before, gap, last + gap, recorded)


# ---------------------------------------------------------------- part 2: camera drop


@dataclass
class DroppingCamera:
    """A video watched through a camera that goes away at ``drop`` (video seconds) for
    ``stall`` wall seconds, and comes back at ``back``: what it showed meanwhile is lost."""

    inner: CameraInput
    drop: float
    back: float
    stall: float = 3.0
    live: bool = False
    watches_camera: bool = True  # the stall must read as a camera lost

    def describe(self) -> str:
        return f"{self.inner.describe()} dropping at {self.drop:.1f} s"

    def reader(self) -> BoardReader:
        return self.inner.reader()

    def taken_up(self, history: list[GameEvent]) -> DroppingCamera:
        return replace(self, inner=self.inner.taken_up(history))  # a fresh log: the video's own seconds

    def opening(self) -> Any:
        return self.inner.opening()

    def items(self, after: float) -> Iterator[Frame]:
        from makhos.vision.sources import VideoFile

        for frame in VideoFile(Path(self.inner.spec)):
            if frame.timestamp >= self.drop:
                break
            yield frame
        time.sleep(self.stall)
        yield from VideoFile(Path(self.inner.spec), start=self.back)

    def time_of(self, item: Frame) -> float:
        return self.inner.time_of(item)

    def feed(self, session: BoardSession, item: Frame) -> tuple[float, list[GameEvent]]:
        return self.inner.feed(session, item)


def drop(video: Path, rng: np.random.Generator, work: Path, timeout: float) -> Outcome:
    from makhos.worker.inputs import CameraInput
    from makhos.worker.loop import Worker, WorkerConfig

    truth, times, db, referee, gap, moment = setting(video, rng, work, "drop")
    source = DroppingCamera(CameraInput(str(video)), moment, moment + gap)
    worker = Worker(WorkerConfig(BOARD, lost_after=1.0), SQLiteLog(db), source)
    stop = threading.Event()
    thread = threading.Thread(target=worker.run, args=(stop,), daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    while thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.2)
        referee.answer()
    stop.set()
    thread.join(30)
    events = referee.answer()
    # What the worker made of the frames before the drop (a loaded machine may also say
    # "camera lost" earlier, when a frame is slow to come: that is no gap of the video's).
    earlier = [e for e in events if e.kind is not EventKind.REFEREE and e.time < moment]
    before = earlier[-1].seq if earlier else 0
    earlier = [e for e in events if e.seq <= before]
    recorded = len(replay(earlier).current.moves) if earlier else 0
    seen = last_time(earlier)
    return judge(video.stem, video, truth, times, events, before, moment + gap - seen,
                 moment + gap, recorded)


# ---------------------------------------------------------------- part 3: the search alone


def search_speed(samples: int, seed: int) -> None:
    """The gap search on random games: a random position of a random game, a random line
    of 1-6 plies from it, and its end seen exactly; how often the line is the only one
    found, and how long the search takes (pure Python, one core)."""
    import random

    rng = random.Random(seed)
    by_plies: dict[int, list[tuple[float, bool, bool]]] = {}
    for k in range(samples):
        game = Game()
        for _ in range(rng.randint(0, 60)):
            if game.result() is not None:
                break
            game.play(rng.choice(game.legal_moves()))
        line, position = [], game.position
        for _ in range(1 + k % 6):
            moves = position.legal_moves()
            if not moves:
                break
            line.append(rng.choice(moves))
            position = position.play(line[-1])
        if not line:
            continue
        clock = time.perf_counter()
        found = gap_lines(game.position, Sight.exact(position.board), None, 6)
        seconds = time.perf_counter() - clock
        by_plies.setdefault(len(line), []).append((seconds, found == [tuple(line)], tuple(line) in found))
    print(f"gap search on {samples} random gaps (random games, exact boards):")
    for plies, rows in sorted(by_plies.items()):
        ms = 1000 * np.array([r[0] for r in rows])
        print(f"  {plies} plies: {len(rows)} gaps, the line alone found {sum(r[1] for r in rows)}, "
              f"among those found {sum(r[2] for r in rows)}; median {np.median(ms):.1f} ms, "
              f"p95 {np.percentile(ms, 95):.1f} ms, max {ms.max():.1f} ms")


# ---------------------------------------------------------------- report


def report(title: str, outcomes: list[Outcome]) -> None:
    print(f"{title}:")
    for o in outcomes:
        print(f"  {o.name}: gap {o.gap:4.1f} s, {o.unseen} plies unseen, {o.how:9s} right {o.right}/{o.unseen}"
              f", wrong plies {o.wrong}, unconfirmed {o.unconfirmed} ({o.unconfirmed_wrong} wrong)"
              f", to the end {'yes' if o.ended else 'NO'}, move-perfect {'yes' if o.complete else 'no'}",
              flush=True)
    n = len(outcomes)
    with_plies = [o for o in outcomes if o.unseen]
    counts = {how: sum(1 for o in with_plies if o.how == how)
              for how in ("unique", "ambiguous", "none", "moves")}
    print(f"  games recorded to their end: {sum(o.ended for o in outcomes)}/{n}; move-perfect: "
          f"{sum(o.complete for o in outcomes)}/{n}")
    print(f"  gaps with plies unseen: {len(with_plies)}: unique {counts['unique']}, ambiguous (a notice) "
          f"{counts['ambiguous']}, none (a mismatch) {counts['none']}, short (ordinary moves) "
          f"{counts['moves']}")
    for label in ("unique", "ambiguous", "moves"):
        group = [o for o in with_plies if o.how == label]
        if group:
            print(f"  plies of {label} gaps recorded right: {sum(o.right for o in group)}/"
                  f"{sum(o.unseen for o in group)}")
    short = [o for o in with_plies if o.unseen <= 6]
    print(f"  gaps of 1-6 plies: {len(short)}, recorded to the end {sum(o.ended for o in short)}; "
          f"of more than 6 (beyond the search): {len(with_plies) - len(short)}, recorded to the end "
          f"{sum(o.ended for o in with_plies if o.unseen > 6)}")
    print(f"  plies recorded that were not played: {sum(o.wrong for o in outcomes)}; plies of lines that "
          f"stood unchosen (play went on before the referee answered): {sum(o.unconfirmed for o in outcomes)}"
          f", of them not the ply played: {sum(o.unconfirmed_wrong for o in outcomes)}")
    ms = [t for o in outcomes for t in o.search_ms]
    if ms:
        print(f"  gap search (3-6 plies, exact boards): median {np.median(ms):.1f} ms, max {max(ms):.1f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--videos", type=int, default=20)
    parser.add_argument("--plies", type=int, default=PLIES)
    parser.add_argument("--folder", type=Path, default=ROOT / "data" / "videos")
    parser.add_argument("--part", choices=("restart", "drop", "search", "all"), default="all")
    parser.add_argument("--samples", type=int, default=600, help="random gaps for the search part")
    parser.add_argument("--seed", type=int, default=25, help="of the kill moments and gaps")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds a game may take")
    args = parser.parse_args()
    if args.part in ("search", "all"):
        search_speed(args.samples, args.seed)
    if args.part == "search":
        return 0
    videos = [make_video(FIRST_SEED["steady"] + k, args.folder, args.plies, "steady")
              for k in range(args.videos)]
    with tempfile.TemporaryDirectory(prefix="makhos-gaps-") as scratch:
        work = Path(scratch)
        for part, run in (("restart", restart), ("drop", drop)):
            if args.part not in (part, "all"):
                continue
            rng = np.random.default_rng(args.seed)
            outcomes = []
            for video in videos:
                outcomes.append(run(video, rng, work, args.timeout))
                o = outcomes[-1]
                print(f"{part} {o.name}: gap {o.gap:.1f} s, {o.unseen} unseen, {o.how}, right {o.right}, "
                      f"wrong {o.wrong}, unconfirmed {o.unconfirmed}, ended {o.ended}, complete {o.complete}",
                      flush=True)
            report(f"{part}: makhos run killed and restarted" if part == "restart"
                   else "drop: the camera away and back", outcomes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
