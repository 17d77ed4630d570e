"""One-shot adaptation: the set's colours and bounds from its start position."""

import numpy as np
import pytest

from makhos.calibration.adaptation import AdaptedClassifier, SetAdaptation, fit_adaptation
from lab.render import Renderer, sample_scene
from makhos.vision.classifier import SquareClassifier
from makhos.vision.reading import labels_of
from makhos.vision.rectify import crop_squares, played_cells

from synthetic import START, START_PIECES

PX = 40


class ThickMenNetwork:
    """A stand-in network that reads a painted board: blue = what stands there, green = the
    piece's top colour. Like a real network meeting thick turned men, it scores this set's
    men on the king side (log-odds king/man +2) and its kings higher still (+8); its own
    light/dark guess always says "light"."""

    def outputs(self, crops):
        centre = crops.images[:, 44, 20].astype(float)
        kind_code, tone = centre[:, 0], centre[:, 1]
        piece, king = kind_code > 40, kind_code > 170
        logits = np.zeros((len(centre), 3))
        logits[:, 0] = np.where(piece, -6.0, 6.0)
        logits[:, 2] = np.where(king, 8.0, 2.0)  # relative to the man's 0
        kind = np.exp(logits) / np.exp(logits).sum(1, keepdims=True)
        colour = np.stack([tone, np.full(len(centre), 128.0), np.full(len(centre), 128.0)], axis=1)
        return kind, colour, np.full(len(centre), 3.0)


def painted(pieces: dict[int, str]) -> tuple[np.ndarray, np.ndarray]:
    """A top-down frame with every played square painted by its content, and its corners."""
    image = np.full((8 * PX, 8 * PX, 3), 20, np.uint8)
    for square, (row, col) in enumerate(played_cells("dark"), start=1):
        label = pieces.get(square, ".")
        kind = {".": 20, "l": 110, "d": 110, "L": 220, "D": 220}[label]
        tone = 200 if label in "lL" else 60
        image[row * PX:(row + 1) * PX, col * PX:(col + 1) * PX] = (kind, tone, 0)
    corners = np.array([[0, 0], [8 * PX, 0], [8 * PX, 8 * PX], [0, 8 * PX]], float) - 0.5
    return image, corners


LATER = {1: "l", 5: "L", 14: "d", 19: "D", 23: "D", 30: "d"}
TRUTH = "".join(LATER.get(s, ".") for s in range(1, 33))


def test_the_men_of_a_thick_set_read_as_men_and_its_kings_still_as_kings():
    network = ThickMenNetwork()
    later, corners = painted(LATER)
    before = labels_of(AdaptedClassifier(network, SetAdaptation("m", np.array([200.0, 128, 128]),
                                                                np.array([60.0, 128, 128]), 0.0, 0.0))
                       .classify(crop_squares(later, corners)))
    assert before != TRUTH and before.replace("L", "l").replace("D", "d") == TRUTH.lower()
    start, corners = painted(START_PIECES)
    adaptation = fit_adaptation(network, start, corners, "dark", START, model="m")
    assert 2.0 < adaptation.king_threshold < 8.0  # above this set's men, below its kings
    assert labels_of(AdaptedClassifier(network, adaptation).classify(crop_squares(later, corners))) == TRUTH


def test_one_side_left_is_told_apart_by_the_sets_colours():
    network = ThickMenNetwork()
    start, corners = painted(START_PIECES)
    adaptation = fit_adaptation(network, start, corners, "dark", START, model="m")
    dark_only, _ = painted({3: "d", 17: "D"})
    read = labels_of(AdaptedClassifier(network, adaptation).classify(crop_squares(dark_only, corners)))
    assert read[2] == "d" and read[16] == "D"  # the network alone would say light


def test_the_start_position_must_show_both_sides():
    start, corners = painted(START_PIECES)
    with pytest.raises(ValueError, match="start position"):
        fit_adaptation(ThickMenNetwork(), start, corners, "dark", "." * 32, model="m")


@pytest.fixture(scope="module")
def red_and_black():
    """A red/black set, and the adaptation another (white/black) set's profile would bring."""
    def scene(pieces: str, seed: int):
        return Renderer(sample_scene(np.random.default_rng(seed), piece_sets=(pieces,), played="dark"))

    network = SquareClassifier()
    other = scene("white-black-1", 1).render(START_PIECES, seed=0)
    renderer = scene("red-black-2", 2)
    own = renderer.render(START_PIECES, seed=0)
    fit = {name: fit_adaptation(network, f.image, f.corners, f.played, START, model="m")
           for name, f in (("other", other), ("own", own))}
    later = [{1: "l", 6: "l", 14: "L", 20: "d", 27: "D", 31: "d"}, {9: "l", 10: "l", 22: "l"},
             {3: "d", 18: "D", 25: "d"}]
    return network, renderer, fit, later


def test_adaptation_mends_a_profile_made_for_another_set(red_and_black):
    network, renderer, fit, later = red_and_black

    def right(adaptation) -> int:
        total = 0
        for k, pieces in enumerate(later):
            frame = renderer.render(pieces, seed=k + 1)
            read = labels_of(AdaptedClassifier(network, adaptation)
                             .classify(crop_squares(frame.image, frame.corners, frame.played)))
            total += sum(a == b for a, b in zip(read, frame.squares))
        return total

    mismatched, adapted = right(fit["other"]), right(fit["own"])
    assert mismatched <= 32 * len(later) - 3  # white/black colours call the red men dark
    assert adapted >= mismatched + 3 and adapted >= 0.95 * 32 * len(later)
