"""A piece's height measured on its crop (``vision.height``): a man stacked into a king
reaches about one man's thickness higher on every square, whatever the perspective."""

from __future__ import annotations

import numpy as np
import pytest

from lab.render import Renderer
from lab.render.side_on import side_on
from makhos.vision.height import HEIGHT_SCALE, HEIGHTS, stack_heights
from makhos.vision.reader import GEOMETRY, PieceReader, stacked_kings
from makhos.vision.rectify import SquareCrops

START = "l" * 8 + "." * 16 + "d" * 8
THICKNESS = 0.2  # squares: a man stacked on himself


@pytest.fixture(scope="module")
def start_crops() -> SquareCrops:
    renderer = Renderer(side_on(7))
    frame = renderer.render({k + 1: c for k, c in enumerate(START) if c != "."}, seed=1)
    return PieceReader().crops(frame.image, frame.corners, frame.played)


def test_a_man_stacked_into_a_king_stands_one_thickness_higher(start_crops):
    men = np.array([c != "." for c in START])
    kings = stacked_kings(start_crops, men, (THICKNESS,))
    assert len(kings.images) == men.sum()  # side-on: every man shows his height
    man = stack_heights(SquareCrops(start_crops.images[men], start_crops.sight[men]), GEOMETRY)
    king = stack_heights(kings, GEOMETRY)
    raised = (king[:, 0] - man[:, 0]) / HEIGHT_SCALE  # squares, the strict search
    assert np.median(raised) == pytest.approx(THICKNESS, abs=0.08)
    assert (raised > 0.05).mean() >= 0.8


def test_a_man_reaches_about_as_high_on_near_and_far_squares(start_crops):
    """The heights are over the cotangent each square is seen at: the men of the near rows
    and of the far rows, seen at different angles, measure alike."""
    heights = stack_heights(start_crops, GEOMETRY)[:, 0] / HEIGHT_SCALE
    near, far = heights[24:32], heights[0:8]
    assert abs(np.median(near) - np.median(far)) < THICKNESS / 2


def test_no_crops_no_heights():
    none = SquareCrops(np.zeros((0, GEOMETRY.height, GEOMETRY.width, 3), np.uint8), np.zeros((0, 2), np.float32))
    assert stack_heights(none, GEOMETRY).shape == (0, HEIGHTS)
