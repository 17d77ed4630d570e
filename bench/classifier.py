"""Square classifier figures: held-out synthetic accuracy, inference time, load time.

    python -m bench.classifier [--data data/test.npz] [--scenes 600]

Accuracy is measured on the held-out test split (``lab.training.evaluate``; rendered afresh when
``data/test.npz`` is absent). Times are medians on one thread: load = building the
onnxruntime session; classify = one batch of 32 crops including the light/dark assignment;
crop = ``vision.rectify.crop_squares`` on a 1280x720 frame; board read = both, what one
settled frame costs (the budget is 10 ms on one core), also as this process's CPU time. The
machine's load average is printed beside the times: on a shared machine they are pessimistic.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np


from lab.training.evaluate import evaluate, load_or_render
from lab.render import Renderer, random_position, sample_scene
from makhos.vision.classifier import DEFAULT_MODEL, SquareClassifier
from makhos.vision.rectify import crop_squares


def median_ms(fn: Callable[[], object], repeats: int,
              clock: Callable[[], float] = time.perf_counter) -> float:
    times: list[float] = []
    for _ in range(repeats):
        start = clock()
        fn()
        times.append(clock() - start)
    return 1000 * float(np.median(times))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=Path("data/test.npz"))
    parser.add_argument("--scenes", type=int, default=600)
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL)
    parser.add_argument("--no-accuracy", action="store_true", help="times only")
    args = parser.parse_args()

    load_ms = median_ms(lambda: SquareClassifier(args.model), 7)
    classifier = SquareClassifier(args.model)
    rng = np.random.default_rng(123)
    scene = sample_scene(rng, held_out=True)
    frame = Renderer(scene).render(random_position(rng), seed=1)
    crops = crop_squares(frame.image, frame.corners, frame.played)
    for _ in range(20):
        classifier.classify(crops)
    classify_ms = median_ms(lambda: classifier.classify(crops), 300)
    crop_ms = median_ms(lambda: crop_squares(frame.image, frame.corners, frame.played), 50)
    read_ms = median_ms(lambda: classifier.read(frame.image, frame.corners, frame.played), 100)
    # CPU time of this process: what one core spends, even while other jobs share the machine.
    read_cpu_ms = median_ms(lambda: classifier.read(frame.image, frame.corners, frame.played), 100,
                            time.process_time)

    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"python {platform.python_version()}; model {args.model.name} "
          f"{args.model.stat().st_size / 1e6:.2f} MB; load average "
          + " ".join(f"{v:.1f}" for v in os.getloadavg()))
    print(f"load {load_ms:.1f} ms; classify 32 squares {classify_ms:.2f} ms (1 thread); "
          f"crop 32 squares from 1280x720 {crop_ms:.2f} ms; board read {read_ms:.2f} ms "
          f"({read_cpu_ms:.2f} ms of CPU)")
    if not args.no_accuracy:
        print(evaluate(classifier, load_or_render(args.data, args.scenes)).line())


if __name__ == "__main__":
    main()
