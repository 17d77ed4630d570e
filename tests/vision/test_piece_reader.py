"""The board reader (``vision.reader``): heads, adaptation from a start, its stored state,
and on the shared real photos (skipped where ../shared/realdata is absent) the figures the
adaptation exists for."""

from __future__ import annotations

import json

import numpy as np
import pytest

from makhos.vision.reader import (COLOUR, DEFAULT_HEADS, DEFAULT_MODEL, AdaptedState, Heads, PieceReader,
                                  adapt_heads)
from makhos.vision.reading import CLASSES, labels_of

START = "l" * 12 + "." * 8 + "d" * 12  # 12-man start in square order
D = 16 + COLOUR


def toy_features(labels: str, rng: np.random.Generator, light_colour: float = 1.0
                 ) -> np.ndarray:
    """Features of a board where dimension 0 says 'piece' and the colour block says which
    side (what the generic heads below do not know)."""
    e = rng.normal(0, 0.1, (32, D))
    for k, c in enumerate(labels):
        if c != ".":
            e[k, 0] += 3.0
            e[k, 16] += light_colour if c in "lL" else -light_colour
    return e


def toy_generic() -> Heads:
    occupied = np.zeros(D + 1)
    occupied[0], occupied[-1] = 3.0, -4.5  # knows pieces
    return Heads(occupied, np.zeros(D + 1), np.zeros(D), np.r_[np.zeros(2 * D), -6.0])


def test_generic_heads_cannot_name_sides_the_adaptation_can() -> None:
    rng = np.random.default_rng(1)
    generic = toy_generic()
    start = toy_features(START, rng)
    later = "l" * 5 + "." * 20 + "d" * 4 + "..."
    board = toy_features(later, rng)
    assert labels_of(generic.probabilities(board)).replace("l", "d") == later.replace("l", "d")
    adapted = adapt_heads(generic, start, START)
    assert labels_of(adapted.probabilities(board)) == later


def test_side_is_decided_board_wide_not_by_absolute_colour() -> None:
    """A board lit twice as strongly on the colour axis reads the same after adaptation."""
    rng = np.random.default_rng(2)
    adapted = adapt_heads(toy_generic(), toy_features(START, rng), START)
    later = "l" + "." * 27 + "dddd"
    assert labels_of(adapted.probabilities(toy_features(later, rng, 2.0))) == later


def test_probabilities_are_a_distribution_in_class_order() -> None:
    rng = np.random.default_rng(3)
    p = toy_generic().probabilities(toy_features(START, rng))
    assert p.shape == (32, len(CLASSES))
    assert np.allclose(p.sum(1), 1)
    assert (p >= 0).all()


def test_adapted_state_round_trips_through_json() -> None:
    rng = np.random.default_rng(4)
    heads = adapt_heads(toy_generic(), toy_features(START, rng), START)
    state = AdaptedState(heads, "abc")
    again = AdaptedState.from_json(json.loads(json.dumps(state.to_json())))
    board = toy_features(START, rng)
    assert again.model == "abc"
    assert np.allclose(again.heads.probabilities(board), heads.probabilities(board), atol=1e-6)
    with pytest.raises(ValueError):
        AdaptedState.from_json(json.dumps({"kind": "something else"}))


def test_adaptation_needs_pieces() -> None:
    rng = np.random.default_rng(5)
    with pytest.raises(ValueError):
        adapt_heads(toy_generic(), toy_features("." * 32, rng), "." * 32)


def test_a_full_board_keeps_the_generic_occupancy_head() -> None:
    rng = np.random.default_rng(6)
    full = "L" * 16 + "D" * 16
    adapted = adapt_heads(toy_generic(), toy_features(full, rng), full)
    assert np.array_equal(adapted.occupied, toy_generic().occupied)


@pytest.fixture(scope="module")
def reader() -> PieceReader:
    return PieceReader()


def test_committed_model_and_heads_match(reader: PieceReader) -> None:
    assert DEFAULT_MODEL.stat().st_size < 12e6
    heads = json.loads(DEFAULT_HEADS.read_text())
    crops = reader.crops(np.full((480, 640, 3), 120, np.uint8),
                         np.array([[120, 40], [520, 40], [520, 440], [120, 440]], float))
    e = reader.embed(crops)
    assert e.shape[1] + 1 == len(heads["occupied"])
    assert reader.classify(crops).shape == (32, 5)


def test_a_state_for_another_model_is_refused(reader: PieceReader) -> None:
    state = AdaptedState(reader.generic, "not-this-model")
    with pytest.raises(ValueError):
        reader.heads(state)


# ------------------------------------------------------------------ real photos (shared)

def _real():
    from lab.realdata import ROOT, collections

    if not ROOT.is_dir():
        pytest.skip("../shared/realdata is not here")
    from lab.realdata import photo_geometry

    return collections(), photo_geometry


def test_adapted_from_a_start_photo_reads_its_set_up(reader: PieceReader) -> None:
    """b3nny01 v1 (wooden men, overhead phone): adapt on its first start photo, read the
    next ten photos of that set-up. The committed model saw this set in training, so this is
    a check that the run-time path works end to end, not a held-out figure (that is
    ``bench/reader_realdata.py``)."""
    sets, photo_geometry = _real()
    photos = [p for p in sets["b3nny01-checkersvision"] if p.setup == "v1"]
    first = next(i for i, p in enumerate(photos) if p.start_side())
    image = photos[first].image()
    corners, lens, truth = photo_geometry(photos[first], image)
    state = reader.adapt(image, corners, "dark", truth, lens=lens)
    state = AdaptedState.from_json(state.to_json())
    wrong = 0
    for photo in [p for i, p in enumerate(photos) if i != first][:10]:
        image = photo.image()
        corners, lens, truth = photo_geometry(photo, image)
        read = labels_of(reader.read(image, corners, "dark", state, lens))
        wrong += sum(t != r for t, r in zip(truth, read) if t != "?")
    assert wrong <= 3


def test_zero_shot_names_orange_and_blue_by_the_board(reader: PieceReader) -> None:
    """olekzima: orange and blue men; no absolute colour names them, the board does."""
    sets, photo_geometry = _real()
    photo = sets["olekzima-checkers-robot-bachelor"][0]
    image = photo.image()
    corners, lens, truth = photo_geometry(photo, image)
    read = labels_of(reader.read(image, corners, "dark", lens=lens))
    assert sum(t != r for t, r in zip(truth, read) if t != "?") <= 2


def test_reading_does_not_depend_on_the_quarter_turn(reader: PieceReader) -> None:
    """The same photo numbered from each of its four corners (a quarter turn swaps the
    colour in play) reads the same cells: the crops are turned by the camera, not by the
    numbering, so a camera beside a player or across the table changes nothing here."""
    from lab.realdata import TrueGeometry, cells_of

    sets, photo_geometry = _real()
    photo = sets["alexkassil-playing-the-computer"][2]
    image = photo.image()
    corners, lens, _ = photo_geometry(photo, image)
    truth = TrueGeometry.of(photo, (image.shape[1], image.shape[0]))
    readings = []
    for turn in range(4):
        turned = np.roll(corners, -turn, axis=0)
        played = "dark" if turn % 2 == 0 else "light"
        labels = labels_of(reader.read(image, turned, played, lens=lens))
        grid = np.full((8, 8), "-")
        for (row, col), label in zip(cells_of(turned, played, truth), labels):
            grid[row, col] = label
        readings.append(grid)
    for grid in readings[1:]:
        assert np.array_equal(grid, readings[0])
