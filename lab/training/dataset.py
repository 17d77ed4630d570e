"""Square crops and their labels, rendered from random scenes.

Crops come from ``vision.rectify.crop_squares`` with the renderer's true corners, so the
classifier is trained on exactly what it will see at run time. Squares under a hand are
dropped: their label is not visible, and telling "hand" frames apart is the gate's job.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
from collections.abc import Iterable
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from lab.render import (Hand, RenderedFrame, Renderer, Scene, random_position, sample_hand,
                           sample_scene, widened)
from makhos.vision.rectify import crop_squares

#: Class index of the colour-agnostic head.
EMPTY, MAN, KING = 0, 1, 2
SIZES = ((1280, 720), (1280, 960), (960, 540), (640, 480), (1920, 1080))


@dataclass(frozen=True)
class SplitConfig:
    """How one split is drawn: palettes, elevations, hands, random piece colours."""

    held_out: bool
    elevation: tuple[float, float]
    hand_rate: float
    random_colours: float
    positions_per_scene: int
    widened: float = 0.0  # share of scenes with a piece set of the wider world (render.widened)


#: Six positions per scene: with two, the network learned its training frames (0.5 % of
#: their pieces misread as man/king) but not new frames of the very same scenes (3.4 %);
#: more frames cost little, as a scene's set-up is most of its rendering time.
TRAIN = SplitConfig(held_out=False, elevation=(30, 90), hand_rate=0.2, random_colours=0.35,
                    positions_per_scene=6)
#: The split the head is refitted on (``lab.training.head``): training palettes, and a third of its
#: scenes with pieces from the wider world of real sets (discs as wide as the square,
#: stickers, tall cylinders, sides told apart by hue), which the network trained on the
#: named sets alone reads wrongly (real wooden discs seen from above as kings).
FIT = dataclasses.replace(TRAIN, widened=0.35)
TEST = SplitConfig(held_out=True, elevation=(35, 90), hand_rate=0.0, random_colours=0.0,
                   positions_per_scene=1)


def piece_lab(bgr: tuple[int, int, int]) -> np.ndarray:
    """OpenCV 8-bit Lab of a colour, scaled to [0, 1]: the colour head's target."""
    lab = cv2.cvtColor(np.array([[bgr]], np.uint8), cv2.COLOR_BGR2LAB)[0, 0].astype(np.float32)
    return np.asarray(lab / 255)


@dataclass(frozen=True)
class Shot:
    """One frame of a split as drawn: what to render and how, before it is rendered."""

    renderer: Renderer
    position: dict[int, str]
    hand: Hand | None
    seed: int  # the frame's own seed (noise offset, piece jitter)

    def render(self) -> RenderedFrame:
        return self.renderer.render(self.position, self.hand, seed=self.seed)


def scene_shots(seed: int, config: SplitConfig) -> tuple[Scene, list[Shot]]:
    """The scene of ``seed`` and its frames, drawn exactly as the split draws them (so a
    probe can re-render a split's frame with something changed)."""
    rng = np.random.default_rng(seed)
    size = SIZES[rng.integers(len(SIZES))]
    scene = sample_scene(rng, held_out=config.held_out, elevation=config.elevation, size=size,
                         random_colours=config.random_colours)
    wide = np.random.default_rng([seed, 22])  # its own stream: the other draws stay as they were
    if wide.random() < config.widened:
        scene = widened(scene, wide)
    renderer = Renderer(scene)
    shots = []
    for _ in range(config.positions_per_scene):
        hand = sample_hand(rng) if rng.random() < config.hand_rate else None
        shots.append(Shot(renderer, random_position(rng), hand, int(rng.integers(2**31))))
    return scene, shots


def render_scene(args: tuple[int, SplitConfig]) -> dict[str, np.ndarray]:
    """All crops of one scene (several positions): crops, how each square is seen, class,
    light flag, colour, board id."""
    seed, config = args
    scene, shots = scene_shots(seed, config)
    colours = {True: piece_lab(scene.pieces.pieces.light), False: piece_lab(scene.pieces.pieces.dark)}
    out: dict[str, list[Any]] = {"crops": [], "sight": [], "cls": [], "light": [], "colour": [],
                            "board": []}
    for k, shot in enumerate(shots):
        frame = shot.render()
        crops = crop_squares(frame.image, frame.corners, frame.played)
        for i, label in enumerate(frame.squares):
            if i + 1 in frame.hand_squares:
                continue
            out["crops"].append(crops.images[i])
            out["sight"].append(crops.sight[i])
            out["cls"].append(EMPTY if label == "." else KING if label in "DL" else MAN)
            out["light"].append(label in "lL")
            out["colour"].append(colours[label in "lL"])
            out["board"].append(seed * 16 + k)
    return {key: np.asarray(v) for key, v in out.items()}


def build(seeds: range, config: SplitConfig, workers: int = 2, progress: bool = True
          ) -> dict[str, np.ndarray]:
    """Render the scenes of ``seeds`` and join their crops, in seed order."""
    jobs = [(s, config) for s in seeds]
    with Pool(workers) as pool:
        parts = pool.imap(render_scene, jobs, chunksize=4)
        if progress:
            try:  # the train extra's progress bar; the benches run without it
                from tqdm import tqdm
            except ModuleNotFoundError:
                pass
            else:
                parts = tqdm(parts, total=len(jobs), desc="render", unit="scene")
        return gather(parts, most=len(jobs) * config.positions_per_scene * 32)


def gather(parts: Iterable[dict[str, np.ndarray]], most: int) -> dict[str, np.ndarray]:
    """The scenes' arrays joined key by key as they arrive, for at most ``most`` squares.

    The crops are most of the memory (5 GB for the recipe's training split, 10 GB for twice
    its scenes, on a 23 GiB machine), so the scenes are never all held and then copied: each
    is written into arrays sized for ``most`` squares and dropped. The system commits an
    array's pages only as they are written, so the rows left over (squares under a hand)
    cost nothing; the result is a view of the rows written.
    """
    joined: dict[str, np.ndarray] = {}
    at = 0
    for part in parts:
        if not joined:
            joined = {key: np.empty((most,) + v.shape[1:], v.dtype) for key, v in part.items()}
        n = len(part["cls"])
        if at + n > most:
            raise ValueError(f"more than the {most} squares the split was sized for")
        for key, v in part.items():
            joined[key][at:at + n] = v
        at += n
    return {key: v[:at] for key, v in joined.items()}


#: Seed ranges: training and test scenes never share a seed (and test palettes are held out).
#: The recipe renders the first ``RECIPE_TRAIN_SCENES`` training seeds (its 40 minutes on two
#: cores); more scenes, trained with as many more steps, read better (twice: 0.90 -> 0.70 % of
#: squares wrong from four views, bench/RESULTS.md) but take about 70 minutes.
TRAIN_SEEDS = range(0, 1_000_000)
RECIPE_TRAIN_SCENES = 3600
TEST_SEEDS = range(1_000_000, 1_000_600)
#: Scenes of the head's refit: training seeds far beyond any training split's.
FIT_SEEDS = range(500_000, 500_240)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("data"))
    parser.add_argument("--train-scenes", type=int, default=RECIPE_TRAIN_SCENES)
    parser.add_argument("--test-scenes", type=int, default=len(TEST_SEEDS))
    parser.add_argument("--fit-scenes", type=int, default=len(FIT_SEEDS))
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for name, seeds, config in (("test", TEST_SEEDS[:args.test_scenes], TEST),
                                ("fit", FIT_SEEDS[:args.fit_scenes], FIT),
                                ("train", TRAIN_SEEDS[:args.train_scenes], TRAIN)):
        data = build(seeds, config, args.workers)
        np.savez(args.out / f"{name}.npz", **data)  # type: ignore[arg-type]  # names, not options
        print(f"{name}: {len(data['cls'])} crops from {len(seeds)} scenes -> {args.out}/{name}.npz")


if __name__ == "__main__":
    main()
