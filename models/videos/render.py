"""Render a scripted game to a video file, with its truth beside it.

Still shots are rendered once and given fresh sensor noise per frame (re-rendering would
also re-jitter the pieces, which a real still board never does); shots with a hand are
rendered frame by frame along the hand's path.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict
from pathlib import Path

import cv2
import numpy as np

from engine.pdn import write_game
from models.render import Hand, Renderer, Scene

from .script import FPS, GameScript, Shot


def _hand_at(shot: Shot, t: float, height: float, skin, sleeve) -> Hand:
    """The hand at fraction ``t`` of the shot: fingertip along the path, arm toward its side."""
    points = np.asarray(shot.path, float)
    legs = np.linalg.norm(np.diff(points, axis=0), axis=1)
    total = max(legs.sum(), 1e-6)
    distance = t * total
    for k, leg in enumerate(legs):
        if distance <= leg or k == len(legs) - 1:
            u = min(distance / max(leg, 1e-6), 1.0)
            tip = points[k] + u * (points[k + 1] - points[k])
            break
        distance -= leg
    angle = math.pi / 2 if shot.side == "dark" else -math.pi / 2
    return Hand(tip=(float(tip[0]), float(tip[1])), angle=angle, height=height, width=1.1,
                skin=skin, sleeve=sleeve)


def frames(script: GameScript, scene: Scene, seed: int = 0, noise_level: float = 2.0):
    """Yield the BGR frames of the script, in order; ``noise_level`` is the per-frame sensor
    noise (grey levels, standard deviation), which is also what makes a video file large."""
    renderer = Renderer(scene)
    rng = np.random.default_rng(seed)
    skin = tuple(int(v) for v in rng.integers(80, 200, 3))
    sleeve = tuple(int(v) for v in rng.integers(20, 230, 3))
    noise = np.empty((*renderer.background.shape[:2], 3), np.int16)
    for index, shot in enumerate(script.shots):
        if not shot.path:
            still = renderer.render(shot.board, seed=seed * 100003 + index).image.astype(np.int16)
            for _ in range(shot.frames):
                cv2.randn(noise, 0, noise_level)  # type: ignore[call-overload]  # scalars are fine
                yield np.clip(still + noise, 0, 255).astype(np.uint8)
            continue
        height = float(rng.uniform(0.4, 1.2))
        for k in range(shot.frames):
            t = (k + 0.5) / shot.frames
            board = shot.board if t < 0.5 or shot.after is None else shot.after
            hand = _hand_at(shot, t, height, skin, sleeve)
            yield renderer.render(board, hand=hand, seed=seed * 100003 + index).image


def write_video(script: GameScript, scene: Scene, path: Path, seed: int = 0,
                noise_level: float = 2.0) -> Path:
    """Write ``path`` (MP4) and beside it the true PDN (``.pdn``) and events (``.truth.jsonl``)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    width, height = scene.camera.size
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"mp4v"), FPS, (width, height))
    if not writer.isOpened():
        raise RuntimeError(f"cannot write video {path}: no MP4 encoder in this OpenCV")
    try:
        for frame in frames(script, scene, seed, noise_level):
            writer.write(frame)
    finally:
        writer.release()
    assert script.game is not None  # script_game records the game it scripted
    path.with_suffix(".pdn").write_text(write_game(script.game), encoding="utf-8")
    with path.with_suffix(".truth.jsonl").open("w", encoding="utf-8") as out:
        for event in script.events:
            out.write(json.dumps(asdict(event)) + "\n")
    return path
