"""A hall's boards side by side: the camera watches its own board whole, so a board cut by
the frame's edge, found first, gives way to a board wholly in view (kingplay 70061, 70069:
no game started on the neighbour's board); a lone board cut by the edge is still found."""

import numpy as np

from lab.render import Renderer, random_position, sample_scene
from makhos.vision.locate import locate_board

SEED = 20_003  # a scene where the finder grows the cut board's grid first


def _frame_and_cut() -> tuple[np.ndarray, int, np.ndarray]:
    rng = np.random.default_rng(SEED)
    frame = Renderer(sample_scene(rng, held_out=True, elevation=(60.0, 90.0))).render(random_position(rng), seed=1)
    xs = frame.corners[:, 0]
    cut = int(xs.min() + 0.3 * (xs.max() - xs.min()))  # a third of the board off the frame
    return frame.image, cut, frame.corners


def test_a_board_wholly_in_view_is_taken_before_a_neighbour_cut_by_the_edge():
    image, cut, corners = _frame_and_cut()
    hall = np.hstack([image[:, cut:], image])  # the neighbour's board cut, then this one whole
    found = locate_board(hall)
    assert found is not None
    whole = corners + np.float32([image.shape[1] - cut, 0])
    assert np.abs(np.sort(found.corners, axis=0) - np.sort(whole, axis=0)).max() < 0.25 * (np.ptp(corners[:, 0]) / 8)


def test_a_lone_board_cut_by_the_edge_is_still_found():
    image, cut, corners = _frame_and_cut()
    found = locate_board(image[:, cut:])
    assert found is not None
    assert found.corners[:, 0].min() < 0  # the board, cut as it is
