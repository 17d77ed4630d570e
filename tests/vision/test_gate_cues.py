"""The gate's cues under a shaky, compressed camera (issue #20): a change along the board's
edge that no arm makes lets the board settle, an arm across the ring does not; a lone key
frame's pulse keeps a quiet run, a hand leaving slowly does not."""

import cv2
import numpy as np

from lab.render import Renderer, random_position, sample_scene
from makhos.vision.follower import BoardFollower
from makhos.vision.geometry import homography_from_corners, project
from makhos.vision.occlusion import GateConfig, GateState, OcclusionGate

DT = 1 / 30


def _board(seed: int = 10_031):
    rng = np.random.default_rng(seed)
    renderer = Renderer(sample_scene(rng, held_out=True, elevation=(60.0, 90.0)))
    return renderer.render(random_position(rng), seed=1)


def _to_image(frame, points) -> np.ndarray:
    """Board units (x = col, y = row; the board is 0..8) to image pixels of ``frame``."""
    homography = homography_from_corners(frame.corners)
    return project(homography, np.asarray(points, np.float64)).astype(np.int32)


def _states(images: list[np.ndarray]) -> list[GateState]:
    tracker, gate, states = BoardFollower(), OcclusionGate(), []
    for k, image in enumerate(images):
        location = tracker.update(image, k * DT)
        states.append(gate.update(image, location, k * DT, tracker.last_check).state)
    return states


def test_a_line_along_the_board_edge_in_the_ring_lets_the_board_settle_well_before_settle_s():
    frame = _board()
    edged = frame.image.copy()
    line = _to_image(frame, [[-1.6, -1.6], [9.6, -1.6], [9.6, 9.6], [-1.6, 9.6]])
    cv2.polylines(edged, [line.reshape(-1, 1, 2)], True, (20, 20, 20), 2)  # no arm's shape
    states = _states([frame.image] * 40 + [edged] * 30)
    assert states[39] is GateState.STILL
    settled = states.index(GateState.STILL, 41)
    assert (settled - 40) * DT < GateConfig().settle_s / 2


def test_an_arm_across_the_ring_keeps_the_board_covered_though_every_corner_shows():
    frame = _board()
    armed = frame.image.copy()
    arm = _to_image(frame, [[3.6, -6.0], [4.4, -6.0], [4.4, -0.7], [3.6, -0.7]])  # stops off the board
    cv2.fillPoly(armed, [arm.reshape(-1, 1, 2)], (60, 110, 190))
    states = _states([frame.image] * 40 + [armed] * 45)
    assert states[39] is GateState.STILL
    assert GateState.STILL not in states[41:]  # 1.5 s: under settle_s, never read


def _cells(level: float, changed: int = 16) -> np.ndarray:
    """Quarter-square cells of a plain board, ``changed`` of them brighter by ``level``."""
    q = 4 * (8 + 2 * GateConfig().margin)
    cells = np.full((q, q, 3), 100.0, np.float32)
    cells[0, :changed] += level
    return cells


def test_a_lone_pulse_keeps_the_quiet_run_but_pulses_close_together_end_it():
    """A key frame steps the codec's picture a little; the frames after it build on it."""
    gate = OcclusionGate()
    rows = np.tile(np.arange(48, dtype=np.float32)[:, None] * 10, (1, 48))
    pulse = 1.3 * GateConfig().motion_level * 2  # a half square holds two changed quarters
    steps = [(0.0, 0), (0.033, pulse), (0.067, pulse),  # a key frame: no motion
             (0.2, 2 * pulse), (0.233, 2 * pulse),  # another 0.13 s later: motion
             (0.8, 5 * pulse)]  # alone, but too large for a pulse: motion
    seen = [gate._motion(_cells(level), rows, t)[1] for t, level in steps]
    assert seen == [False, False, False, True, False, True]
