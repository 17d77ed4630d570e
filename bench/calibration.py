"""Calibration figures: the lens, one-shot adaptation to a new piece set, real webcam frames.

    python -m bench.calibration                  # all three parts
    python -m bench.calibration --part lens --views 8 --tests 40
    python -m bench.calibration --choose-margin  # sweep KING_MARGIN on training palettes

(a) ``lens``: a 1280x720 camera with strong barrel distortion (k1 = -0.35, k2 = 0.10: a
    straight board edge near the image border bows by tens of pixels). It is calibrated
    from a few frames of the empty board, moved a little between frames as a person would;
    then, on other frames with men on the board, each frame is undistorted with the fitted
    lens and the board found there. Corner error = distance from each found outer corner to
    where the true corner lands in that undistorted image (goal <= 1 px); the same without
    a lens (the board found in the raw frame, against the raw truth) for comparison, and
    with the true lens (what the corner finder itself adds). The lens's own share is
    measured apart: the true inner corners undistorted with the fitted lens, extended to
    the outer corners by one homography, against where the true outer corners land.
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
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np


from makhos.calibration import adaptation as adaptation_module
from makhos.calibration.adaptation import (AdaptedClassifier, SetAdaptation, fit_adaptation,
                                           log_odds, model_fingerprint)
from makhos.calibration.intrinsics import calibrate_lens, inner_corners
from lab.tally import Tally
from lab.realdata import JULIE, JULIE_CORNERS as CORNERS, ROOT
from lab.realdata import julie_labels as labels_from_name
from lab.render import Renderer, random_position, sample_scene
from lab.render.camera import Camera
from lab.render.scene import Scene
from makhos.vision.classifier import DEFAULT_MODEL, SquareClassifier
from makhos.vision.reading import labels_of
from makhos.vision.geometry import corner_error
from makhos.vision.lens import Lens
from makhos.vision.locate import locate_board
from makhos.vision.squares import SquareReader
from makhos.vision.rectify import SquareCrops, crop_squares
from makhos.vision.sources import read_image


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


def poses(scene: Scene, rng: np.random.Generator, n: int) -> list[Scene]:
    out: list[Scene] = []
    while len(out) < n:
        camera = moved_board(scene.camera, rng)
        if camera is not None:
            out.append(dataclasses.replace(scene, camera=camera))
    return out


def outer_corner_error(camera: Camera, lens: Lens) -> float:
    """The calibration's own error: the true inner corners undistorted with ``lens``, one
    homography through them, and its outer corners against where the true ones land
    (pixels, worst corner). Zero for a perfect lens, whatever the corner finder does."""
    grid = np.stack(np.meshgrid(np.arange(1.0, 8.0), np.arange(1.0, 8.0)), -1).reshape(-1, 2)
    inner = lens.undistort_points(camera.project(np.column_stack([grid, np.zeros(49)])))
    h, _ = cv2.findHomography(grid, inner, 0)
    outer = np.array([[0.0, 0.0], [8.0, 0.0], [8.0, 8.0], [0.0, 8.0]])
    predicted = cv2.perspectiveTransform(outer.reshape(-1, 1, 2), h).reshape(-1, 2)
    truth = lens.undistort_points(camera.project(np.column_stack([outer, np.zeros(4)])))
    return float(np.linalg.norm(predicted - truth, axis=1).max())


def lens_figures(scenes: int, views: int, tests: int, seed: int = 1) -> None:
    rng = np.random.default_rng(seed)
    own: list[float] = []
    through: list[float] = []
    found: list[float] = []
    floor: list[float] = []
    raw: list[float] = []
    for _ in range(scenes):
        scene = sample_scene(rng, held_out=True, size=(1280, 720))
        scene = dataclasses.replace(scene, camera=dataclasses.replace(scene.camera, dist=STRONG_BARREL))
        seen = [v for v in (inner_corners(Renderer(s).render({}, seed=k).image)
                            for k, s in enumerate(poses(scene, rng, views))) if v is not None]
        if not seen:
            print(f"  {scene.board.palette.name}: no empty-board view found")
            continue
        fit = calibrate_lens(seen, (1280, 720))
        true = Lens(scene.camera.K, scene.camera.dist, (1280, 720))
        n = len(own)
        for k, s in enumerate(poses(scene, rng, tests // scenes)):
            frame = Renderer(s).render({q + 1: START[q] for q in range(32) if START[q] != "."}, seed=k)
            own.append(outer_corner_error(s.camera, fit.lens))
            # What makhos run does with a profile: the board found in the camera's frame,
            # its corners placed through the fitted lens, then taken into the ideal image.
            location = locate_board(frame.image, lens=fit.lens)
            through.append(np.inf if location is None else corner_error(
                fit.lens.undistort_points(location.corners), fit.lens.undistort_points(frame.corners)))
            errors: list[float] = []
            for lens, image in ((fit.lens, fit.lens.undistort(frame.image)),
                                (true, true.undistort(frame.image)), (None, frame.image)):
                location = locate_board(image)
                expected = frame.corners if lens is None else lens.undistort_points(frame.corners)
                errors.append(np.inf if location is None else corner_error(location.corners, expected))
            found.append(errors[0])
            floor.append(errors[1])
            raw.append(errors[2])
        print(f"  {scene.board.palette.name:14s} {scene.board.border:6s} views {fit.views:2d}  rms "
              f"{fit.rms:.2f} px  f {fit.lens.matrix[0, 0]:5.0f} (true {scene.camera.K[0, 0]:5.0f})  "
              f"bend {fit.lens.bend:+.3f} (true k1 {STRONG_BARREL[0]:+.2f})  max corner error: "
              f"lens alone {max(own[n:]):.2f} px, found through the lens {max(through[n:]):.2f} px, "
              f"found after undistortion {max(found[n:]):.2f} px (true lens {max(floor[n:]):.2f}), "
              f"found in the raw frame {max(raw[n:]):.2f} px")
    alone, through_px, found_px, floor_px, raw_px = (np.array(v) for v in (own, through, found, floor, raw))
    print(f"(a) strong barrel 1280x720, {len(alone)} test frames: outer-corner error of the fitted lens "
          f"alone median {np.median(alone):.2f} px, max {alone.max():.2f} px, within 1 px "
          f"{100 * np.mean(alone <= 1):.1f} %; board found through the fitted lens (makhos run with a "
          f"profile) median {np.median(through_px):.2f} px, p95 {np.percentile(through_px, 95):.2f} px, "
          f"max {through_px.max():.2f} px, within 1 px {100 * np.mean(through_px <= 1):.1f} %; board found "
          f"after undistortion median {np.median(found_px):.2f} px, p95 {np.percentile(found_px, 95):.2f} px, "
          f"max {found_px.max():.2f} px (with the true lens: median {np.median(floor_px):.2f}, max "
          f"{floor_px.max():.2f}); found in the raw frame median {np.median(raw_px):.2f} px, max "
          f"{raw_px.max():.2f} px")


# ------------------------------------------------------------------------- (b) adaptation

def later_position(rng: np.random.Generator) -> dict[int, str]:
    """A position of the middle or end game: fewer men, some kings."""
    return random_position(rng, occupancy=rng.uniform(0.15, 0.6), king_share=rng.uniform(0.1, 0.5))


#: One scene's run: the scene, the network, the adaptation fitted on its start frame, and its
#: later frames' crops with their true labels.
AdaptationRun = tuple[Scene, SquareClassifier, SetAdaptation, list[tuple[SquareCrops, str]]]


def adaptation_runs(held_out: bool, scenes: int, frames: int, seed: int) -> Iterator[AdaptationRun]:
    """Per scene: the adaptation fitted on its start frame and the network's outputs on its
    later frames (crops, labels), for the tallies and the margin sweep."""
    network = SquareClassifier()
    fingerprint = model_fingerprint(DEFAULT_MODEL)
    rng = np.random.default_rng(seed)
    start = {q + 1: START[q] for q in range(32) if START[q] != "."}
    for _ in range(scenes):
        scene = sample_scene(rng, held_out=held_out)
        renderer = Renderer(scene)
        first = renderer.render(start, seed=0)
        fitted = fit_adaptation(network, first.image, first.corners, first.played, START, fingerprint)
        later: list[tuple[SquareCrops, str]] = []
        for k in range(frames):
            frame = renderer.render(later_position(rng), seed=k + 1)
            later.append((crop_squares(frame.image, frame.corners, frame.played), "".join(frame.squares)))
        yield scene, network, fitted, later


def adaptation_figures(scenes: int, frames: int) -> None:
    before, after = Tally(), Tally()
    for scene, network, fitted, later in adaptation_runs(True, scenes, frames, seed=2):
        adapted = AdaptedClassifier(network, fitted)
        b, a = Tally(), Tally()
        for crops, truth in later:
            for tally, whole in ((b, before), (a, after)):
                read = labels_of((network if tally is b else adapted).classify(crops))
                tally.add(np.array(list(truth)), np.array(list(read)))
                whole.add(np.array(list(truth)), np.array(list(read)))
        print(f"  {scene.pieces.pieces.name:14s} on {scene.board.palette.name:14s} king threshold "
              f"{fitted.king_threshold:+5.2f}  before {100 * (1 - b.square_error):6.2f} %  after "
              f"{100 * (1 - a.square_error):6.2f} %")
    print(f"(b) held-out palettes, {scenes} scenes x {frames} later frames with kings:\n"
          f"    before: {before.line()}\n    after:  {after.line()}")


def choose_margin(scenes: int, frames: int) -> None:
    """The man/king error over KING_MARGIN values on TRAINING palettes (never the held-out)."""
    rows = []
    for _, network, fitted, later in adaptation_runs(False, scenes, frames, seed=11):
        men_level = fitted.king_threshold - adaptation_module.KING_MARGIN
        for crops, truth in later:
            _, king_odds = log_odds(network.outputs(crops)[0])
            rows += [(king_odds[i] - men_level, king_odds[i], t) for i, t in enumerate(truth) if t != "."]
    odds, raw = np.array([r[0] for r in rows]), np.array([r[1] for r in rows])
    king = np.array([r[2] in "LD" for r in rows])
    print(f"  the network as is (threshold 0 for every set): men read as kings "
          f"{100 * np.mean(raw[~king] > 0):5.2f} %, kings read as men {100 * np.mean(raw[king] <= 0):5.2f} %")
    print(f"KING_MARGIN sweep on training palettes ({scenes} scenes, {len(rows)} pieces; now "
          f"{adaptation_module.KING_MARGIN}):")
    for margin in np.arange(0.0, 6.5, 0.5):
        men_err, king_err = np.mean(odds[~king] > margin), np.mean(odds[king] <= margin)
        print(f"  {margin:3.1f}: men read as kings {100 * men_err:5.2f} %, kings read as men "
              f"{100 * king_err:5.2f} %, mean {50 * (men_err + king_err):5.2f} %")


# ------------------------------------------------------------------------------- (c) real

REAL_ROOT = ROOT / JULIE


def real_figures() -> None:
    if not REAL_ROOT.exists():
        print(f"(c) skipped: {REAL_ROOT} is absent")
        return
    network = SquareClassifier()
    fingerprint = model_fingerprint(DEFAULT_MODEL)
    start12 = "l" * 12 + "." * 8 + "d" * 12
    setups = {k: v for k, v in json.loads(CORNERS.read_text()).items() if not k.startswith("_")}
    totals = {"before": [0, 0, 0], "after": [0, 0, 0]}  # squares, right, occupancy+side right
    for setup, info in setups.items():
        folder = REAL_ROOT / setup
        corners, played = np.asarray(info["corners"], float), info["played"]
        lens = None
        if (folder / "calib" / "empty.jpg").exists():
            empty = read_image(folder / "calib" / "empty.jpg")
            view = inner_corners(empty)
            lens = calibrate_lens([view], (empty.shape[1], empty.shape[0])) if view is not None else None
        start_path = next((p for p in (folder / "calib" / "full.jpg", folder / "4293918720+4095.jpg")
                           if p.exists()), None)
        classifier: SquareReader = network
        if start_path is not None:
            fitted = fit_adaptation(network, read_image(start_path), corners, played, start12,
                                    fingerprint, lens=lens.lens if lens else None)
            classifier = AdaptedClassifier(network, fitted)
        counts = {"before": [0, 0, 0], "after": [0, 0, 0]}
        for path in sorted(folder.glob("*+*.jpg")):
            if path == start_path:
                continue  # the frame the adaptation was fitted on is not a test
            truth, image = labels_from_name(path.stem), read_image(path)
            for name, reader, through in (("before", network, None),
                                          ("after", classifier, lens.lens if lens else None)):
                read = labels_of(reader.classify(crop_squares(image, corners, played, lens=through)))
                for c in (counts[name], totals[name]):
                    c[0] += 32
                    c[1] += sum(a == b for a, b in zip(truth, read))
                    c[2] += sum(a == b.lower() for a, b in zip(truth, read))
        b, a = counts["before"], counts["after"]
        print(f"  {setup:45s} {b[0] // 32:3d} frames  lens {f'bend {lens.lens.bend:+.3f}' if lens else 'none       '}"
              f"  start {'yes' if start_path else 'no '}  squares {100 * b[1] / b[0]:6.2f} -> "
              f"{100 * a[1] / a[0]:6.2f} %  occupancy+side {100 * b[2] / b[0]:6.2f} -> {100 * a[2] / a[0]:6.2f} %")
    b, a = totals["before"], totals["after"]
    print(f"(c) real webcam frames, {b[0] // 32} frames: per-square agreement {100 * b[1] / b[0]:.2f} % "
          f"before, {100 * a[1] / a[0]:.2f} % after; occupancy+side {100 * b[2] / b[0]:.2f} % -> "
          f"{100 * a[2] / a[0]:.2f} %")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--part", choices=("lens", "adaptation", "real", "all"), default="all")
    parser.add_argument("--cameras", type=int, default=6)
    parser.add_argument("--views", type=int, default=8, help="empty-board frames per camera")
    parser.add_argument("--tests", type=int, default=60, help="test frames in all (lens)")
    parser.add_argument("--scenes", type=int, default=20, help="piece sets and boards (adaptation)")
    parser.add_argument("--frames", type=int, default=12, help="later frames per scene (adaptation)")
    parser.add_argument("--choose-margin", action="store_true",
                        help="sweep KING_MARGIN on training palettes instead")
    args = parser.parse_args()
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"python {platform.python_version()}, OpenCV {cv2.__version__}; model "
          f"{model_fingerprint(DEFAULT_MODEL)}")
    if args.choose_margin:
        choose_margin(args.scenes, args.frames)
        return 0
    if args.part in ("lens", "all"):
        lens_figures(args.cameras, args.views, args.tests)
    if args.part in ("adaptation", "all"):
        adaptation_figures(args.scenes, args.frames)
    if args.part in ("real", "all"):
        real_figures()
    return 0


if __name__ == "__main__":
    sys.exit(main())
