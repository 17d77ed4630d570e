"""Which camp is light, named by the board (issue #42, kingplay 70079): a set-up reads alike
turned half round with its camps swapped, so the reader's sides alone chose between a
numbering and its half turn, and they named the camp under a glare light. Each piece
weighed against the square it stands on names the red camp light again."""

from __future__ import annotations

import numpy as np
import pytest

from makhos.engine import Position, Rules, Setup
from makhos.engine.starts import start_boards
from makhos.vision.geometry import location_from_corners
from makhos.vision.learning import AdaptingReader
from makhos.vision.locate import locate_board
from makhos.vision.orientation import CAMPS_CLEAR, camps_apart
from makhos.vision.pipeline import BoardReader, side_classes
from makhos.vision.start_check import swaps_camps

from lab.render import Renderer
from lab.videos.kings import king_play


def test_every_standard_set_up_swaps_its_camps_on_a_half_turn() -> None:
    for rules in (Rules(), Rules(men_per_side=12), Rules(setup=Setup.THREE_KINGS)):
        assert swaps_camps(side_classes(Position.start(rules)))
    lopsided = Position.from_fen("B:W1,2,3,4,5,6,7,8,9:B25,26,27,28,29,30,31,32")
    assert not swaps_camps(side_classes(lopsided))


@pytest.fixture(scope="module", params=[70079, 70000])
def red_and_black(request: pytest.FixtureRequest) -> tuple[Renderer, Rules, np.ndarray]:
    """A kingplay scene of red and black men seen side-on (the camera's noise left out),
    its rules, and their set-up rendered in a dim bluish light with a glare over the black
    (dark) camp: the black men then show lighter than the red ones across the board, and
    only against their own squares darker."""
    script, scene, _ = king_play(request.param, 10)
    renderer = Renderer(scene)
    start = Position.start(script.rules)
    image = renderer.render({s: p.value for s, p in start}, seed=1).image
    truth = location_from_corners(renderer.corners)
    camp = truth.to_image(np.array([[4.0, 6.5]]))[0]  # the dark camp's rows, in the numbering frame
    side = np.linalg.norm(renderer.corners[1] - renderer.corners[0]) / 8
    yy, xx = np.mgrid[0:image.shape[0], 0:image.shape[1]]
    glare = 70 * np.exp(-((xx - camp[0]) ** 2 + (yy - camp[1]) ** 2) / (2 * (2.5 * side) ** 2))
    lit = image * np.array([1.0, 0.75, 0.6]) * 0.6 + glare[..., None]
    return renderer, script.rules, np.clip(lit, 0, 255).astype(np.uint8)


def test_a_glare_over_the_dark_camp_does_not_name_it_light(red_and_black) -> None:
    renderer, rules, image = red_and_black
    reader = BoardReader(AdaptingReader(), starts=start_boards(rules))
    found = reader.numbering_from_start(image, locate_board(image))
    assert found is not None and found[1] == Position.start(rules)
    numbering, _ = found
    assert numbering.played == renderer.scene.played
    assert np.linalg.norm(numbering.location.corners[0] - renderer.corners[0]) < 4.0  # not the half turn


def test_the_camps_stand_apart_on_their_squares_under_the_glare(red_and_black) -> None:
    renderer, rules, image = red_and_black
    truth = location_from_corners(renderer.corners)
    classes = side_classes(Position.start(rules))
    assert camps_apart(image, truth, renderer.scene.played, classes) >= CAMPS_CLEAR
    assert camps_apart(image, truth.rotated(2), renderer.scene.played, classes) <= -CAMPS_CLEAR
    assert camps_apart(image, truth, renderer.scene.played, np.zeros(32, int)) == 0.0  # no camps

