"""The side split: two piece sets told apart by whichever colour direction separates them."""

from __future__ import annotations

import cv2
import numpy as np

from makhos.vision.classifier import light_probability, split_sides


def lab(rgb: tuple[int, int, int]) -> np.ndarray:
    return cv2.cvtColor(np.uint8([[rgb[::-1]]]), cv2.COLOR_BGR2LAB)[0, 0].astype(float)


def board(colours: list[np.ndarray], rng: np.random.Generator, empty: int = 8
          ) -> tuple[np.ndarray, np.ndarray]:
    """Kind probabilities and Lab colours of pieces of the given colours (noise of a few
    units, as the network's colour output has), plus empty squares."""
    colour = np.array([c + rng.normal(0, 4, 3) for c in colours] + [np.full(3, 128.0)] * empty)
    kind = np.array([[0.02, 0.95, 0.03]] * len(colours) + [[0.97, 0.02, 0.01]] * empty)
    return kind, colour


def test_two_sets_of_one_lightness_are_split_by_hue():
    # Green and red stickers of the same lightness: the old split looked for a lightness
    # gap and called every piece one side.
    rng = np.random.default_rng(0)
    green, red = lab((70, 150, 90)), lab((190, 80, 80))
    green[0] = red[0]  # exactly the same lightness
    kind, colour = board([green] * 10 + [red] * 10, rng)
    split = split_sides(colour[:20])
    assert split.two
    assert split.first[:10].all() != split.first[10:].any()  # one group each, whichever first
    p = light_probability(kind, colour, np.zeros(len(kind)))
    assert (p[:10] > 0.9).all() != (p[10:20] > 0.9).all()
    assert ((p[:20] > 0.9) | (p[:20] < 0.1)).all()  # every piece put firmly with its side


def test_light_is_named_by_lightness_where_it_differs_and_else_by_the_network():
    rng = np.random.default_rng(1)
    cream, brown = lab((230, 210, 170)), lab((90, 50, 30))
    kind, colour = board([cream] * 8 + [brown] * 8, rng)
    # The network's own per-square guess says the opposite: lightness wins where it differs.
    wrong_guess = np.r_[np.full(8, -3.0), np.full(8, 3.0), np.zeros(8)]
    p = light_probability(kind, colour, wrong_guess)
    assert (p[:8] > 0.9).all() and (p[8:16] < 0.1).all()
    # Purple and teal of one lightness: the network's guess names them.
    purple, teal = lab((120, 60, 150)), lab((20, 120, 120))
    teal[0] = purple[0]
    kind, colour = board([purple] * 8 + [teal] * 8, rng)
    guess = np.r_[np.full(8, -2.0), np.full(8, 2.0), np.zeros(8)]
    p = light_probability(kind, colour, guess)
    assert (p[:8] < 0.1).all() and (p[8:16] > 0.9).all()


def test_one_set_under_uneven_light_stays_one_side():
    # A single set whose lightness runs smoothly across the board (a lamp at one end) is one
    # side, decided for the whole group at once.
    rng = np.random.default_rng(2)
    base = lab((200, 200, 195))
    colours = [base + np.array([k * 6.0, 0, 0]) for k in range(-6, 6)]
    kind, colour = board(colours, rng)
    split = split_sides(colour[:12])
    assert not split.two
    p = light_probability(kind, colour, np.full(len(kind), 2.0))
    assert np.allclose(p[:12], p[0]) and p[0] > 0.5


def test_reference_colours_name_a_single_side_left():
    rng = np.random.default_rng(3)
    green, red = lab((70, 150, 90)), lab((190, 80, 80))
    kind, colour = board([red] * 3, rng)
    p = light_probability(kind, colour, np.zeros(len(kind)), reference=np.stack([green, red]))
    assert (p[:3] < 0.1).all()  # the profile says red is the dark side
