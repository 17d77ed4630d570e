"""Real webcam frames (../shared/realdata, never in the repository): skipped where absent."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from makhos.vision.locate import locate_board
from makhos.vision.orientation import orient

REAL = Path(__file__).resolve().parents[3] / "shared" / "realdata" / "julie-robot-webcam"

#: log1's set-up: outer corners in the numbering frame (bench/realdata_corners.json, read
#: off the empty board with OpenCV's chessboard detector and checked by eye).
LOG1_CORNERS = np.array([[178.7, 695.7], [338.0, 173.9], [839.4, 324.7], [776.9, 834.1]])


@pytest.mark.skipif(not REAL.is_dir(), reason="../shared/realdata is not here")
@pytest.mark.parametrize("name", ["log1/calib/full.jpg", "log1/4293918720+4095.jpg"])
def test_masked_board_is_found_and_numbered(name):
    image = cv2.imread(str(REAL / name))
    found = locate_board(image)
    assert found is not None and found.confidence > 0.5
    numbered = orient(image, found)
    # The men stand on the dark squares of this board (the realdata README says light;
    # the photographs and the labels say dark).
    assert numbered.played == "dark"
    side = np.linalg.norm(LOG1_CORNERS - np.roll(LOG1_CORNERS, 1, axis=0), axis=1).mean()
    assert np.linalg.norm(numbered.location.corners - LOG1_CORNERS, axis=1).max() < 0.015 * side
