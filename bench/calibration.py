"""Calibration figures: the lens, one-shot adaptation to a new piece set, real webcam frames.

    python bench/calibration.py                  # all three parts
    python bench/calibration.py --part lens --views 8 --tests 40
    python bench/calibration.py --choose-margin  # sweep KING_MARGIN on training palettes

(a) ``lens``: a 1280x720 camera with strong barrel distortion (k1 = -0.35, k2 = 0.10: a
    straight board edge near the image border bows by tens of pixels). It is calibrated
    from a few frames of the empty board, moved a little between frames as a person would;
    then, on other frames with men on the board, each frame is undistorted with the fitted
    lens and the board found there. Corner error = distance from each found outer corner to
    where the true corner lands in that undistorted image (goal <= 1 px); the same without
    a lens (the board found in the raw frame, against the raw truth) for comparison.
(b) ``adaptation``: held-out board and piece palettes (never seen in training); per scene a
    start-position frame fits the adaptation, then later positions with kings are read
    before (the network as is) and after. Per-square accuracy, and man-vs-king separately.
(c) ``real``: ../shared/realdata/julie-robot-webcam (skipped when absent): each set-up is
    calibrated from its ``calib/`` frames (the empty board for the lens, the start position
    for the adaptation) and its labelled frames are read before and after, with the
    corners of ``bench/realdata_corners.json`` (as ``bench/realdata.py``).
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core, before numpy loads

import argparse
import dataclasses
import json
import platform
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calibration import adaptation as adaptation_module  # noqa: E402
from calibration.adaptation import (AdaptedClassifier, fit_adaptation, log_odds,  # noqa: E402
                                    model_fingerprint)
from calibration.intrinsics import calibrate_lens, inner_corners  # noqa: E402
from models.render import Renderer, random_position, sample_scene  # noqa: E402
from models.render.camera import Camera  # noqa: E402
from vision.classifier import DEFAULT_MODEL, LABELS, SquareClassifier, labels_of  # noqa: E402
from vision.geometry import corner_error  # noqa: E402
from vision.lens import Lens  # noqa: E402
from vision.locate import locate_board  # noqa: E402
from vision.rectify import crop_squares  # noqa: E402

from realdata import CORNERS, ROOT as REAL_ROOT, labels_from_name  # noqa: E402

STRONG_BARREL = np.array([-0.35, 0.10, 0.0, 0.0, 0.0])
START = "l" * 8 + "." * 16 + "d" * 8  # the 8-man start, squares 1..32


# ------------------------------------------------------------------------------- (a) lens

def moved_board(camera: Camera, rng: np.random.Generator, tilt_deg: float = 10.0,
                shift: float = 0.6) -> Camera | None:
    """The camera as it sees the board tilted, turned and slid a little (None: out of view)."""
    angles = np.radians(rng.uniform(-tilt_deg, tilt_deg, 3) * [1, 1, 1.5])
    turn, _ = cv2.Rodrigues(angles)
    centre = np.array([4.0, 4.0, 0.0])
    slide = np.array([*rng.uniform(-shift, shift, 2), 0.0])
    # world point X seen at turn @ (X - centre) + centre + slide
    R = camera.R @ turn
    t = camera.t + camera.R @ (centre + slide - turn @ centre)
    moved = dataclasses.replace(camera, R=R, t=t)
    corners = moved.project(np.array([[-1, -1, 0], [9, -1, 0], [9, 9, 0], [-1, 9, 0]], float))
    w, h = camera.size
    inside = (corners > 2).all() and (corners[:, 0] < w - 3).all() and (corners[:, 1] < h - 3).all()
    return moved if inside else None


def poses(scene, rng: np.random.Generator, n: int) -> list:
    out = []
    while len(out) < n:
        camera = moved_board(scene.camera, rng)
        if camera is not None:
            out.append(dataclasses.replace(scene, camera=camera))
    return out


def lens_figures(scenes: int, views: int, tests: int, seed: int = 1) -> None:
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(scenes):
        scene = sample_scene(rng, held_out=True, size=(1280, 720))
        scene = dataclasses.replace(scene, camera=dataclasses.replace(scene.camera, dist=STRONG_BARREL))
        found = [inner_corners(Renderer(s).render({}, seed=k).image)
                 for k, s in enumerate(poses(scene, rng, views))]
        found = [f for f in found if f is not None]
        if len(found) < 1:
            print(f"  {scene.board.palette.name}: no empty-board view found")
            continue
        start = time.perf_counter()
        fit = calibrate_lens(found, (1280, 720))
        fit_s = time.perf_counter() - start
        after, before = [], []
        for k, s in enumerate(poses(scene, rng, tests // scenes)):
            frame = Renderer(s).render({q + 1: START[q] for q in range(32) if START[q] != "."}, seed=k)
            raw = locate_board(frame.image)
            if raw is not None:
                before.append(corner_error(raw.corners, frame.corners))
            ideal = locate_board(fit.lens.undistort(frame.image))
            if ideal is not None:
                after.append(corner_error(ideal.corners, fit.lens.undistort_points(frame.corners)))
        true_k = scene.camera.K
        rows.append((fit, after, before))
        print(f"  {scene.board.palette.name:14s} {scene.board.border:6s} views {fit.views:2d}  rms "
              f"{fit.rms:.2f} px  f {fit.lens.matrix[0, 0]:.0f} (true {true_k[0, 0]:.0f})  "
              f"k1 {fit.lens.distortion[0]:+.3f} k2 {fit.lens.distortion[1]:+.3f}  fit {fit_s:.2f} s  "
              f"corner error after: max {max(after, default=np.nan):.2f} px, "
              f"without lens: max {max(before, default=np.nan):.2f} px ({len(after)} frames)")
    after = np.concatenate([r[1] for r in rows])
    before = np.concatenate([r[2] for r in rows])
    print(f"(a) strong barrel 1280x720: {len(rows)} cameras, {len(after)} test frames; corner error "
          f"after undistortion median {np.median(after):.2f} px, p95 {np.percentile(after, 95):.2f} px, "
          f"max {after.max():.2f} px, within 1 px {100 * np.mean(after <= 1):.1f} %; "
          f"without a lens median {np.median(before):.2f} px, max {before.max():.2f} px")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--part", choices=("lens", "adaptation", "real", "all"), default="all")
    parser.add_argument("--cameras", type=int, default=6)
    parser.add_argument("--views", type=int, default=8, help="empty-board frames per camera")
    parser.add_argument("--tests", type=int, default=60, help="test frames in all (lens)")
    args = parser.parse_args()
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"python {platform.python_version()}, OpenCV {cv2.__version__}")
    if args.part in ("lens", "all"):
        lens_figures(args.cameras, args.views, args.tests)
    return 0


if __name__ == "__main__":
    sys.exit(main())
