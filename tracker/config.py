"""The tracker's thresholds, in one typed object."""

from __future__ import annotations

from dataclasses import dataclass

from makhos.engine import Colour


@dataclass(frozen=True)
class TrackerConfig:
    """Thresholds of the tracker; log-likelihoods are in nats over the 32 squares."""

    confirm_readings: int = 2  # consecutive settled readings that must agree
    confirm_mismatch: int = 6  # ... before "board does not match" (a misread is brief),
    # read for misread_patience seconds too
    margin: float = 4.0  # lead of the best story over any story with another board
    square_tolerance: float = 3.0  # how far, on any one square, the best story may trail
    misread_squares: int = 2  # squares a reading may contradict the best story on, as a misread
    relit_squares: int = 4  # squares a board read in new light (``Reading.relit``) may differ
    # from the game's by and be recorded when no ply explains it: more is the light's doing
    misread_patience: float = 3.0  # seconds such a misread must last to be the board
    chain_patience: float = 2.0  # seconds a chain may rest unfinished before the alert
    transit: float = 1.0  # seconds a board changed in sight (no hand) must stay to be acted on
    hand: float = 0.3  # seconds a cover keeps the board unread at least to be a hand (tracker._arrive)
    first_mover: Colour | None = None  # None: the first move decides it
    gap_after: float = 4.0  # seconds without a settled reading that make a gap (tracker.gaps)
    gap_plies: int = 6  # the most plies looked for in a gap
    shortest_ply: float = 1.0  # seconds a ply takes at least: how many plies fit a gap
    offline: bool = False  # no referee: of several lines through a gap, record the likeliest
