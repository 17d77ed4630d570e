"""Tell a change of light from a change on the board: divide out what the light did.

Why: the occlusion gate compares small cells of the board between frames. Real light
changes all of them at once: an auto exposure that steps or hunts, a white balance that
drifts, and mains flicker, which on a rolling shutter (each image row exposed at its own
time) lays bright and dark bands across the image that roll from frame to frame unless
the frame rate divides the flicker. None of that is a hand, yet each moves a cell by more
grey levels than a thin wrist does.

What light does is multiplicative and smooth along the image rows: a gain per band of
rows (flicker, exposure) times a gain per colour channel (white balance). Both are found
as medians of the log ratio of the two frames' cells, so a hand or a moved man, which
changes a minority of the cells in a band, does not pull them; a band's gain is also held
within ``max_gain`` (no light flickers by half, a hand's shadow-free skin does).
"""

from __future__ import annotations

import numpy as np

#: Height of a band of image rows (pixels): flicker bands on a slow rolling shutter are
#: about a hundred rows apart, so a band must be a small part of that.
BAND_ROWS = 12.0
#: Fewest and most bands over the cells' vertical extent.
BANDS = (8, 48)
#: Largest light change divided out, as a log ratio (about +-30 %).
MAX_GAIN = 0.3
#: Added before dividing so dark cells (black squares, a shadow) do not make noisy ratios.
FLOOR = 8.0
#: A cell this bright in any channel may be partly clipped by the sensor (a white square at
#: high gain, its noisy pixels at 255): it stays put while the rest of the board flickers.
CLIPPED = 220.0


def light_gain(current: np.ndarray, base: np.ndarray, rows: np.ndarray,
               max_gain: float = MAX_GAIN) -> tuple[np.ndarray, np.ndarray]:
    """The light's change from ``base`` to ``current`` (cells ``(h, w, c)`` float32) whose
    centres lie on image ``rows`` ``(h, w)``: ``(band_rows, band_log_gains)`` and the
    per-channel log gain ``(c,)``. See :func:`corrected` to apply them to any cells."""
    ratio = np.log((current + FLOOR) / (base + FLOOR))
    valid = ~clipped(current, base)
    if valid.sum() < 16:
        valid[:] = True
    grey = np.where(valid, ratio.mean(axis=2), np.nan)
    top, bottom = float(rows.min()), float(rows.max())
    bands = int(np.clip((bottom - top) / BAND_ROWS, *BANDS))
    edges = np.linspace(top, bottom + 1e-3, bands + 1)
    index = np.clip(np.searchsorted(edges, rows.ravel(), side="right") - 1, 0, bands - 1)
    # Every band's median from one sort: key = band + a value squeezed into [0, 1).
    squeezed = np.clip(grey.ravel(), -4.0, 4.0)
    missing = np.isnan(squeezed)
    counts = np.bincount(index[~missing], minlength=bands)
    key = np.sort(index[~missing] + (squeezed[~missing] + 4.0) / 8.0001)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    present = counts > 0
    if not present.any():
        return np.zeros((2, 1)), np.zeros(ratio.shape[2])
    middle = key[(starts + counts // 2)[present]]
    centres = 0.5 * (edges[:-1] + edges[1:])[present]
    gains = (middle - np.nonzero(present)[0]) * 8.0001 - 4.0
    band_rows = centres
    band_gains = np.clip(gains, -max_gain, max_gain)
    field = np.interp(rows, band_rows, band_gains)
    channel = np.median((ratio - field[..., None])[valid].reshape(-1, ratio.shape[2]), axis=0)
    return np.stack([band_rows, band_gains]), np.clip(channel, -max_gain, max_gain)


def corrected(cells: np.ndarray, rows: np.ndarray, bands: np.ndarray,
              channel: np.ndarray) -> np.ndarray:
    """``cells`` (on image ``rows``) with a light change from :func:`light_gain` divided out."""
    field = np.interp(rows, bands[0], bands[1])[..., None] + channel
    relit: np.ndarray = ((cells + FLOOR) * np.exp(-field) - FLOOR).astype(np.float32)
    return relit


def clipped(current: np.ndarray, base: np.ndarray) -> np.ndarray:
    """``(h, w)`` cells clipped by the sensor in either frame."""
    mask: np.ndarray = (current.max(axis=2) >= CLIPPED) | (base.max(axis=2) >= CLIPPED)
    return mask


def light_change(current: np.ndarray, base: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """What changed from ``base`` to ``current`` that the light does not explain, per cell
    and channel (grey levels)."""
    bands, channel = light_gain(current, base, rows)
    return unexplained(corrected(current, rows, bands, channel), current, base)


def unexplained(relit: np.ndarray, current: np.ndarray, base: np.ndarray) -> np.ndarray:
    """``relit - base`` (``relit``: ``current`` in ``base``'s light). A channel of a cell near
    clipping in both frames cannot be relit; only what exceeds the largest change of light
    counts there. (Bright in one frame only is a change no light makes: a bright sleeve
    over a dark table.)"""
    change: np.ndarray = relit - base
    bright = (current >= CLIPPED) & (base >= CLIPPED)
    raw = (current - base)[bright]
    allowed = (1 - np.exp(-MAX_GAIN)) * np.maximum(current, base)[bright]
    change[bright] = np.sign(raw) * np.maximum(np.abs(raw) - allowed, 0.0)
    return change


def noise_level(difference: np.ndarray) -> float:
    """Standard deviation of the cell noise, from the median absolute change (most cells of
    a board do not change between two frames; those that do do not move the median)."""
    return 1.4826 * float(np.median(np.abs(difference)))
