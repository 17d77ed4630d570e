"""A gate fed rendered frames as the pipeline feeds it: the follower finds the board in
each, and the gate judges it there."""

from __future__ import annotations

import numpy as np

from makhos.vision.follower import BoardFollower
from makhos.vision.occlusion import GateState, GateStatus, OcclusionGate

DT = 1 / 30


def gate_statuses(images: list[np.ndarray]) -> list[GateStatus]:
    """The gate's status on each of ``images``, taken ``DT`` apart."""
    tracker, gate, statuses = BoardFollower(), OcclusionGate(), []
    for k, image in enumerate(images):
        location = tracker.update(image, k * DT)
        statuses.append(gate.update(image, location, k * DT, tracker.last_check))
    return statuses


def gate_states(images: list[np.ndarray]) -> list[GateState]:
    """The gate's state on each of ``images`` (:func:`gate_statuses`)."""
    return [status.state for status in gate_statuses(images)]
