"""What a busy hall does to a camera's picture that a quiet one does not: a glossy glare
spot that moves as the lamp swings, a player's head leaning in at the frame's top, the
auto-focus hunting.

Why: each is something the board finder, the gate and the reader meet in a real hall and
never in a clean render. A glare spot washes the squares under it out and moves, so the
light of one area changes with no hand in view; a head close to the lens is a large dark
blur over the far rows for seconds; a hunting focus blurs the whole board for a moment, as
a hand does not. They are drawn from a generator of their own (``[seed, 5]``), so a video
that asks for none of them renders as it always did.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import cv2
import numpy as np

if TYPE_CHECKING:  # nuisances.py builds its camera from this module
    from .nuisances import Nuisances


class BusyCamera:
    """The busy hall's part of one camera's picture, ``duration`` seconds of video."""

    def __init__(self, nuisances: Nuisances, duration: float) -> None:
        self.n = nuisances
        w, h = nuisances.size
        rng = np.random.default_rng([nuisances.seed, 5])
        # The lamp swings slowly: the glare's centre goes round an ellipse over the board.
        self._glare_centre = np.array([w, h]) * rng.uniform(0.3, 0.7, 2)
        self._glare_swing = np.array([w, h]) * rng.uniform(0.05, 0.2, 2)
        self._glare_period = float(rng.uniform(8.0, 30.0))
        self._glare_phase = float(rng.uniform(0, 2 * np.pi))
        self._glare_sigma = float(rng.uniform(0.03, 0.08)) * w
        count = rng.poisson(nuisances.focus_hunts_per_min * duration / 60.0)
        self._hunts = np.sort(rng.uniform(0.0, duration, count))
        self._hunt_px = float(rng.uniform(1.5, 4.0)) * nuisances.scale
        self._head_x = float(rng.uniform(0.2, 0.8)) * w
        self._head_axes = (float(rng.uniform(0.18, 0.3)) * w, float(rng.uniform(0.15, 0.35)) * h)
        self._head_colour = np.asarray(rng.integers(10, 70, 3), np.float32)
        self._ys, self._xs = np.mgrid[0:h, 0:w].astype(np.float32)

    def focus_sigma(self, time: float) -> float:
        """The blur (pixels) of the focus at ``time``: it swings off and back in a second."""
        after = time - self._hunts
        after = after[(after >= 0) & (after < 1.5)]
        if not len(after):
            return 0.0
        u = float(after.min())
        return self._hunt_px * math.exp(-u / 0.5) * abs(math.sin(math.pi * u / 0.6 + 0.5))

    def head_share(self, time: float) -> float:
        """How far a player's head has leant in at ``time``: 0 (out of view) to 1."""
        at = self.n.head_at
        if at is None:
            return 0.0
        u = min(time - at, at + self.n.head_s - time) / 0.5
        return float(np.clip(u, 0.0, 1.0))

    def head_mask(self, share: float) -> np.ndarray:
        """(h, w) cover of the head leant in by ``share``: an ellipse from above the frame's
        top, blurred as a thing close to the lens is."""
        ax, ay = self._head_axes
        cy = -ay + 2 * ay * share * 0.7
        inside = ((self._xs - self._head_x) / ax) ** 2 + ((self._ys - cy) / ay) ** 2
        mask = np.clip((1.0 - inside) * 4.0, 0.0, 1.0).astype(np.float32)
        return np.asarray(cv2.GaussianBlur(mask, (0, 0), 0.04 * self.n.size[0]), np.float32)

    def glare_spot(self, time: float) -> np.ndarray:
        """(h, w) grey levels the glare adds at ``time``."""
        angle = 2 * np.pi * time / self._glare_period + self._glare_phase
        cx, cy = self._glare_centre + self._glare_swing * (math.cos(angle), math.sin(angle))
        r2 = (self._xs - cx) ** 2 + (self._ys - cy) ** 2
        return np.asarray(self.n.glare * np.exp(-r2 / (2 * self._glare_sigma ** 2)), np.float32)

    def lens(self, image: np.ndarray, time: float) -> np.ndarray:
        """The focus and the head over ``image`` (after the camera's motion, before light)."""
        sigma = self.focus_sigma(time)
        if sigma > 0.3:
            image = cv2.GaussianBlur(image, (0, 0), sigma)
        share = self.head_share(time)
        if share > 0:
            mask = self.head_mask(share)[..., None]
            image = (image * (1 - mask) + self._head_colour * mask).astype(np.uint8)
        return image

    def light(self, image: np.ndarray, time: float) -> None:
        """Add the glare spot to ``image`` (float, before noise) in place."""
        if self.n.glare > 0:
            image += self.glare_spot(time)[..., None]


def is_busy(nuisances: Nuisances) -> bool:
    """Whether ``nuisances`` asks for any of a busy hall's camera effects."""
    return bool(nuisances.glare > 0 or nuisances.head_at is not None
                or nuisances.focus_hunts_per_min > 0)
