"""Scenes whose kings look like men from the camera (#42): seen side-on at 35 degrees,
480x270, with low men (0.12-0.16 of a square), so a king is a short stack whose top rises
only a few pixels above a man's on the same square."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .scene import Scene, sample_scene


def side_on(seed: int) -> Scene:
    """A held-out scene (palettes kept out of training) seen side-on, with low men."""
    rng = np.random.default_rng(seed)
    scene = sample_scene(rng, held_out=True, elevation=(35.0, 35.0), size=(480, 270))
    return replace(scene, pieces=replace(scene.pieces, height=float(rng.uniform(0.12, 0.16))))
