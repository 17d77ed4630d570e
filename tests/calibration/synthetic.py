"""Synthetic frames for the calibration tests: one camera with strong barrel distortion."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from lab.render import Renderer, sample_scene
from lab.render.camera import Camera

STRONG_BARREL = np.array([-0.35, 0.10, 0.0, 0.0, 0.0])
START = "l" * 8 + "." * 16 + "d" * 8  # the 8-man start, squares 1..32
START_PIECES = {s + 1: label for s, label in enumerate(START) if label != "."}


def distorted_scene(seed: int = 3, **options):
    """A held-out 1280x720 scene seen through a strongly bending lens."""
    scene = sample_scene(np.random.default_rng(seed), held_out=True, **options)
    return dataclasses.replace(scene, camera=dataclasses.replace(scene.camera, dist=STRONG_BARREL))


def moved(scene, seed: int, tilt_deg: float = 8.0):
    """The scene with the board tilted, turned and slid a little (as when calibrating)."""
    rng = np.random.default_rng(seed)
    camera: Camera = scene.camera
    for _ in range(50):
        turn, _ = cv2.Rodrigues(np.radians(rng.uniform(-tilt_deg, tilt_deg, 3)))
        centre = np.array([4.0, 4.0, 0.0])
        slide = np.array([*rng.uniform(-0.4, 0.4, 2), 0.0])
        candidate = dataclasses.replace(camera, R=camera.R @ turn,
                                        t=camera.t + camera.R @ (centre + slide - turn @ centre))
        corners = candidate.project(np.array([[-1, -1, 0], [9, -1, 0], [9, 9, 0], [-1, 9, 0]], float))
        w, h = camera.size
        if (corners > 2).all() and (corners[:, 0] < w - 3).all() and (corners[:, 1] < h - 3).all():
            return dataclasses.replace(scene, camera=candidate)
    raise AssertionError("no pose of the board fits the frame")


def empty_views(scene, n: int) -> list[np.ndarray]:
    return [Renderer(moved(scene, seed=k)).render({}, seed=k).image for k in range(n)]
