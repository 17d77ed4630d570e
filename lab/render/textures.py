"""Top-down textures of the board and the table, drawn once per scene.

The board is drawn in its own frame at ``TEXTURE_PPS`` pixels per square and warped into
the camera image with a homography; only pieces, shadows and hands change between frames.
"""

from __future__ import annotations

import cv2
import numpy as np

from .scene import BoardStyle

TEXTURE_PPS = 64


def smooth_noise(rng: np.random.Generator, shape: tuple[int, int], cells: int) -> np.ndarray:
    """Low-frequency noise in [-1, 1]: a coarse random grid upsampled smoothly."""
    coarse = rng.uniform(-1, 1, (cells, cells)).astype(np.float32)
    return cv2.resize(coarse, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)


def _wood_grain(rng: np.random.Generator, size: int, vertical: bool) -> np.ndarray:
    """Brightness factors of a wood grain patch (~0.85..1.1): stretched noise and rings."""
    freq = rng.uniform(15, 40)
    y, x = np.mgrid[0:size, 0:size].astype(np.float32) / size
    warp = smooth_noise(rng, (size, size), 4) * rng.uniform(0.05, 0.2)
    across = (x if vertical else y) + warp
    lines = np.sin(2 * np.pi * freq * across + 3 * smooth_noise(rng, (size, size), 3))
    fibre = cv2.resize(rng.normal(0, 1, (size, 4) if not vertical else (4, size)).astype(np.float32),
                       (size, size), interpolation=cv2.INTER_LINEAR)
    return np.asarray(1.0 + 0.06 * lines + 0.03 * fibre)


def board_texture(style: BoardStyle) -> tuple[np.ndarray, float]:
    """The board drawn top-down, and its margin in squares beyond the playing area.

    Dark squares are those with row + col odd in the board's own frame (row 0 at the top),
    the same parity as the engine's played squares for play on the dark squares.
    """
    rng = np.random.default_rng(style.texture_seed)
    ring = 1.0 if style.border == "outer" else 0.0
    margin = ring + style.border_width
    pps = TEXTURE_PPS
    size = int(round((8 + 2 * margin) * pps))
    off = margin * pps
    tex = np.empty((size, size, 3), np.float32)
    tex[:] = style.frame_colour
    if style.palette.texture == "wood" or rng.random() < 0.3:
        tex *= _wood_grain(rng, size, bool(rng.random() < 0.5))[..., None]

    light = np.asarray(style.palette.light, np.float32)
    dark = np.asarray(style.palette.dark, np.float32)
    n = 8 + 2 * int(ring)
    first = -int(ring)
    wood = style.palette.texture == "wood"
    grains = [_wood_grain(rng, pps, v) for v in (False, True)] if wood else None
    for r in range(first, first + n):
        for c in range(first, first + n):
            y0 = int(round(off + r * pps))
            x0 = int(round(off + c * pps))
            colour = dark if (r + c) % 2 else light
            colour = colour * (1 + rng.normal(0, 0.02))
            patch = np.broadcast_to(colour, (pps, pps, 3)).copy()
            if grains is not None:  # a wooden board
                patch *= grains[(r + c) % 2][..., None]
            tex[y0:y0 + pps, x0:x0 + pps] = patch

    if style.palette.texture == "paper":
        tex += rng.normal(0, 4, tex.shape[:2])[..., None].astype(np.float32)
        for k in range(9):  # printed grid lines
            p = int(round(off + k * pps))
            cv2.line(tex, (int(off), p), (int(off + 8 * pps), p), (60, 60, 60), 1, cv2.LINE_AA)
            cv2.line(tex, (p, int(off)), (p, int(off + 8 * pps)), (60, 60, 60), 1, cv2.LINE_AA)
    if style.tape_colour is not None:
        band = rng.uniform(0.6, 1.05) * pps
        tape = np.zeros(tex.shape[:2], np.uint8)
        cv2.rectangle(tape, (int(off - band), int(off - band)),
                      (int(off + 8 * pps + band), int(off + 8 * pps + band)), 255, -1)
        cv2.rectangle(tape, (int(off), int(off)), (int(off + 8 * pps), int(off + 8 * pps)), 0, -1)
        shade = 1 + 0.05 * smooth_noise(rng, tex.shape[:2], 12)[..., None]
        tex = np.where(tape[..., None] > 0, np.asarray(style.tape_colour, np.float32) * shade, tex)
    if style.edge_line is not None:
        cv2.rectangle(tex, (int(off), int(off)), (int(off + 8 * pps), int(off + 8 * pps)),
                      style.edge_line, max(1, pps // 24), cv2.LINE_AA)
    tex *= 1 + 0.04 * smooth_noise(rng, tex.shape[:2], 6)[..., None]
    return np.clip(tex, 0, 255).astype(np.uint8), margin


def table_texture(colour: tuple[int, int, int], seed: int, size: tuple[int, int]) -> np.ndarray:
    """The surface around the board, in image space: a colour with smooth shading and speckle."""
    rng = np.random.default_rng(seed)
    w, h = size
    base = np.asarray(colour, np.float32) * (1 + 0.12 * smooth_noise(rng, (h, w), 4)[..., None])
    speckle = cv2.resize(rng.normal(0, 6, (h // 2, w // 2)).astype(np.float32), (w, h))
    return np.clip(base + speckle[..., None], 0, 255).astype(np.uint8)
