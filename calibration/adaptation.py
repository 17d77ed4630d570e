"""One-shot adaptation of the square reading to one board and piece set, from its start position.

In the start position every square's content is known (the rules say where each side's men
stand), so one frame labels 32 squares of this very board, piece set, light and camera. The
network is not retrained (the lead swaps ``models/square_classifier.onnx``; only its stable
outputs are used: kind probabilities, top colour, light logit). Three things are fitted on
the 32 squares, each seen through a few augmented copies of the frame (corners jittered by a
few hundredths of a square, gain, colour cast, noise and blur) so that they hold for the
later frames of the game and not only for this exact picture:

- the two sides' colours: the median network colour of the known light men and of the known
  dark men. Passed to :func:`vision.classifier.light_probability` as reference colours, they
  decide the side even when only one side is left on the board;
- a piece bias on the log-odds log P(piece) / P(empty), putting the set's boundary midway
  between its empty squares and its men;
- the king threshold on the log-odds log P(king) / P(man).

Kings are not in the start position, so the king threshold cannot be fitted on kings. It
rests on what the network keeps across sets: it scores a king (two stacked men) above the
men *of the same set*, by a margin that belongs to the network rather than to the set, even
when the set as a whole is scored too high (thick turned men that look like stacks) or too
low (thin printed men). The set's men are measured (the median of their augmented
log-odds, robust to the odd frame) and the threshold is put ``KING_MARGIN`` above them,
about half the network's man-to-king margin: the set's men fall below it and a king of the
set, a margin above its men, above it. Only the threshold moves with the set, never the king
evidence itself, and it only ever rises above even odds: the network already weighs each
piece against the rest of its board (``lab/training/net.py``), so for a set whose men it reads as
men a lower threshold would only add false kings (bench/RESULTS.md); it rises where the set's own men score near a king (thick turned men). The
margin was chosen on the training palettes (``bench/calibration.py --choose-margin`` sweeps
it; rerun it when the network changes); the held-out figures on kings are in
``bench/RESULTS.md``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from makhos.vision.classifier import centre_tone, light_probability
from makhos.vision.lens import Lens
from makhos.vision.logistic import sigmoid
from makhos.vision.rectify import CROP, CropGeometry, SquareCrops, crop_squares

#: Log-odds above the set's median man where a piece starts to read as a king: half the
#: network's typical man-to-king margin, chosen on training palettes (bench/calibration.py).
KING_MARGIN = 1.0
#: Augmented copies of the start frame (the first is the frame itself).
AUGMENTATIONS = 16
#: Share of the augmented men and empty squares treated as outliers when placing the piece bound.
OUTLIERS = 0.01


class SquareNetwork(Protocol):
    """The classifier's stable interface (``vision.classifier.SquareClassifier``), called
    with the 32 crops of one board at a time."""

    def outputs(self, crops: SquareCrops) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...


@dataclass(frozen=True)
class SetAdaptation:
    """How the network's outputs are read for one piece set (saved in the board profile).

    ``model`` is the fingerprint of the network the parameters were fitted for: they mean
    nothing to another network. Colours are Lab in 8-bit units, as the network gives them.
    """

    model: str
    light_colour: np.ndarray  # (3,)
    dark_colour: np.ndarray  # (3,)
    piece_bias: float  # added to log P(piece) / P(empty)
    king_threshold: float  # log P(king) / P(man) above which a piece reads as a king

    @property
    def reference_colours(self) -> np.ndarray:
        """(2, 3): light side, dark side, as ``SquareClassifier(reference_colours=)`` takes."""
        return np.stack([np.asarray(self.light_colour, float), np.asarray(self.dark_colour, float)])

    def correct(self, kind: np.ndarray) -> np.ndarray:
        """Kind probabilities (N, 3) empty/man/king, re-read with this set's bounds."""
        piece_odds, king_odds = log_odds(kind)
        piece = sigmoid(piece_odds + self.piece_bias)
        king = sigmoid(king_odds - self.king_threshold)
        return np.stack([1 - piece, piece * (1 - king), piece * king], axis=1)


class AdaptedClassifier:
    """A square network read with a :class:`SetAdaptation`: ``classify(crops)`` as
    ``SquareClassifier.classify`` gives it, (N, 5) empty, light man, dark man, light king,
    dark king."""

    #: How its crops are cut: as the square network's (``vision.rectify.CROP``).
    geometry: CropGeometry = CROP

    def __init__(self, network: SquareNetwork, adaptation: SetAdaptation) -> None:
        self.network = network
        self.adaptation = adaptation

    def classify(self, crops: SquareCrops) -> np.ndarray:
        kind, colour, light_logit = self.network.outputs(crops)
        kind = self.adaptation.correct(kind)
        light = light_probability(kind, colour, light_logit, self.adaptation.reference_colours,
                                  centre_tone(crops.images))
        man, king = kind[:, 1], kind[:, 2]
        return np.stack([kind[:, 0], man * light, man * (1 - light), king * light,
                         king * (1 - light)], axis=1)


def model_fingerprint(path: Path | str) -> str:
    """A short hash of the network file: a profile fitted for one network refuses another."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def log_odds(kind: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(log P(piece) / P(empty), log P(king) / P(man)) of kind probabilities (N, 3)."""
    p = np.clip(np.asarray(kind, np.float64), 1e-12, 1.0)
    return np.log(p[:, 1] + p[:, 2]) - np.log(p[:, 0]), np.log(p[:, 2]) - np.log(p[:, 1])


def fit_adaptation(network: SquareNetwork, frame: np.ndarray, corners: np.ndarray, played: str,
                   start: str, model: str, lens: Lens | None = None,
                   augmentations: int = AUGMENTATIONS, seed: int = 0) -> SetAdaptation:
    """Fit the set's colours and bounds on one frame of the start position.

    ``corners`` in the numbering frame (square 1's corner first), ``start`` the 32 labels
    of the start position in square order ('l', 'd' men, 'L', 'D' kings of a special
    set-up, '.' empty); kings give their side's colour but not the man/king bound.
    """
    labels = np.array(list(start))
    if len(labels) != 32 or not {"l", "d", "."} <= set(labels):
        raise ValueError("the start position must show light men, dark men and empty squares")
    rng = np.random.default_rng(seed)
    # One board per call: the network may read each square beside the rest of its board.
    boards = [network.outputs(augmented_crops(frame, corners, played, lens, rng, first=k == 0))
              for k in range(augmentations)]
    kind, colour = (np.concatenate([b[i] for b in boards]) for i in (0, 1))
    labels = np.tile(labels, augmentations)
    piece_odds, king_odds = log_odds(kind)
    men = np.isin(labels, ["l", "d"])
    empty_top = np.quantile(piece_odds[labels == "."], 1 - OUTLIERS)
    piece_bottom = np.quantile(piece_odds[labels != "."], OUTLIERS)
    return SetAdaptation(
        model=model,
        light_colour=np.median(colour[np.isin(labels, ["l", "L"])], axis=0),
        dark_colour=np.median(colour[np.isin(labels, ["d", "D"])], axis=0),
        piece_bias=float(-(empty_top + piece_bottom) / 2),
        king_threshold=max(0.0, float(np.median(king_odds[men]) + KING_MARGIN)),
    )


def augmented_crops(frame: np.ndarray, corners: np.ndarray, played: str, lens: Lens | None,
                    rng: np.random.Generator, first: bool = False) -> SquareCrops:
    """The 32 crops of ``frame`` as a later frame of the game might give them.

    Corners jittered by a few hundredths of a square (the follower's refits), then per-crop
    gain, colour cast, gamma, blur and sensor noise (the light changing during the game).
    ``first`` returns the crops as they are.
    """
    corners = np.asarray(corners, np.float64)
    if first:
        return crop_squares(frame, corners, played, lens=lens)
    side = np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1).mean() / 8
    cut = crop_squares(frame, corners + rng.normal(0, 0.03 * side, corners.shape), played, lens=lens)
    crops: np.ndarray = cut.images.astype(np.float32)
    n = len(crops)
    gain = rng.uniform(0.8, 1.2, (n, 1, 1, 1)) * rng.uniform(0.94, 1.06, (n, 1, 1, 3))
    gamma = rng.uniform(0.85, 1.15, (n, 1, 1, 1))
    crops = 255.0 * (np.clip(crops * gain, 0, 255) / 255.0) ** gamma
    sigma = rng.uniform(0, 1.0)
    if sigma > 0.3:
        crops = np.stack([cv2.GaussianBlur(c, (0, 0), sigma) for c in crops])
    crops += rng.normal(0, rng.uniform(0, 5), crops.shape)
    return cut.with_images(np.clip(crops, 0, 255).astype(np.uint8))

