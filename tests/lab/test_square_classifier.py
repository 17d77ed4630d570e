"""The committed ONNX model reads freshly rendered boards, with light/dark for any colours."""

from dataclasses import replace

import numpy as np
import pytest

from lab.render import Renderer, random_position, sample_scene
from lab.render.palettes import PieceSet
from makhos.vision.classifier import DEFAULT_MODEL, SquareClassifier, light_probability
from makhos.vision.reading import LABELS, labels_of


@pytest.fixture(scope="module")
def classifier() -> SquareClassifier:
    return SquareClassifier(DEFAULT_MODEL)


def _read(classifier, scene, pieces, seed):
    frame = Renderer(scene).render(pieces, seed=seed)
    return "".join(frame.squares), labels_of(classifier.read(frame.image, frame.corners, frame.played))


def test_committed_model_reads_held_out_boards(classifier):
    right = total = 0
    for seed in range(8):
        rng = np.random.default_rng(10_000 + seed)
        scene = sample_scene(rng, held_out=True, elevation=(35, 90), size=(640, 480))
        truth, seen = _read(classifier, scene, random_position(rng), seed)
        right += sum(a == b for a, b in zip(truth, seen))
        total += 32
    assert right / total >= 0.93


def test_light_means_lighter_for_unseen_colours(classifier):
    """A pink/dark-green set is in no palette; the pink side must still read as light."""
    rng = np.random.default_rng(77)
    scene = sample_scene(rng, held_out=True, elevation=(50, 90), size=(640, 480))
    pink, green = (180, 140, 240), (40, 90, 20)
    pieces = {1: "l", 2: "L", 3: "l", 30: "d", 31: "D", 32: "d", 15: "l", 18: "d"}
    odd = replace(scene, pieces=replace(scene.pieces, pieces=PieceSet("odd", pink, green)))
    truth, seen = _read(classifier, odd, pieces, 1)
    assert seen.lower() == truth.lower()  # sides right (men and kings aside)
    # Swap the colours: the squares drawn in pink are still the light side.
    swapped = replace(scene, pieces=replace(scene.pieces, pieces=PieceSet("odd", green, pink)))
    truth, seen = _read(classifier, swapped, pieces, 1)
    assert seen.lower() == truth.lower().translate(str.maketrans("ld", "dl"))


def test_light_probability_groups():
    kind = np.tile([[0.0, 1.0, 0.0]], (6, 1))
    colour = np.array([[200, 130, 140]] * 3 + [[60, 120, 110]] * 3, float)
    p = light_probability(kind, colour, np.zeros(6))
    assert np.all(p[:3] > 0.99) and np.all(p[3:] < 0.01)
    # One colour on the board: the per-square guesses decide, for the whole group at once.
    same = np.array([[120, 128, 128]] * 6, float)
    p = light_probability(kind, same, np.array([3.0, 2.0, 4.0, 3.0, 1.0, 2.0]))
    assert np.allclose(p, p[0]) and p[0] > 0.85


def test_probabilities_sum_to_one(classifier):
    rng = np.random.default_rng(5)
    scene = sample_scene(rng, size=(320, 240))
    frame = Renderer(scene).render(random_position(rng), seed=0)
    p = classifier.read(frame.image, frame.corners, frame.played)
    assert p.shape == (32, len(LABELS)) and np.allclose(p.sum(1), 1, atol=1e-5)
