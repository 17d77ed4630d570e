"""A sparse check that a known board is still where we think: the sign of its 49 X-corners.

Each inner corner of a checkerboard has two bright and two dark quadrants, and which pair
is bright alternates from corner to corner. Sampling four pixels per corner (196 reads of
the raw BGR frame, no colour conversion, no warp) tells three things at once: a corner
with contrast and the expected sign is in place; a corner without contrast is hidden
(hand, arm, tall piece); contrast with random signs means the board moved. Both the
tracker and the occlusion gate use it, each for its own decision.
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
    """Sample positions for one board location in one frame size; build once, use every frame."""

    xs: np.ndarray  # (49, 4) intp
    ys: np.ndarray  # (49, 4) intp
    inside: np.ndarray  # (49,) bool: all four samples fall in the frame
    sign: float  # +1 or -1: the polarity of corner (1, 1) on this board

    @classmethod
    def build(cls, location: BoardLocation, frame: np.ndarray, offset: float = 0.15) -> "GridProbe":
        """Place the samples and learn the board's polarity from ``frame`` (where it was found)."""
        d = np.array([[offset, offset], [-offset, -offset], [offset, -offset], [-offset, offset]], np.float32)
        pts = location.to_image((INNER_CORNERS[:, None, :] + d[None]).reshape(-1, 2)).reshape(49, 4, 2)
        h, w = frame.shape[:2]
        pts = np.nan_to_num(pts, nan=-1.0, posinf=-1.0, neginf=-1.0)
        xs, ys = np.rint(pts[..., 0]).astype(np.intp), np.rint(pts[..., 1]).astype(np.intp)
        inside = ((xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)).all(axis=1)
        xs, ys = np.clip(xs, 0, w - 1), np.clip(ys, 0, h - 1)
        probe = cls(xs, ys, inside, 1.0)
        signed = probe.signed(frame) * PARITY
        return cls(xs, ys, inside, 1.0 if signed[inside].sum() >= 0 else -1.0)

    def signed(self, frame: np.ndarray) -> np.ndarray:
        """(49,) quadrant contrast, summed over colour channels, before any parity."""
        v = frame[self.ys, self.xs].astype(np.float32)
        if v.ndim == 3:
            v = v.sum(axis=2)
        return v[:, 0] + v[:, 1] - v[:, 2] - v[:, 3]

    def check(self, frame: np.ndarray, min_contrast: float = 60.0) -> GridCheck:
        """Judge every corner in ``frame``; ``min_contrast`` is in summed-channel grey levels."""
        s = self.signed(frame) * PARITY * self.sign
        visible = (np.abs(s) >= min_contrast) & self.inside
        return GridCheck(visible, visible & (s > 0), np.abs(s))
