"""Make the bundled sample video of the demo: ``python -m lab.videos.sample``.

A short game with a capture, a late crowning and one injected irregularity (the side that
just moved moves again, then puts the piece back), rendered at 640x360 so that the file
stays small enough to commit.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from lab.render import sample_scene
from makhos import models

from . import script_game
from .render import write_video

SAMPLE = models.path(models.SAMPLE_VIDEO)
SCRIPT_SEED, SCENE_SEED = 7, 24


def make_sample(path: Path = SAMPLE) -> Path:
    script = script_game(SCRIPT_SEED, plies=10, irregularities=1)
    scene = sample_scene(np.random.default_rng(SCENE_SEED), held_out=True,
                         elevation=(50.0, 80.0), size=(640, 360))
    return write_video(script, scene, path, seed=SCENE_SEED, noise_level=0.0)


if __name__ == "__main__":
    print(make_sample(Path(sys.argv[1]) if len(sys.argv) > 1 else SAMPLE))
