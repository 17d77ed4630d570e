"""What `makhos record --report` costs: CPU beside the record alone, and the report's size.

    python -m bench.report --plies 60 --folder /tmp/report-bench
    python -m bench.report --video models/sample/sample.mp4

Records the video three times in this process, without, with and again without ``--report``, and prints each
run's CPU seconds (``time.process_time``: all threads, decoding included), the difference
in percent, the review's own CPU (the camera's observer and the page written, timed in
the thread that runs them), and the size of the page with its pictures. Without
``--video`` it renders a game of ``--plies`` plies with ``lab.videos`` first (issue 45's
budget: a 60-ply report at most 5 MB, at most 10 % more CPU).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import time
from pathlib import Path
from typing import Any

import numpy as np

from bench.machine import describe as describe_machine
from lab.render import sample_scene
from lab.videos import script_game
from lab.videos.render import write_video
from makhos.cli import record as record_command
from makhos.cli.main import main as makhos
from makhos.session import review


class _TimedCamera(review.ReviewCamera):
    """The review's observer, with the CPU its calls took in the worker's thread."""

    spent = 0.0

    def observe(self, session: Any) -> None:
        start = time.thread_time()
        super().observe(session)
        _TimedCamera.spent += time.thread_time() - start


def _timed_writing(*args: Any) -> None:
    start = time.thread_time()
    _write_review(*args)
    _TimedCamera.written = time.thread_time() - start  # type: ignore[attr-defined]


_write_review = record_command.write_review


def record(video: Path, folder: Path, extra: list[str], report: bool) -> float:
    """CPU seconds of one `makhos record` of ``video``."""
    arguments = ["record", "--source", str(video), "-o", str(folder / "recorded.pdn"), *extra]
    if report:
        arguments += ["--report", str(folder / "report.html")]
    before = time.process_time()
    with contextlib.redirect_stdout(io.StringIO()):
        code = makhos(arguments)
    if code != 0:
        raise SystemExit(f"makhos record found no game in {video}")
    return time.process_time() - before


def size(folder: Path) -> int:
    return (folder / "report.html").stat().st_size + sum(
        p.stat().st_size for p in (folder / "report_files").iterdir())


def rendered_game(seed: int, plies: int, folder: Path) -> Path:
    """A rendered game of ``plies`` plies without irregularities (640x360, held-out palettes),
    written in ``folder``."""
    script = script_game(seed, plies=plies, irregularities=0)
    scene = sample_scene(np.random.default_rng(seed), held_out=True, elevation=(50.0, 80.0),
                         size=(640, 360))
    return write_video(script, scene, folder / "game.mp4", seed=seed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--video", type=Path, help="a video to record (default: a rendered game)")
    parser.add_argument("--men", type=int, help="men a side, for a video of a 12-man game")
    parser.add_argument("--plies", type=int, default=60)
    parser.add_argument("--seed", type=int, default=24, help="of the rendered game and scene")
    parser.add_argument("--folder", type=Path, default=Path("/tmp/report-bench"))
    args = parser.parse_args(argv)
    args.folder.mkdir(parents=True, exist_ok=True)
    video = args.video or rendered_game(args.seed, args.plies, args.folder)
    extra = ["--men", str(args.men)] if args.men else []
    # The record alone before and after, the better of the two: the first run also warms
    # what every later run finds ready.
    review.ReviewCamera = _TimedCamera  # type: ignore[misc]
    record_command.write_review = _timed_writing  # type: ignore[assignment]
    plain = record(video, args.folder, extra, report=False)
    with_report = record(video, args.folder, extra, report=True)
    plain = min(plain, record(video, args.folder, extra, report=False))
    plies = (args.folder / "report.html").read_text(encoding="utf-8").count('<tr class="ply')
    print(describe_machine())
    print(f"{video}: {plies} plies")
    print(f"record alone: {plain:.1f} s CPU; with --report: {with_report:.1f} s CPU "
          f"({100 * (with_report - plain) / plain:+.1f} %)")
    print(f"the review's own CPU: {_TimedCamera.spent:.2f} s observing "
          f"({100 * _TimedCamera.spent / plain:.1f} % of the record alone), "
          f"{_TimedCamera.written:.2f} s writing the page (the first import of its "  # type: ignore[attr-defined]
          f"module included)")
    print(f"report: {size(args.folder) / 1e6:.2f} MB (page and report_files/)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
