"""The glance: a cheap look at each frame that decides whether the vision must analyse it.

Why: most frames of a game show a still board, or a hand in motion over it. Registering the
board, the occlusion gate's cues and the piece reader cost many times what decoding a frame
costs; running them on every frame of a 30 or 60 fps camera spends a core on one board. A
move is never shorter than a few hundred milliseconds, so:

- while anything moves, or the board has not settled since, frames are analysed at most
  every ``moving_interval`` seconds of the frames' own timestamps (not every n-th frame: a
  15, 25, 30 or 60 fps camera is analysed at the same pace);
- once the board is settled and read (the caller says when: :mod:`vision.pipeline` waits
  until the occlusion gate has made the still board its normal), a frame whose small grey
  picture shows nothing changed since the last analysed frame is not analysed at all; the
  board is analysed again when the picture changes, and at least every ``still_interval``
  seconds (the follower's refits and the gate's clocks keep going).

The picture is ``width`` pixels wide: a hand or an arm covers many of its pixels, a camera
that wobbles by a few pixels moves it by a fraction of one. A pixel changed when it lies
more than ``level`` grey levels outside the range of its 3x3 neighbourhood in the other
picture, so such a shift is no change; ``pixels`` of them are a change.

The same comparison tells the reader whether a settled board must be read again: only when
its picture changed since it was read.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

#: Float slack on frame timestamps: frames 1/30 s apart are three intervals of 0.1 s.
_SLACK = 1e-6
_NEIGHBOURS = np.ones((3, 3), np.uint8)


@dataclass(frozen=True)
class GlanceConfig:
    width: int = 160  # pixels across the small grey picture
    level: float = 20.0  # grey levels outside the other picture's 3x3 range that make a pixel changed
    pixels: int = 4  # changed pixels that make the picture changed
    moving_interval: float = 1 / 15  # seconds between analysed frames while not settled (the gate is tuned on 15 fps and up)
    still_interval: float = 1.0  # seconds between analysed frames of a settled, unchanged board


def picture(image: np.ndarray, width: int) -> np.ndarray:
    """``image`` as a small grey picture ``width`` pixels wide (uint8): the green channel
    (most of what the eye calls brightness) of every fourth pixel of every fourth row,
    averaged down. A full colour conversion and resize would cost a good part of decoding."""
    sampled = image[::4, ::4, 1] if image.ndim == 3 else image[::4, ::4]
    height = max(1, round(width * sampled.shape[0] / sampled.shape[1]))
    small: np.ndarray = cv2.resize(np.ascontiguousarray(sampled), (width, height),
                                   interpolation=cv2.INTER_AREA)
    return small


def differs(now: np.ndarray, before: np.ndarray, cfg: GlanceConfig) -> bool:
    """Whether ``now`` shows a change from ``before`` beyond a shift of a pixel (both from
    :func:`picture`)."""
    if now.shape != before.shape:
        return True
    low, high = cv2.erode(before, _NEIGHBOURS), cv2.dilate(before, _NEIGHBOURS)
    outside = cv2.max(cv2.subtract(low, now), cv2.subtract(now, high))
    return int(np.count_nonzero(outside > cfg.level)) >= cfg.pixels


class Glance:
    """One board's glance; ask :meth:`wants` of every frame, in time order."""

    def __init__(self, cfg: GlanceConfig = GlanceConfig()) -> None:
        self.cfg = cfg
        self._analysed_at: float | None = None
        self._picture: np.ndarray | None = None  # of the last analysed frame
        self._scale = 1.0  # picture pixels per image pixel

    @property
    def picture(self) -> np.ndarray | None:
        """The small picture of the last frame :meth:`wants` chose (None before one)."""
        return self._picture

    def wants(self, image: np.ndarray, time: float, settled: np.ndarray | None) -> bool:
        """Whether to analyse this frame. ``settled``: None unless the board is settled and
        read (see the module's docstring); then the corners (image pixels) of what the occlusion gate
        watches, the board and its ring: people moving further off change nothing there. A
        frame chosen becomes the one the next are compared with."""
        cfg, last = self.cfg, self._analysed_at
        since = np.inf if last is None or time < last else time - last
        if since + _SLACK < cfg.moving_interval:
            return False
        now = picture(image, cfg.width)
        self._scale = now.shape[1] / image.shape[1]
        if (settled is not None and since + _SLACK < cfg.still_interval
                and not self._differs(now, self._picture, settled)):
            return False
        self._analysed_at, self._picture = time, now
        return True

    def changed_since(self, before: np.ndarray | None, corners: np.ndarray) -> bool:
        """Whether the last analysed frame's picture differs from ``before`` (one of this
        glance's :attr:`picture`; None: nothing to compare with, so changed) within the
        board, its ``corners`` given in image pixels: a hand on its way, still outside the
        board, changes nothing the reader sees."""
        return self._picture is None or self._differs(self._picture, before, corners)

    def _differs(self, now: np.ndarray, before: np.ndarray | None, corners: np.ndarray) -> bool:
        """:func:`differs` within the box around ``corners`` (image pixels)."""
        if before is None or before.shape != now.shape:
            return True
        height, width = before.shape
        x0, y0 = np.floor(corners.min(axis=0) * self._scale).astype(int) - 1
        x1, y1 = np.ceil(corners.max(axis=0) * self._scale).astype(int) + 2
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
        if x1 <= x0 or y1 <= y0:
            return True
        return differs(now[y0:y1, x0:x1], before[y0:y1, x0:x1], self.cfg)
