"""What `makhos record` costs beside decoding alone, on 720p30 and 720p15 game videos.

    python -m bench.speed                                 # renders into /work/cache/speed
    python -m bench.speed --folder DIR --plies 16 --seed 60000
    python -m bench.speed --video a.mp4 --video b.mp4     # videos rendered before (with truth)

Each video (H.264, otherwise calm) is rendered once into ``--folder`` with its true game
beside it: at 30 and 15 fps with the camera wobbling a few pixels, and at 30 fps with a
steady camera (``-steady``). Then, on one core and in CPU time (a shared machine's wall
clock says more about the neighbours than about us), each figure with the machine's load:

- decoding alone: every frame through OpenCV, one thread, as the recorder's source does;
- ``makhos record``: the product's camera loop (:func:`bench.record.record`), decoding
  included;
- their ratio, the recording's speed as a multiple of real time, the frames the vision
  analysed, and whether the game was recorded move-perfect (:func:`bench.record.compare`).

The goal of issues #31 and #44: the recording costs at most 1.5 times what decoding costs,
with the camera wobbling and steady.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from bench.record import compare, record, video_fps
from lab.render import sample_scene
from lab.videos import script_game
from lab.videos.nuisances import Nuisances
from lab.videos.render import write_video
from makhos.session import BoardSession

#: The camera of the bench's videos: a calm 720p camera that wobbles by this much (px).
WOBBLE_PX = 2.0
BIT_RATE = 2_000_000
FRAME_RATES = (30.0, 15.0)


def make_video(seed: int, folder: Path, plies: int, fps: float, wobble: bool = True) -> Path:
    """Render one H.264 720p game video at ``fps`` with a wobbling camera or a steady one (once)."""
    path = folder / f"speed-{seed}-{plies}-{fps:.0f}fps{'' if wobble else '-steady'}.mp4"
    if path.exists() and path.with_suffix(".truth.jsonl").exists():
        return path
    camera = replace(Nuisances.calm((1280, 720), fps), codec="h264", bit_rate=BIT_RATE,
                     gop=int(2 * fps), wobble_px=WOBBLE_PX if wobble else 0.0, wobble_time=0.5, seed=seed)
    script = script_game(seed, plies=plies, irregularities=0)
    scene = sample_scene(np.random.default_rng(seed), held_out=True, elevation=(35.0, 90.0))
    write_video(script, scene, path, seed=seed, nuisances=camera)
    return path


def decoding_alone(path: Path) -> tuple[float, int]:
    """CPU seconds to decode every frame of ``path`` to BGR pixels, and the frame count."""
    import cv2

    capture = cv2.VideoCapture(str(path))
    frames, start = 0, time.process_time()
    while capture.read()[0]:
        frames += 1
    seconds = time.process_time() - start
    capture.release()
    return seconds, frames


def measure(path: Path) -> None:
    decode, frames = decoding_alone(path)
    analysed = 0

    def count(session: BoardSession) -> None:
        nonlocal analysed
        analysed += session.last is not None and session.last.analysed

    session, events, cpu, _ = record(path, None, count)
    result = compare(path, session, events)
    fps = video_fps(path)
    delays = 1000 * np.asarray(result["delays"])
    delay = f"{np.median(delays):.0f} ms, p95 {np.percentile(delays, 95):.0f} ms" if len(delays) else "none"
    print(f"{path.name}: {frames} frames at {fps:.0f} fps ({frames / fps:.0f} s), load {os.getloadavg()[0]:.1f}\n"
          f"  decoding alone: {decode:.2f} s CPU ({frames / decode:.0f} frames/s)\n"
          f"  makhos record:  {cpu:.2f} s CPU = {cpu / decode:.2f}x decoding, "
          f"{frames / fps / cpu:.1f}x real time; frames analysed {analysed}/{frames} "
          f"({100 * analysed / frames:.0f} %)\n"
          f"  move-perfect: {result['perfect']}, moves recorded that were not played: "
          f"{result['false_moves']}, delay hand-leaves -> move event median {delay}", flush=True)


def videos(description: str, frame_rates: tuple[float, ...]) -> list[Path]:
    """The videos a speed bench measures (``--video``, or rendered at ``frame_rates``), with
    OpenCV kept to one thread as the figures assume."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--folder", type=Path, default=Path("/work/cache/speed"))
    parser.add_argument("--seed", type=int, default=60_000)
    parser.add_argument("--plies", type=int, default=16)
    parser.add_argument("--video", type=Path, action="append",
                        help="measure this video (rendered with its truth) instead of rendering")
    args = parser.parse_args()
    import cv2

    cv2.setNumThreads(1)
    return args.video or [*(make_video(args.seed, args.folder, args.plies, fps) for fps in frame_rates),
                          make_video(args.seed, args.folder, args.plies, frame_rates[0], wobble=False)]


def main() -> int:
    for path in videos(__doc__ or "", FRAME_RATES):
        measure(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
