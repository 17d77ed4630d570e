"""BoardReader: a still board is read on its first settled frames, in four views."""

import numpy as np
import pytest

from lab.render import Renderer, sample_scene
from makhos.vision.classifier import LABELS
from makhos.vision.pipeline import BoardReader
from makhos.vision.rectify import CROP, SquareCrops, crop_squares

START = {s: "l" for s in range(1, 9)} | {s: "d" for s in range(25, 33)}


class RecordingClassifier:
    """Answers a fixed reading per call and keeps the crops it was given."""

    geometry = CROP

    def __init__(self) -> None:
        self.crops: list[np.ndarray] = []

    def classify(self, crops: SquareCrops) -> np.ndarray:
        self.crops.append(np.array(crops.images))
        answer = np.zeros((32, len(LABELS)), np.float32)
        answer[:, len(self.crops) % len(LABELS)] = 1.0  # a different class per call
        return answer


def test_a_still_board_is_read_in_four_views_averaged():
    rng = np.random.default_rng(3)
    frame = Renderer(sample_scene(rng, elevation=(60, 80), size=(640, 480))).render(START, seed=1)
    network = RecordingClassifier()
    reader = BoardReader(network, rereads=4)
    results = [reader.process(frame.image, k / 30) for k in range(60)]
    readings = [r.reading for r in results if r.reading is not None]
    assert readings, "a still, unobstructed board is read within 2 s"
    # A start is looked for once under the eight numberings (none fits a reader that says
    # the same of every square), the colour in play is checked once on both colours'
    # squares, then four reads, and then the reading is re-used, not recomputed.
    assert len(network.crops) == 8 + 2 + 4
    reads = network.crops[10:]
    straight = crop_squares(frame.image, results[-1].location.corners, results[-1].played).images
    first, second = reads[0], reads[1]
    assert np.abs(first.astype(int) - straight).mean() < 2  # the board as seen
    assert np.array_equal(second, first[:, :, ::-1])  # the same crops, mirrored left-right
    third, fourth = reads[2], reads[3]
    assert np.array_equal(third[:, 1:], first[:, :-1])  # moved down a pixel
    assert np.array_equal(third[:, 0], first[:, 0])  # the top row repeated
    assert np.array_equal(fourth[:, :-1], second[:, 1:])  # mirrored, moved up a pixel
    assert np.array_equal(fourth[:, -1], second[:, -1])
    expected = np.zeros(len(LABELS))
    expected[[1, 2, 3, 4]] = 0.25  # the four reads' answers (calls 11-14), averaged
    assert np.allclose(readings[-1].probabilities, expected[None, :])


def settled_reading(reader: BoardReader, image: np.ndarray) -> np.ndarray:
    results = [reader.process(image, k / 30) for k in range(60)]
    readings = [r.reading for r in results if r.reading is not None]
    assert readings, "a still, unobstructed board is read within 2 s"
    return readings[-1].labels()


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
@pytest.mark.parametrize("played", ["dark", "light"])
def test_the_start_fixes_the_numbering_in_any_quarter_turn_on_either_colour(turns, played):
    """A camera behind either player or at either side of the table, men on the dark or the
    light squares: the start position is read as the start, dark men on 21-32."""
    from makhos.engine import Position
    from makhos.vision.classifier import SquareClassifier

    rng = np.random.default_rng(40 + turns)
    scene = sample_scene(rng, held_out=True, elevation=(60, 85), size=(640, 480), played=played)
    frame = Renderer(scene).render(START, seed=1)
    image = np.ascontiguousarray(np.rot90(frame.image, turns))
    labels = settled_reading(BoardReader(SquareClassifier()), image)
    start = Position.from_fen("B:W1,2,3,4,5,6,7,8:B25,26,27,28,29,30,31,32")
    assert "".join(LABELS[k] for k in labels) == "".join(
        "." if (p := start.piece_at(s)) is None else p.value for s in range(1, 33))
