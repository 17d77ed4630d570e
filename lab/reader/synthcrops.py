"""Crops of boards drawn by the project's renderer (``models.render``), in the reader's crop
geometry, stored like ``lab.reader.realcrops`` (one JPEG mosaic per board, labels as 32
characters, '?' where a hand covers the square).

Scenes are drawn as ``models.dataset`` draws its fit split (training palettes, a third of the
piece sets from the wider world: stickers, wide discs, tall cylinders, hue-only sides), so
kings are synthetic stacks of two men of the scene's own set.

    python -m lab.reader.synthcrops --out /tmp/reader-data --scenes 400
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import cv2
import numpy as np

from lab.reader.realcrops import mosaic
from lab.training.dataset import FIT, scene_shots
from makhos.vision.reader import GEOMETRY
from makhos.vision.rectify import crop_squares


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--scenes", type=int, default=400)
    parser.add_argument("--first-seed", type=int, default=500_000)
    parser.add_argument("--quality", type=int, default=93)
    args = parser.parse_args()
    jpegs, sights, labels = [], [], []
    start = time.time()
    for seed in range(args.first_seed, args.first_seed + args.scenes):
        _, shots = scene_shots(seed, FIT)
        for shot in shots[:2]:
            frame = shot.render()
            crops = crop_squares(frame.image, frame.corners, frame.played, geometry=GEOMETRY)
            ok, buf = cv2.imencode(".jpg", mosaic(crops.images),
                                   [cv2.IMWRITE_JPEG_QUALITY, args.quality])
            jpegs.append(np.frombuffer(buf.tobytes(), np.uint8))
            sights.append(crops.sight)
            labels.append("".join("?" if k + 1 in frame.hand_squares else c
                                  for k, c in enumerate(frame.squares)))
        if (seed - args.first_seed) % 20 == 19 or seed == args.first_seed + args.scenes - 1:
            offsets = np.cumsum([0] + [len(j) for j in jpegs])
            np.savez(args.out / "synthetic.npz", jpeg=np.concatenate(jpegs), offsets=offsets,
                     sight=np.stack(sights), labels=np.array(labels))
            print(seed - args.first_seed + 1, "scenes", len(jpegs), "boards",
                  f"{time.time() - start:.0f} s", f"{offsets[-1] / 1e6:.1f} MB", flush=True)


if __name__ == "__main__":
    main()
