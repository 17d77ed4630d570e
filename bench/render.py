"""Speed of the synthetic renderer: scene set-up and one 1280x720 frame.

    python -m bench.render [--scenes 10] [--frames 20]

Set-up (textures, light field, lens maps) is paid once per scene; a frame (pieces,
shadows, hand, light, distortion, noise, blur, JPEG) is paid per rendered frame.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np


from lab.render import Renderer, random_position, sample_hand, sample_scene


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenes", type=int, default=10)
    parser.add_argument("--frames", type=int, default=20)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    setup, frame = [], []
    for _ in range(args.scenes):
        scene = sample_scene(rng, size=(1280, 720))
        start = time.perf_counter()
        renderer = Renderer(scene)
        setup.append(time.perf_counter() - start)
        for k in range(args.frames):
            pieces = random_position(rng, occupancy=0.5)
            hand = sample_hand(rng) if k % 4 == 0 else None
            start = time.perf_counter()
            renderer.render(pieces, hand, seed=k)
            frame.append(time.perf_counter() - start)
    print(f"1280x720: scene set-up median {1000 * np.median(setup):.0f} ms; frame median "
          f"{1000 * np.median(frame):.1f} ms, 95th percentile {1000 * np.percentile(frame, 95):.1f} ms "
          f"({len(frame)} frames, half the squares occupied, a hand in every 4th)")


if __name__ == "__main__":
    main()
