"""The colour of the squares in play, on a board whose tall men lean over the other colour."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from lab.render import Renderer, sample_scene
from lab.render.palettes import BoardPalette, PieceSet, bgr
from makhos.vision.classifier import SquareClassifier
from makhos.vision.geometry import location_from_corners
from makhos.vision.orientation import colour_in_play, orient

START = {s: "l" for s in range(1, 13)} | {s: "d" for s in range(21, 33)}


def tall_men_seen_from_low(seed: int):
    """Blue and green squares of about one grey, wooden and black men taller than half a
    square, a camera 30-40 degrees above the board: each man's top lies over the square
    behind it, which is of the other colour (the fault #22 names)."""
    rng = np.random.default_rng(seed)
    scene = sample_scene(rng, elevation=(30, 40),
                         played=str(rng.choice(["dark", "light"])))
    board = dataclasses.replace(scene.board, palette=BoardPalette("blue-green", bgr("#3C78C8"),
                                                                  bgr("#2E7A4A")))
    pieces = dataclasses.replace(scene.pieces, pieces=PieceSet("wood-black", bgr("#C89A60"),
                                                               bgr("#181818")),
                                 height=float(rng.uniform(0.6, 1.0)), radius=0.4)
    return Renderer(dataclasses.replace(scene, board=board, pieces=pieces)).render(START, seed=seed)


@pytest.fixture(scope="module")
def network() -> SquareClassifier:
    return SquareClassifier()


@pytest.mark.parametrize("seed", [1, 6, 9, 14, 21])
def test_tall_men_leaning_over_the_other_colour(network, seed):
    # On these four boards the cheap cue alone (the squares' centres) picks the wrong colour.
    frame = tall_men_seen_from_low(seed)
    cheap = orient(frame.image, location_from_corners(frame.corners))
    checked = colour_in_play(network, frame.image, cheap)
    assert checked.played == frame.played
    labels = network.read(frame.image, checked.location.corners, checked.played).argmax(1)
    light, dark = np.isin(labels, (1, 3)), np.isin(labels, (2, 4))
    # The men are found on the squares they stand on, and the numbering puts the light men
    # on squares 1-12.
    assert light[:12].sum() >= 8 and dark[20:].sum() >= 8


def test_a_right_choice_is_kept(network):
    frame = tall_men_seen_from_low(0)
    cheap = orient(frame.image, location_from_corners(frame.corners))
    assert cheap.played == frame.played
    assert colour_in_play(network, frame.image, cheap) == cheap
