"""Read the 32 played squares: empty, light man, dark man, light king, dark king.

The ONNX network answers two questions per square that do not depend on the piece colours:
what stands there (empty / man / king) and what colour the piece's top is (Lab). Which
side is "light" is then decided across the whole board: the pieces' colours fall into two
groups, along whichever colour direction separates them (lightness for white/black or
wood/dark wood, hue for green/red stickers or orange/blue discs of one grey), and the
lighter group is the light side where lightness differs; where it hardly does, lightness
and the network's own light/dark guess decide together. That holds for any pair of piece
colours and any lighting that falls on both sides alike, where a per-square colour decision
would have to learn every pair. With one colour group on the board (a single piece, or one
side left), the network's own per-square guess decides, unless reference colours from
calibration are given (they also name two sets of one grey).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort

from .. import models
from .logistic import sigmoid
from .rectify import CROP, CropGeometry, SquareCrops, crop_squares

DEFAULT_MODEL = models.path(models.SQUARE_CLASSIFIER)


def model_path(path: Path | str | None = None) -> Path:
    """The model file to load (``path``, or the bundled one), checked before any work starts."""
    model = Path(path) if path is not None else DEFAULT_MODEL
    if not model.exists():
        raise FileNotFoundError(f"model file missing: {model} (reinstall, or run `make square-classifier`)")
    return model


#: The network's inputs: each square's crop, and its sightline (``vision.rectify.sightlines``).
INPUTS: tuple[str, ...] = ("crops", "sight")

#: Two colour groups are two sides when their centres lie this many times the groups' own
#: spread apart along the line joining them, and at least ``MIN_SIDE_DISTANCE`` apart (8-bit Lab);
#: one set under uneven light spreads evenly (a uniform spread splits at 3.5 times, a
#: Gaussian one at 2.7), two sets leave an empty stretch between them.
SIDE_SEPARATION = 4.0
MIN_SIDE_DISTANCE = 25.0
#: ... with this many pieces on each side at least (two or three colours alone always
#: separate along some direction).
MIN_SIDE_PIECES = 3
#: ... or, as before hue counted, this far apart in Lab and three times their 3-D spread.
MIN_GROUP_DISTANCE = 60.0
#: Lightness (8-bit L) by which one side must be lighter to be named light by lightness
#: alone; below it the network's own light/dark guess joins in.
LIGHTNESS_DIFFERENCE = 25.0


def two_means(colours: np.ndarray, axis: np.ndarray, iterations: int = 20) -> np.ndarray:
    """Split colours (N >= 2) into two groups, seeded by the two extremes along ``axis``:
    a boolean mask of the first group (deterministic)."""
    t = colours @ axis
    a, b = colours[np.argmax(t)], colours[np.argmin(t)]
    first: np.ndarray = ((colours - a) ** 2).sum(1) <= ((colours - b) ** 2).sum(1)
    for _ in range(iterations):
        if first.all() or not first.any():
            break
        a, b = colours[first].mean(0), colours[~first].mean(0)
        again = ((colours - a) ** 2).sum(1) <= ((colours - b) ** 2).sum(1)
        if np.array_equal(again, first):
            break
        first = again
    return first


@dataclass(frozen=True)
class SideSplit:
    """The pieces' colours as two sides, or one (``first`` all True)."""

    first: np.ndarray  # (P,) bool: the pieces of the first group
    two: bool  # whether the groups are two sides, not one set split by the light


def split_sides(colours: np.ndarray) -> SideSplit:
    """The pieces' colours (P >= 2, Lab) split along whichever direction separates them best.

    Two sets may differ in lightness, in hue (green and red stickers of one grey, purple and
    teal men) or both, so the split is tried from each Lab axis and from the colours' main
    direction, and the one whose groups stand furthest apart relative to their own spread
    (along the line joining their centres) is kept.
    """
    centred = colours - colours.mean(0)
    main = np.linalg.eigh(centred.T @ centred + 1e-6 * np.eye(3))[1][:, -1]
    best: tuple[float, float, float, np.ndarray] | None = None
    for axis in (*np.eye(3), main):
        first = two_means(colours, axis)
        if first.all() or not first.any():
            continue
        a, b = colours[first].mean(0), colours[~first].mean(0)
        distance = float(np.linalg.norm(a - b))
        t = colours @ ((a - b) / max(distance, 1e-9))
        own = np.where(first, t - t[first].mean(), t - t[~first].mean())
        separation = distance / max(float(np.sqrt(np.mean(own ** 2))), 1.0)
        spread = float(np.sqrt(np.mean(np.where(first, ((colours - a) ** 2).sum(1),
                                                ((colours - b) ** 2).sum(1)))))
        if best is None or separation > best[0]:
            best = (separation, distance, spread, first)
    if best is None:
        return SideSplit(np.ones(len(colours), bool), False)
    separation, distance, spread, first = best
    smaller = int(min(first.sum(), (~first).sum()))
    two = ((separation >= SIDE_SEPARATION and distance >= MIN_SIDE_DISTANCE and smaller >= MIN_SIDE_PIECES)
           or distance >= max(MIN_GROUP_DISTANCE, 3 * spread))
    return SideSplit(first, two)


def first_is_light(split: SideSplit, tone: np.ndarray, light_logit: np.ndarray) -> bool:
    """Whether the first group is the light side: the lighter one (``tone``, the pieces' L)
    where the two differ by ``LIGHTNESS_DIFFERENCE``; otherwise lightness and the network's own
    light/dark guess (``light_logit``, trained on which of two sets is the lighter) together."""
    f = split.first
    lighter = float(tone[f].mean() - tone[~f].mean())
    if abs(lighter) >= LIGHTNESS_DIFFERENCE:
        return lighter > 0
    return lighter / 15 + float(light_logit[f].mean() - light_logit[~f].mean()) / 3 > 0


def light_probability(kind: np.ndarray, colour: np.ndarray, light_logit: np.ndarray,
                      reference: np.ndarray | None = None, tone: np.ndarray | None = None
                      ) -> np.ndarray:
    """P(the piece on each square is light), (N,), from board-wide colour groups.

    ``kind``: (N, 3) probabilities empty/man/king; ``colour``: (N, 3) Lab in 8-bit units
    (the network's piece colour); ``tone``: (N,) the crops' own lightness at the square's
    centre (default: the network colour's L); ``reference``: optional (2, 3) Lab of the light
    and the dark side from calibration, which names the sides whatever is on the board.
    """
    tone = colour[:, 0] if tone is None else tone
    if reference is not None:
        light_c, dark_c = np.asarray(reference, float)
    else:
        piece = kind[:, 0] < 0.5
        if piece.sum() < 2:
            return sigmoid(light_logit)
        split = split_sides(colour[piece])
        if not split.two:
            # One colour on the board: decide for the whole group at once.
            return np.full(len(kind), float(np.mean(sigmoid(light_logit[piece]))))
        pieces = colour[piece]
        light_c, dark_c = pieces[split.first].mean(0), pieces[~split.first].mean(0)
        if not first_is_light(split, tone[piece], light_logit[piece]):
            light_c, dark_c = dark_c, light_c
    axis = light_c - dark_c
    distance = float(np.linalg.norm(axis))
    t = (colour - (light_c + dark_c) / 2) @ (axis / max(distance, 1e-6))
    return sigmoid(t / max(distance / 16, 1.0))


def centre_tone(images: np.ndarray) -> np.ndarray:
    """(N,) Lab lightness (8-bit) of each crop's centre, where a man's top or side shows."""
    cx, cy = (int(v) for v in CROP.centre)
    patch = images[:, cy - 8:cy + 9, cx - 7:cx + 8].reshape(len(images), -1, 3).mean(1)
    lab: np.ndarray = cv2.cvtColor(patch.astype(np.uint8)[:, None], cv2.COLOR_BGR2LAB)
    return lab[:, 0, 0].astype(np.float64)


class SquareClassifier:
    """The square network in onnxruntime, on one thread (the frame loop owns the others)."""

    #: How its crops are cut (``vision.rectify.CROP``).
    geometry: CropGeometry = CROP

    def __init__(self, path: Path | str = DEFAULT_MODEL,
                 reference_colours: np.ndarray | None = None) -> None:
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        self.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        inputs = sorted(i.name for i in self.session.get_inputs())
        if inputs != sorted(INPUTS):
            raise ValueError(f"{path} takes {inputs}, not the {list(INPUTS)} of this version: "
                             "a network from another version (retrain it with `make square-classifier`)")
        self.reference_colours = reference_colours

    def outputs(self, crops: SquareCrops) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Raw network outputs for N squares: kind probabilities (N, 3), Lab colour in 8-bit
        units (N, 3) and the light logit (N,)."""
        kind, colour, light = self.session.run(None, {
            "crops": np.ascontiguousarray(crops.images, np.uint8),
            "sight": np.ascontiguousarray(crops.sight, np.float32)})
        kind = np.exp(kind - kind.max(1, keepdims=True))
        return kind / kind.sum(1, keepdims=True), colour * 255.0, light[:, 0]

    def classify(self, crops: SquareCrops) -> np.ndarray:
        """(32, 5) probabilities, columns as ``vision.reading.CLASSES``, rows squares 1..32 of one board."""
        kind, colour, light_logit = self.outputs(crops)
        light = light_probability(kind, colour, light_logit, self.reference_colours,
                                  centre_tone(crops.images))
        man, king = kind[:, 1], kind[:, 2]
        return np.stack([kind[:, 0], man * light, man * (1 - light), king * light,
                         king * (1 - light)], axis=1)

    def read(self, frame: np.ndarray, corners: np.ndarray, played: str = "dark") -> np.ndarray:
        """Crop and classify one frame: (32, 5) probabilities in square order 1..32."""
        return self.classify(crop_squares(frame, corners, played))

