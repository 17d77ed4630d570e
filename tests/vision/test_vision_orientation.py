"""The played colour and the numbering come from the pieces, whatever corner the search started at."""

from __future__ import annotations

import numpy as np
import pytest
from drawn_boards import render

from makhos.vision.locate import locate_board
from makhos.vision.orientation import orient


@pytest.mark.parametrize("seed, yaw", [(1, 0), (3, 100), (6, 190), (9, 275), (20, 45)])
def test_start_position_gives_played_colour_and_numbering(seed, yaw):
    # Drawn boards: light men on rows 0-2, dark squares where row + col is odd, the true
    # corners listed from the drawn board's (row 0, col 0); that is the numbering frame.
    frame = render(seed, elevation_deg=50, yaw_deg=yaw)
    found = locate_board(frame.image)
    assert found is not None
    for turns in range(4):  # the answer must not depend on where the search started
        result = orient(frame.image, found.rotated(turns))
        assert result.played == ("dark" if frame.played_parity == 1 else "light")
        assert np.linalg.norm(result.location.corners - frame.corners, axis=1).max() < 8.0
        if frame.occupied.sum() == 24:
            assert result.confidence > 0.5
