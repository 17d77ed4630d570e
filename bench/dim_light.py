"""The reader in a dim hall's light (#42): ``bench.learning``'s games filmed in a dim hall.

    python -m bench.dim_light [--scenes 6] [--first 0] [--light 0.38 0.56] [--noise 8]
                              [--quality 35] [--swing 0.2] [--smooth 0] [--frames 1]

The same rendered games as ``bench.learning`` (480x270, side-on, low men; a dark man crowned
a quarter of the way in), each frame, the start's included, taken at a share of the light
drawn per game from ``--light``, each later board ``--swing`` more or less lit (an exposure
step, a shadow), with the sensor's noise raised by the gain the dim light needs (``--noise``
grey levels at full light, over the square root of the light) and compressed as JPEG at
``--quality`` (0: not compressed). ``--light 1 1 --noise 0 --quality 0`` is
``bench.learning``'s own light. ``--smooth`` blurs every crop the reader cuts (a Gaussian's
sigma in crop pixels), ``--frames`` reads the mean of that many frames of each still board
(each its own noise and codec): remedies measured here, not the product's.

Printed: before and after the first crowning, squares wrong, kings read as kings and men
read as men, for the reader that learns the game (``vision.learning``; before the first
crowning it has learnt men only); after it, the reader refit on the start alone; the
commonest misreads (truth then read: ``.d`` is an empty square read as a dark man); and a
read's milliseconds.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one thread: a board read's budget is one core

import argparse
import time
from collections import Counter

import cv2
import numpy as np

from bench.learning import START, Counts, game_boards
from bench.machine import describe
from lab.render import Renderer
from lab.render.side_on import side_on
from makhos.vision.learning import AdaptingReader
from makhos.vision.lens import Lens
from makhos.vision.reader import PieceReader
from makhos.vision.reading import labels_of
from makhos.vision.rectify import SquareCrops


class SmoothedReader(PieceReader):
    """The reader with every crop it cuts blurred by ``sigma`` crop pixels (0: as it is)."""

    def __init__(self, sigma: float) -> None:
        super().__init__()
        self.sigma = sigma

    def crops(self, frame: np.ndarray, corners: np.ndarray, played: str = "dark",
              lens: Lens | None = None) -> SquareCrops:
        cut = super().crops(frame, corners, played, lens)
        if self.sigma <= 0:
            return cut
        images = np.stack([cv2.GaussianBlur(crop, (0, 0), self.sigma, borderType=cv2.BORDER_REPLICATE)
                           for crop in cut.images])
        return SquareCrops(images, cut.sight)


def dim_hall(image: np.ndarray, light: float, noise: float, quality: int,
             rng: np.random.Generator) -> np.ndarray:
    """``image`` at ``light`` of its light, the sensor's ``noise`` raised by the gain, JPEG'd."""
    f = image.astype(np.float32) * light + rng.normal(0, noise / light ** 0.5, image.shape)
    out = np.clip(f, 0, 255).astype(np.uint8)
    if not quality:
        return out
    ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), np.uint8)


def settled(image: np.ndarray, light: float, args: argparse.Namespace, rng: np.random.Generator) -> np.ndarray:
    """The mean of ``args.frames`` frames of a still board, each with its own noise and codec."""
    shots = [dim_hall(image, light, args.noise, args.quality, rng).astype(np.float32) for _ in range(args.frames)]
    return np.asarray(np.round(np.mean(shots, 0)), np.uint8)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", type=int, default=6)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--plies", type=int, default=16)
    parser.add_argument("--light", type=float, nargs=2, default=(0.38, 0.56))
    parser.add_argument("--noise", type=float, default=8.0)
    parser.add_argument("--quality", type=int, default=35)
    parser.add_argument("--swing", type=float, default=0.2)
    parser.add_argument("--smooth", type=float, default=0.0)
    parser.add_argument("--frames", type=int, default=1)
    args = parser.parse_args()
    network = SmoothedReader(args.smooth)
    before, after, start_only = Counts(), Counts(), Counts()
    misread: dict[str, Counter[str]] = {"before": Counter(), "after": Counter()}
    read_ms: list[float] = []
    for seed in range(args.first, args.first + args.scenes):
        rng = np.random.default_rng(seed + 7)
        light = float(rng.uniform(*args.light))
        renderer = Renderer(side_on(1000 + seed))
        start = renderer.render({k + 1: c for k, c in enumerate(START) if c != "."}, seed=seed)
        reader, fixed = AdaptingReader(network), AdaptingReader(network)
        fixed.restore(reader.adapt(settled(start.image, light, args, rng), start.corners, start.played, START))
        boards, crowning = game_boards(seed, args.plies)
        for k, truth in enumerate(boards):
            frame = renderer.render({s + 1: c for s, c in enumerate(truth) if c != "."}, seed=seed * 100 + k)
            lit = light * float(rng.uniform(1 - args.swing, 1 + args.swing))
            crops = network.crops(settled(frame.image, lit, args, rng), frame.corners, frame.played)
            began = time.process_time()
            read = labels_of(reader.classify(crops))
            read_ms.append(1000 * (time.process_time() - began))
            when = "after" if k > crowning else "before"
            (after if k > crowning else before).add(truth, read)
            misread[when].update(t + r for t, r in zip(truth, read) if t != r)
            if k > crowning:
                start_only.add(truth, labels_of(fixed.classify(crops)))
            reader.learn(crops, truth)
            reader.refitted()
    print(describe())
    print(f"{args.scenes} rendered games of {args.plies} boards (scenes {args.first}..), light "
          f"{args.light[0]}-{args.light[1]} (each board +-{args.swing}), noise {args.noise}, "
          f"JPEG {args.quality or 'none'}, crops smoothed {args.smooth}, frames averaged {args.frames}")
    print(before.line("before the first crowning"))
    print(after.line("after it, learning the game"))
    print(start_only.line("after it, refit on the start alone"))
    for when, counts in misread.items():
        print(f"misread {when}: " + ", ".join(f"{k} {n}" for k, n in counts.most_common(8)))
    print(f"read: median {np.median(read_ms):.1f} ms CPU")


if __name__ == "__main__":
    main()
