"""A sparse check that a known board is still where we think: the sign of its 49 X-corners.

Each inner corner of a checkerboard has two bright and two dark quadrants, and which pair
is bright alternates from corner to corner. Sampling four pixels per corner (196 reads of
the raw BGR frame, no colour conversion, no warp) tells three things at once: a corner
with contrast and the expected sign is in place; a corner without contrast is hidden
(hand, arm, tall piece); contrast with random signs means the board moved. Both the
follower and the occlusion gate use it, each for its own decision.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .geometry import BoardLocation
from .locate import INNER_CORNERS

#: +1 / -1 by the parity of each inner corner: the polarity pattern of any checkerboard.
PARITY = np.where(INNER_CORNERS.sum(axis=1) % 2 == 0, 1.0, -1.0).astype(np.float32)


@dataclass(frozen=True)
class GridCheck:
    """What the probe saw in one frame.

    ``visible``: (49,) bool, corners with enough contrast to judge; ``agrees``: (49,) bool,
    visible corners with the expected polarity; ``contrast``: (49,) float, unsigned.
    """

    visible: np.ndarray
    agrees: np.ndarray
    contrast: np.ndarray

    @property
    def n_visible(self) -> int:
        return int(self.visible.sum())

    @property
    def agreement(self) -> float:
        """Share of the visible corners with the expected sign (0.5 is chance)."""
        n = self.n_visible
        return float(self.agrees.sum() / n) if n else 0.0


@dataclass(frozen=True)
class GridProbe:
    """Sample positions for one board location in one frame size; build once, use every frame.

    The colours are weighed along the axis between the board's two square colours, learnt
    when the probe is built: on a red and green board the plain sum of the colour planes
    hardly differs between the squares, the projection does.
    """

    xs: np.ndarray  # (49, 4) intp
    ys: np.ndarray  # (49, 4) intp
    inside: np.ndarray  # (49,) bool: all four samples fall in the frame
    weights: np.ndarray  # (channels,) colour axis, signed so corner (1, 1) reads positive
    threshold: float  # contrast below which a corner counts as hidden

    @staticmethod
    def _positions(
        location: BoardLocation, shape: tuple[int, ...], offset: float
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        d = np.array(
            [[offset, offset], [-offset, -offset], [offset, -offset], [-offset, offset]], np.float32
        )
        pts = location.to_image((INNER_CORNERS[:, None, :] + d[None]).reshape(-1, 2)).reshape(
            49, 4, 2
        )
        h, w = shape[:2]
        pts = np.nan_to_num(pts, nan=-1.0, posinf=-1.0, neginf=-1.0)
        xs, ys = np.rint(pts[..., 0]).astype(np.intp), np.rint(pts[..., 1]).astype(np.intp)
        inside = ((xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)).all(axis=1)
        return np.clip(xs, 0, w - 1), np.clip(ys, 0, h - 1), inside

    def moved_to(
        self, location: BoardLocation, shape: tuple[int, ...], offset: float = 0.15
    ) -> GridProbe:
        """The same colour axis at another location: checks that a refit kept the polarity
        (a refit that slid by one square would see every corner inverted)."""
        xs, ys, inside = self._positions(location, shape, offset)
        return GridProbe(xs, ys, inside, self.weights, self.threshold)

    @classmethod
    def build(
        cls,
        location: BoardLocation,
        frame: np.ndarray,
        offset: float = 0.15,
        min_contrast: float = 20.0,
    ) -> GridProbe:
        """Place the samples and learn the board's colour axis from ``frame`` (where it was found).

        A corner is judged hidden below 35 % of the typical contrast seen at build time
        (never below ``min_contrast`` grey levels).
        """
        xs, ys, inside = cls._positions(location, frame.shape, offset)
        per_channel = _quadrant_contrast(frame[ys, xs].astype(np.float32)) * PARITY[:, None]
        weights = per_channel[inside].mean(axis=0)
        weights /= max(float(np.abs(weights).sum()), 1e-6)
        typical = np.percentile(np.abs(per_channel @ weights)[inside], 75) if inside.any() else 0.0
        return cls(
            xs, ys, inside, weights.astype(np.float32), max(min_contrast, 0.35 * float(typical))
        )

    def signed(self, frame: np.ndarray) -> np.ndarray:
        """(49,) quadrant contrast along the board's colour axis, before any parity."""
        signed: np.ndarray = _quadrant_contrast(frame[self.ys, self.xs].astype(np.float32)) @ self.weights
        return signed

    def check(self, frame: np.ndarray) -> GridCheck:
        """Judge every corner in ``frame``."""
        s = self.signed(frame) * PARITY
        visible = (np.abs(s) >= self.threshold) & self.inside
        return GridCheck(visible, visible & (s > 0), np.abs(s))


def _quadrant_contrast(v: np.ndarray) -> np.ndarray:
    """(49, channels): (+,+) and (-,-) quadrants minus the other two, per colour plane."""
    if v.ndim == 2:
        v = v[..., None]
    contrast: np.ndarray = v[:, 0] + v[:, 1] - v[:, 2] - v[:, 3]
    return contrast
