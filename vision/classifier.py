"""Read the 32 played squares: empty, light man, dark man, light king, dark king.

The ONNX network answers two questions per square that do not depend on the piece colours:
what stands there (empty / man / king) and what colour the piece's top is (Lab). Which
side is "light" is then decided across the whole board: the pieces' colours fall into two
groups and the lighter group is the light side. That holds for any pair of piece colours
(white/black, red/black, yellow/blue, wood/dark wood, or a set never seen in training),
and for any lighting that falls on both sides alike, where a per-square colour decision
would have to learn every pair. With one colour group on the board (a single piece, or
one side left), the network's own per-square light/dark guess decides, unless reference
colours from calibration are given.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnxruntime as ort

from .rectify import SquareCrops, crop_squares

#: Column order of the probabilities; labels as in ``engine.position.Piece`` ('.' = empty).
CLASSES: tuple[str, ...] = ("empty", "light man", "dark man", "light king", "dark king")
LABELS: tuple[str, ...] = (".", "l", "d", "L", "D")
DEFAULT_MODEL = Path(__file__).resolve().parent.parent / "models" / "square_classifier.onnx"


def model_path(path: Path | str | None = None) -> Path:
    """The model file to load (``path``, or the bundled one), checked before any work starts."""
    model = Path(path) if path is not None else DEFAULT_MODEL
    if not model.exists():
        raise FileNotFoundError(f"model file missing: {model} (reinstall, or run `make model`)")
    return model


#: The network's inputs: each square's crop, and its sightline (``vision.rectify.sightlines``).
INPUTS: tuple[str, ...] = ("crops", "sight")

#: Least distance between the two colour groups (8-bit Lab units) to call them two sides.
MIN_GROUP_GAP = 60.0


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(x, -60, 60)))


def two_means(colours: np.ndarray, iterations: int = 10) -> tuple[np.ndarray, np.ndarray, float]:
    """Split colours (N >= 2, Lab) into two groups: (lighter centre, darker centre, spread).

    Seeded with the lightest and darkest colour, so the result is deterministic; ``spread``
    is the root mean square distance of the colours to their group's centre.
    """
    hi, lo = colours[np.argmax(colours[:, 0])], colours[np.argmin(colours[:, 0])]
    to_hi = ((colours - hi) ** 2).sum(1) <= ((colours - lo) ** 2).sum(1)
    for _ in range(iterations):
        if to_hi.all() or not to_hi.any():
            break
        hi, lo = colours[to_hi].mean(0), colours[~to_hi].mean(0)
        again = ((colours - hi) ** 2).sum(1) <= ((colours - lo) ** 2).sum(1)
        if np.array_equal(again, to_hi):
            break
        to_hi = again
    spread = np.sqrt(np.mean(np.where(to_hi, ((colours - hi) ** 2).sum(1),
                                      ((colours - lo) ** 2).sum(1))))
    if hi[0] < lo[0]:
        hi, lo = lo, hi
    return hi, lo, float(spread)


def light_probability(kind: np.ndarray, colour: np.ndarray, light_logit: np.ndarray,
                      reference: np.ndarray | None = None) -> np.ndarray:
    """P(the piece on each square is light), (N,), from board-wide colour groups.

    ``kind``: (N, 3) probabilities empty/man/king; ``colour``: (N, 3) Lab in 8-bit units;
    ``reference``: optional (2, 3) Lab of the light and the dark side from calibration.
    """
    if reference is not None:
        hi, lo = np.asarray(reference, float)
    else:
        pieces = colour[kind[:, 0] < 0.5]
        if len(pieces) < 2:
            return _sigmoid(light_logit)
        hi, lo, spread = two_means(pieces)
        if np.linalg.norm(hi - lo) < max(MIN_GROUP_GAP, 3 * spread):
            # One colour on the board: decide for the whole group at once.
            group = float(np.mean(_sigmoid(light_logit[kind[:, 0] < 0.5])))
            return np.full(len(kind), group)
    axis = hi - lo
    gap = float(np.linalg.norm(axis))
    t = (colour - (hi + lo) / 2) @ (axis / max(gap, 1e-6))
    return _sigmoid(t / max(gap / 16, 1.0))


class SquareClassifier:
    """The square network in onnxruntime, on one thread (the frame loop owns the others)."""

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
                             "a network from another version (retrain it with `make model`)")
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
        """(32, 5) probabilities, columns as ``CLASSES``, rows squares 1..32 of one board."""
        kind, colour, light_logit = self.outputs(crops)
        light = light_probability(kind, colour, light_logit, self.reference_colours)
        man, king = kind[:, 1], kind[:, 2]
        return np.stack([kind[:, 0], man * light, man * (1 - light), king * light,
                         king * (1 - light)], axis=1)

    def read(self, frame: np.ndarray, corners: np.ndarray, played: str = "dark") -> np.ndarray:
        """Crop and classify one frame: (32, 5) probabilities in square order 1..32."""
        return self.classify(crop_squares(frame, corners, played))


def labels_of(probabilities: np.ndarray) -> str:
    """The most likely label of each square, as a 32-character string.

    >>> labels_of(np.eye(5)[[0, 1, 2, 3, 4] + [0] * 27])
    '.ldLD...........................'
    """
    return "".join(LABELS[i] for i in probabilities.argmax(1))
