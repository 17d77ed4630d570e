"""A worker restarted on a video takes it up where its log ends, and reads on as the
uninterrupted run did: the plies after the restart are the true ones, each seen as it was
played, with no gap notice.

The video and the restart point are one of ``bench.faults``'s failures before the warm-up
(``worker.takeup.WARM_UP``): restarted at the log's last move, a fresh occlusion gate
waits a full second of quiet for its first still view, the players' hands came and went
faster, and three plies were seen only as a gap whose two orders of moves the tracker
could not tell apart (it let the wrong one stand).
"""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest

from makhos.engine.pdn import read_game
from makhos.events import EventKind, open_log
from makhos.worker.inputs import CameraInput
from makhos.worker.loop import Worker, WorkerConfig

SEED = 4103


@pytest.fixture(scope="module")
def video(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from lab.render import sample_scene
    from lab.videos import script_game
    from lab.videos.render import write_video

    script = script_game(SEED, plies=12, irregularities=0)
    scene = sample_scene(np.random.default_rng(SEED), held_out=True, elevation=(40.0, 80.0), size=(640, 360))
    return write_video(script, scene, tmp_path_factory.mktemp("video") / "game.mp4", seed=SEED)


def record(video: Path, log_path: Path) -> list[str]:
    """Run a worker (a referee watching: not offline) over the video into the log; its lines."""
    Worker(WorkerConfig("1"), open_log(str(log_path)), CameraInput(str(video))).run(threading.Event())
    return log_path.read_text().splitlines()


@pytest.mark.parametrize("killed_after", [3, 7])
def test_a_worker_restarted_on_a_video_reads_on_as_if_never_stopped(video: Path, tmp_path: Path,
                                                                     killed_after: int) -> None:
    truth = [str(p.move) for p in read_game(video.with_suffix(".pdn").read_text()).game.plies]
    whole = record(video, tmp_path / "whole.jsonl")
    moves_at = [i for i, line in enumerate(whole) if '"kind":"move"' in line]
    cut = tmp_path / "cut.jsonl"  # the log of a worker killed right after that move
    cut.write_text("\n".join(whole[:moves_at[killed_after - 1] + 1]) + "\n")
    record(video, cut)
    events = open_log(str(cut)).read("1", limit=10_000)
    assert [e.move for e in events if e.kind is EventKind.MOVE] == truth
    after = events[moves_at[killed_after - 1] + 1:]
    assert not [e.reason for e in after if e.kind is EventKind.IRREGULARITY]
    assert not [e for e in after if e.kind is EventKind.MOVE and e.detail.gap is not None]
