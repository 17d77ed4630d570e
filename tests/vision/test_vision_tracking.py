"""Board tracking and the occlusion gate on short drawn sequences (30 frames a second)."""

from __future__ import annotations

import numpy as np
import pytest
from drawn_boards import render

from makhos.vision.follower import BoardFollower, FollowState
from makhos.vision.geometry import corner_error
from makhos.vision.occlusion import GateState, OcclusionGate

DT = 1 / 30


def side(corners: np.ndarray) -> float:
    return float(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1).mean())


@pytest.fixture(scope="module")
def scene():
    clean = render(21, elevation_deg=55, yaw_deg=40)
    return clean, render(21, hand=True, elevation_deg=55, yaw_deg=40)


def bumped(frame, seed: int, angle_deg: float, shift: tuple[float, float]):
    """The same board turned about its centre and shifted in the image."""
    cx, cy = frame.corners.mean(axis=0)
    a = np.radians(angle_deg)
    c, s = np.cos(a), np.sin(a)
    move = np.array(
        [
            [c, -s, cx - c * cx + s * cy + shift[0]],
            [s, c, cy - s * cx - c * cy + shift[1]],
            [0, 0, 1],
        ]
    )
    return render(seed, homography=move @ frame.homography)


@pytest.mark.parametrize(
    "angle, shift", [(0, (60, 30)), (25, (0, 0)), (90, (-40, 20)), (2, (5, -4))]
)
def test_tracker_relocalises_within_half_a_second_of_a_bump(scene, angle, shift):
    clean, _ = scene
    after = bumped(clean, 21, angle, shift)
    tracker = BoardFollower()
    t = 0.0
    for _ in range(5):
        tracker.update(clean.image, t)
        t += DT
    first_corner = tracker.location.corners[0]
    frames_to_recover = None
    for i in range(15):
        location = tracker.update(after.image, t)
        t += DT
        if location is not None and corner_error(location.corners, after.corners) < 0.015 * side(
            after.corners
        ):
            frames_to_recover = i
            break
    assert frames_to_recover is not None and frames_to_recover * DT <= 0.5
    assert tracker.state is FollowState.FOLLOWING
    if (
        angle < 45
    ):  # the numbering follows the board: its first corner stays the same physical corner
        moved_first = np.linalg.norm(tracker.location.corners - first_corner, axis=1).argmin()
        assert moved_first == 0


def test_tracker_keeps_the_board_under_a_hand(scene):
    clean, hand = scene
    tracker = BoardFollower()
    before = tracker.update(clean.image, 0.0)
    during = tracker.update(hand.image, DT)
    assert during is not None
    # The registration may move it by noise under the hand, never by a visible amount.
    np.testing.assert_allclose(during.corners, before.corners, atol=0.25)


def test_a_board_found_with_a_hand_over_it_waits_a_second_for_its_first_read(scene):
    """The hand hides a few corners, more than a start's men hide from a high camera: with
    no still view yet to tell it from the board, only a second of stillness lets it read."""
    _, hand = scene
    states = run_gate(OcclusionGate(), BoardFollower(), [hand.image] * 25, 0.0)
    assert states[-1].state is GateState.MOVING
    assert not any(s.readable for s in states)


def run_gate(gate: OcclusionGate, tracker: BoardFollower, images: list[np.ndarray], t0: float):
    out = []
    for i, image in enumerate(images):
        t = t0 + i * DT
        location = tracker.update(image, t)
        out.append(gate.update(image, location, t, tracker.last_check))
    return out


def test_gate_reads_only_still_frames_and_never_a_hand(scene):
    clean, hand = scene
    tracker, gate = BoardFollower(), OcclusionGate()
    first = run_gate(gate, tracker, [clean.image] * 40, 0.0)
    readable = [s.readable for s in first]
    # A board just found with its whole grid in view is first read after still_s.
    assert not any(readable[:6]), "read before the new board was still"
    assert all(readable[8:])
    # A hand comes in and rests there without moving: never read.
    resting = run_gate(gate, tracker, [hand.image] * 90, 40 * DT)
    assert not any(s.readable for s in resting)
    assert resting[-1].state is GateState.OCCLUDED
    # It leaves: read again once the stability window (0.3 s) has passed, not at once.
    after = run_gate(gate, tracker, [clean.image] * 15, 130 * DT)
    assert not after[0].readable
    assert after[-1].readable and after[-1].state is GateState.STILL


def test_gate_without_a_board_reads_nothing(scene):
    clean, _ = scene
    status = OcclusionGate().update(clean.image, None, 0.0)
    assert status.state is GateState.NO_BOARD and not status.readable
