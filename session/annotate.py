"""The referee's camera view: the frame with the detected grid and the reading drawn on it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import cv2
import numpy as np

from makhos.vision.reading import LABELS
from makhos.vision.pipeline import FrameResult
from makhos.vision.rectify import played_cells

from .health import VisionHealth

_GATE_COLOURS = {"still": (80, 200, 80), "moving": (0, 200, 255), "occluded": (0, 0, 255),
                 "no_board": (128, 128, 128)}


def annotate(image: np.ndarray, result: FrameResult) -> np.ndarray:
    """A copy of the frame with the board outline, the grid and each square's reading."""
    out = image.copy()
    state = result.gate.state.value
    colour = _GATE_COLOURS.get(state, (255, 255, 255))
    cv2.putText(out, state, (12, 32), cv2.FONT_HERSHEY_SIMPLEX, 1.0, colour, 2, cv2.LINE_AA)
    location = result.location
    if location is None:
        return out
    lines = []
    for k in range(9):
        lines += [[(k, 0), (k, 8)], [(0, k), (8, k)]]
    points = location.to_image(np.asarray(lines, np.float32).reshape(-1, 2)).reshape(-1, 2, 2)
    for a, b in points:
        if np.all(np.isfinite([a, b])):
            cv2.line(out, tuple(int(v) for v in a), tuple(int(v) for v in b), colour, 1, cv2.LINE_AA)
    if result.reading is not None and result.played is not None:
        cells = played_cells(result.played)
        centres = location.to_image(cells[:, ::-1].astype(np.float32) + 0.5)
        labels = result.reading.labels()
        for square, (x, y) in enumerate(centres, start=1):
            text = LABELS[labels[square - 1]]
            if text != "." and np.isfinite(x) and np.isfinite(y):
                cv2.putText(out, text, (int(x) - 6, int(y) + 6), cv2.FONT_HERSHEY_SIMPLEX, 0.6,
                            (255, 0, 255), 2, cv2.LINE_AA)
    return out


def write_snapshot(folder: Path, board: str, image: np.ndarray, quality: int = 80) -> None:
    """Write ``<folder>/<board>.jpg`` atomically: a reader never sees half a file."""
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if ok:
        write_atomic(folder, f"{board}.jpg", data.tobytes())


def write_health(folder: Path, board: str, health: VisionHealth) -> None:
    """Write ``<folder>/<board>.json``, the board's vision health, atomically."""
    write_atomic(folder, f"{board}.json", json.dumps(health.to_json()).encode())


def write_atomic(folder: Path, name: str, data: bytes) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    partial = folder / f".{name}.part"
    partial.write_bytes(data)
    os.replace(partial, folder / name)


class CameraView:
    """Keeps ``<folder>/<board>.jpg`` up to date, at most ``fps`` times a second of source time
    (encoding a JPEG per frame would cost more than reading the board)."""

    def __init__(self, folder: Path, board: str, fps: float = 5.0) -> None:
        self.folder, self.board, self.every = folder, board, 1.0 / fps
        self._last = float("-inf")

    def offer(self, image: np.ndarray, result: FrameResult, health: VisionHealth | None = None) -> None:
        """The frame and what vision made of it; ``health``, the board's vision health, is
        written beside the picture (``<board>.json``) for the console and the API."""
        if result.time - self._last >= self.every or result.time < self._last:
            self._last = result.time
            write_snapshot(self.folder, self.board, annotate(image, result))
            if health is not None:
                write_health(self.folder, self.board, health)
