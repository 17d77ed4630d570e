"""The gate on a small board whose registration slips a fraction of a pixel every frame
(kingplay 70084: squares of 20 pixels under a wobbling camera; every square's edge changed
from frame to frame, the board was never quiet and the game was never read after its start):
such a board settles once it has gone unread for a while, or at once where it was never still
(its set-up), a key frame's pulse does not take the allowance back, and a hand over it is
still a hand."""

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
    """Read once, the board wavers: from ``unread_s`` unread on, it settles."""
    small, location = _small_board()
    images = [small] * 20 + [_slipped(small, k) for k in range(150)]
    states = _gate_states(images, [location] * len(images))
    assert states[19] is GateState.STILL  # the steady board is read
    unread = 20 + int(GateConfig().unread_s / DT)  # still before: the plain measure's until then
    assert GateState.STILL not in states[30:unread]
    assert states[-60:] == [GateState.STILL] * 60


def _hand_coming(small: np.ndarray, location, first: int, frames: int) -> list[np.ndarray]:
    """``frames`` frames of the wavering board from frame ``first`` on, a hand coming in
    from its near edge a little further each frame."""
    images = []
    for k in range(frames):
        hand = _slipped(small, first + k)
        reach = 9.5 - 0.15 * k
        palm = project(location.homography, np.float64([[3.0, 12.0], [5.0, 12.0], [5.0 + 0.3 * (k % 2), reach],
                                                          [3.0, reach]])).astype(np.int32)
        cv2.fillPoly(hand, [palm.reshape(-1, 1, 2)], (90, 120, 170))
        images.append(hand)
    return images


def test_a_board_that_wavers_from_the_first_frame_is_read_at_once():
    """A board never still since the gate began is allowed its slip from its first frame:
    its set-up stands a moment only (kingplay 70174: under a camera wobbling 2 pixels, the
    set-up stood 1.3 s before the first hand, and the board was first still after the
    first move; no game was found)."""
    small, location = _small_board()
    images = [_slipped(small, k) for k in range(40)]
    states = _gate_states(images, [location] * len(images))
    first = int(GateConfig().first_still_s / DT) + 2
    assert states[first:] == [GateState.STILL] * (len(images) - first)


def test_a_hand_moving_over_a_board_just_found_is_never_read():
    small, location = _small_board()
    images = [_slipped(small, k) for k in range(5)] + _hand_coming(small, location, 5, 40)
    states = _gate_states(images, [location] * len(images))
    assert GateState.STILL not in states


def _stepped(image: np.ndarray, location, delta: float) -> np.ndarray:
    """``image`` with a square of the table beside the board's left edge ``delta`` grey
    levels brighter: a key frame's step in the codec's picture, kept by the frames after it."""
    out = image.astype(np.float32)
    patch = project(location.homography, np.float64([[-1.5, 3.0], [-0.5, 3.0], [-0.5, 4.0], [-1.5, 4.0]]))
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.fillPoly(mask, [patch.astype(np.int32).reshape(-1, 1, 2)], 1)
    out[mask > 0] += delta
    return np.clip(out, 0, 255).astype(np.uint8)


def test_a_key_frames_pulse_leaves_a_wavering_board_read():
    """A frame let pass as a key frame's pulse is no hand, and leaves the slip allowed: taken
    for one, it held a wavering board unread for ``unread_s`` after every key frame a little
    beyond the level (kingplay 70005: MPEG-4 with a key frame every 7 frames, the set-up
    read at 0.2 s and the board then unread until the first move was made)."""
    small, location = _small_board()
    images = [_slipped(small, k) for k in range(90)]
    images[45:] = [_stepped(image, location, 1.6 * GateConfig().motion_level) for image in images[45:]]
    states = _gate_states(images, [location] * len(images))
    assert states[44] is GateState.STILL
    assert states[45:] == [GateState.STILL] * 45


def test_a_hand_moving_over_such_a_board_is_never_read():
    small, location = _small_board()
    images = [_slipped(small, k) for k in range(100)] + _hand_coming(small, location, 100, 30)
    states = _gate_states(images, [location] * len(images))
    assert states[99] is GateState.STILL
    assert GateState.STILL not in states[101:]
