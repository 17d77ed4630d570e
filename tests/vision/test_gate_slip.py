"""The gate on a small board whose registration slips a fraction of a pixel every frame
(kingplay 70084: squares of 20 pixels under a wobbling camera; every square's edge changed
from frame to frame, the board was never quiet and the game was never read after its start):
such a board settles once it has gone unread for a while, and a hand over it is still a hand."""

import cv2
import numpy as np

from makhos.vision.follower import BoardFollower
from makhos.vision.geometry import project
from makhos.vision.occlusion import GateConfig, GateState
from tests.vision.test_gate_cues import DT, _board, _gate_states

SQUARE_PX = 20.0


def _small_board():
    frame = _board()
    scale = SQUARE_PX / (float(np.linalg.norm(frame.corners[1] - frame.corners[0])) / 8)
    small = cv2.resize(frame.image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    location = BoardFollower().update(small, 0.0)
    assert location is not None
    return small, location


def _slipped(image: np.ndarray, k: int, most: float = 1.2) -> np.ndarray:
    """Frame ``k`` of a picture wobbling by up to ``most`` pixels each way (a few times a
    second), the board's location not."""
    t = k * DT
    dx, dy = most * np.sin(2 * np.pi * t / 0.4), most * np.cos(2 * np.pi * t / 0.55)
    return cv2.warpAffine(image, np.float32([[1, 0, dx], [0, 1, dy]]), image.shape[1::-1],
                          flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def test_a_small_board_registered_a_fraction_of_a_pixel_off_each_frame_settles():
    small, location = _small_board()
    images = [_slipped(small, k) for k in range(150)]
    states = _gate_states(images, [location] * len(images))
    unread = int(GateConfig().unread_s / DT)  # never still before: the plain measure's
    assert GateState.STILL not in states[10:unread]
    assert states[-60:] == [GateState.STILL] * 60


def test_a_hand_moving_over_such_a_board_is_never_read():
    small, location = _small_board()
    images = [_slipped(small, k) for k in range(100)]
    for k in range(30):  # a hand comes in from the near edge, a little further each frame
        hand = _slipped(small, 100 + k)
        reach = 9.5 - 0.15 * k
        palm = project(location.homography, np.float64([[3.0, 12.0], [5.0, 12.0], [5.0 + 0.3 * (k % 2), reach],
                                                          [3.0, reach]])).astype(np.int32)
        cv2.fillPoly(hand, [palm.reshape(-1, 1, 2)], (90, 120, 170))
        images.append(hand)
    states = _gate_states(images, [location] * len(images))
    assert states[99] is GateState.STILL
    assert GateState.STILL not in states[101:]
