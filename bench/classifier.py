"""Square classifier figures: held-out synthetic accuracy, inference time, load time.

    python bench/classifier.py [--data data/test.npz] [--scenes 600]

Accuracy is measured on the held-out test split (``models.evaluate``; rendered afresh when
``data/test.npz`` is absent). Times are medians on one thread: load = building the
onnxruntime session; classify = one batch of 32 crops including the light/dark assignment;
crop = ``vision.rectify.crop_squares`` on a 1280x720 frame.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.evaluate import evaluate, load_or_render, report  # noqa: E402
from models.render import Renderer, random_position, sample_scene  # noqa: E402
from vision.classifier import DEFAULT_MODEL, SquareClassifier  # noqa: E402
from vision.rectify import crop_squares  # noqa: E402


def median_ms(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return 1000 * float(np.median(times))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=Path("data/test.npz"))
    parser.add_argument("--scenes", type=int, default=600)
    args = parser.parse_args()

    load_ms = median_ms(SquareClassifier, 7)
    classifier = SquareClassifier()
    rng = np.random.default_rng(123)
    scene = sample_scene(rng, held_out=True)
    frame = Renderer(scene).render(random_position(rng), seed=1)
    crops = crop_squares(frame.image, frame.corners, frame.played)
    for _ in range(20):
        classifier.classify(crops)
    classify_ms = median_ms(lambda: classifier.classify(crops), 300)
    crop_ms = median_ms(lambda: crop_squares(frame.image, frame.corners, frame.played), 50)

    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"python {platform.python_version()}; model {DEFAULT_MODEL.name} "
          f"{DEFAULT_MODEL.stat().st_size / 1e6:.2f} MB")
    print(f"load {load_ms:.1f} ms; classify 32 squares {classify_ms:.2f} ms (1 thread); "
          f"crop 32 squares from 1280x720 {crop_ms:.2f} ms")
    print(report(evaluate(classifier, load_or_render(args.data, args.scenes))))


if __name__ == "__main__":
    main()
