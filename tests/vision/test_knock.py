"""A knock of the camera (issue #42, kingplay 70027): the whole board moves alike, in a frame,
and stays moved; it must be found where it went, turn and all, and never read where it was."""

import cv2
import numpy as np
from test_gate_cues import DT, _board

from makhos.vision import follower as follower_module
from makhos.vision.follower import BoardFollower
from makhos.vision.geometry import corner_error
from makhos.vision.occlusion import GateState, OcclusionGate


def _knocked(image: np.ndarray, corners: np.ndarray, turn_deg: float,
             shift: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
    """``image`` as the camera knocked sees it: turned by ``turn_deg`` about the picture's
    centre and shifted by ``shift`` pixels; and where the board's ``corners`` went."""
    h, w = image.shape[:2]
    motion = cv2.getRotationMatrix2D((w / 2, h / 2), turn_deg, 1.0)
    motion[:, 2] += shift
    moved = cv2.warpAffine(image, motion, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    return moved, corners @ motion[:, :2].T + motion[:, 2]


def _coded(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``image`` as a cheap camera sends it: moved by a fraction of a pixel, grainy, and
    compressed hard into 8x8 blocks with colour at half resolution."""
    dx, dy = rng.uniform(-0.5, 0.5, 2)
    moved = cv2.warpAffine(image, np.float32([[1, 0, dx], [0, 1, dy]]), image.shape[1::-1],
                           borderMode=cv2.BORDER_REFLECT)
    grainy = np.clip(moved + rng.normal(0, 6, moved.shape), 0, 255).astype(np.uint8)
    _, jpeg = cv2.imencode(".jpg", grainy, [cv2.IMWRITE_JPEG_QUALITY, 10])
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR)


def test_a_knocked_camera_is_followed_turn_and_all_and_never_read_where_the_board_was(monkeypatch):
    """Kingplay 70027: a small board knocked by 2.7 degrees and 3.4 pixels. The registration
    measured the knock but refused it as too large for a wobble, the local refit fails on
    such small squares through a codec (here: never succeeds), the probe still saw some
    corners where the board had been, and the board was followed there, covered to the end.
    A full search would land up to a quarter of a square off."""
    monkeypatch.setattr(follower_module, "refine_location", lambda *args, **kwargs: None)
    big = _board()
    image = cv2.resize(big.image, None, fx=0.3, fy=0.3, interpolation=cv2.INTER_AREA)
    corners = np.asarray(big.corners, np.float64) * 0.3
    knocked, truth = _knocked(image, corners, 2.7, (0.5, -3.4))
    side = float(np.linalg.norm(corners[1] - corners[0])) / 8
    assert corner_error(corners, truth) > 0.35 * side  # more than a wobble
    rng = np.random.default_rng(3)
    frames = [_coded(image, rng) for _ in range(30)] + [_coded(knocked, rng) for _ in range(30)]
    follower, gate, after = BoardFollower(), OcclusionGate(), []
    for k, frame in enumerate(frames):
        location = follower.update(frame, k * DT)
        status = gate.update(frame, location, k * DT, follower.last_check)
        if k >= 30 and status.state is GateState.STILL:
            assert location is not None
            assert corner_error(location.corners, truth) < 0.1 * side, f"read {k - 30} frames after the knock"
        after += [status.state] if k >= 30 else []
    assert location is not None and corner_error(location.corners, truth) < 0.1 * side
    assert GateState.OCCLUDED not in after[-10:]
