"""How far a piece rises above the start's own man on its square (``vision.rise``): kings
rendered side-on on squares no king stood on rise above the start's man there, men do not,
and a square empty at the start borrows its column's man."""

from __future__ import annotations

import numpy as np
import pytest

from lab.render import Renderer
from lab.render.side_on import side_on
from makhos.vision.reader import GEOMETRY, PieceReader
from makhos.vision.rectify import SquareCrops
from makhos.vision.rise import KEPT_ROWS, RISES, SCALES, StartMen, edge_profiles, man_profiles, rises

START = "l" * 8 + "." * 16 + "d" * 8
#: A later board: kings on squares of every kind (home areas and squares empty at the start).
LATER = {12: "D", 21: "D", 26: "D", 6: "l", 15: "d", 17: "l", 23: "d", 30: "l", 3: "d"}


@pytest.fixture(scope="module")
def network() -> PieceReader:
    return PieceReader()


def start_and_later(network: PieceReader, seed: int) -> tuple[SquareCrops, SquareCrops]:
    renderer = Renderer(side_on(seed))
    start = renderer.render({k + 1: c for k, c in enumerate(START) if c != "."}, seed=1)
    later = renderer.render(LATER, seed=99)
    return (network.crops(start.image, start.corners, start.played),
            network.crops(later.image, later.corners, later.played))


def test_kings_rise_above_the_start_s_man_on_their_square_and_men_do_not(network):
    """Over six side-on scenes, the match gained by rising is higher for kings than for
    men, on squares where the start had a man and squares it had none."""
    kings, men = [], []
    for seed in range(6):
        start, later = start_and_later(network, seed)
        profiles = man_profiles(start, START, GEOMETRY)
        assert profiles is not None
        gained = rises(later, np.arange(32), profiles, GEOMETRY)[:, 0] / SCALES[0]
        kings += [gained[s - 1] for s, label in LATER.items() if label == "D"]
        men += [gained[s - 1] for s, label in LATER.items() if label in "ld"]
    assert np.mean(kings) > np.mean(men) + 0.1
    assert np.median(men) < 0  # a man matches the start's man best where he stands


def test_the_start_s_men_match_themselves_without_rising(network):
    start, _ = start_and_later(network, 2)
    profiles = man_profiles(start, START, GEOMETRY)
    assert profiles is not None
    men = np.flatnonzero([c != "." for c in START])
    own = rises(SquareCrops(start.images[men], start.sight[men]), men, profiles, GEOMETRY) / SCALES
    assert np.allclose(own[:, 2], 1.0, atol=1e-3)  # the match without rising
    assert (own[:, 0] <= 1e-6).all()  # no rise matches better


def test_a_square_empty_at_the_start_borrows_its_column_s_man_moved_by_the_perspective(network):
    start, _ = start_and_later(network, 2)
    men = man_profiles(start, START, GEOMETRY)
    assert men is not None and men.profiles.shape[0] == 32
    profiles = men.profiles
    edges = edge_profiles(start.images, GEOMETRY)
    rows = np.arange(*KEPT_ROWS)
    # Square 9 (row 2) is two rows below square 1 (row 0) in the same column.
    moved = int(round(0.14 * GEOMETRY.pps * float(start.sight[8, 0] - start.sight[0, 0])))
    assert np.allclose(profiles[8], edges[0, np.clip(rows + moved, 0, edges.shape[1] - 1)])
    assert np.allclose(profiles[0], edges[0, rows])


def test_no_man_at_the_start_no_reference_and_no_crops_no_rises(network):
    start, _ = start_and_later(network, 2)
    assert man_profiles(start, "." * 32, GEOMETRY) is None
    none = SquareCrops(np.zeros((0, GEOMETRY.height, GEOMETRY.width, 3), np.uint8), np.zeros((0, 2), np.float32))
    assert rises(none, np.zeros(0, int), StartMen(np.zeros((32, 1, 1)), np.ones(32)), GEOMETRY).shape == (0, RISES)
