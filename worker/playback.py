"""PlaybackSource: a recorded game played back as the vision stage would report it.

Halls are tested and benchmarked without cameras: a game's boards become the settled
Readings a camera would give (a hand over the board, then a few readings of the new
board), paced at ``speed`` times real time, and enter the worker right after the vision
stage, so the tracker, the outbox, the log and the server all run for real.

A restarted worker plays back from ``after`` (the time of the last event its board's log
holds): a recording has no board that moves on while no one watches, so its game waits
for the worker, as a paused video would.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, TypedDict, Unpack

from makhos.engine import Position
from makhos.engine.pdn import read_game
from makhos.vision.reading import Reading


@dataclass(frozen=True, slots=True)
class Observation:
    """What the vision stage says at one moment: a settled reading, or None (a hand)."""

    time: float
    reading: Reading | None


class PlaybackSettings(TypedDict, total=False):
    """The settings of a :class:`PlaybackSource` besides its boards (for ``from_pdn``)."""

    seconds_per_ply: float
    speed: float
    readings: int
    sleep: Callable[[float], None]
    clock: Callable[[], float]


@dataclass(frozen=True)
class PlaybackSource:
    """The boards of a game (the start, then one per ply) as timed observations."""

    boards: tuple[Position, ...]
    seconds_per_ply: float = 10.0  # in the game's time
    speed: float = 1.0  # 20: twenty times faster than the game was played
    readings: int = 4  # settled readings of each board (the tracker confirms on 3)
    sleep: Callable[[float], None] = time.sleep
    clock: Callable[[], float] = time.monotonic

    @classmethod
    def from_pdn(cls, path: str | Path, **settings: Unpack[PlaybackSettings]) -> "PlaybackSource":
        game = read_game(Path(path).read_text(encoding="utf-8")).game
        return cls(tuple(game.positions()), **settings)

    def describe(self) -> str:
        return f"replay of {len(self.boards) - 1} plies at {self.speed:g}x"

    def timeline(self) -> list[Observation]:
        """Every observation with its time in the game's seconds."""
        out = []
        for ply, board in enumerate(self.boards):
            base = ply * self.seconds_per_ply
            if ply:
                out.append(Observation(base, None))  # the hand that makes the move
            out += [Observation(base + 0.5 + 0.25 * k, Reading.certain(board, base + 0.5 + 0.25 * k))
                    for k in range(self.readings)]
        return out

    def observations(self, after: float = float("-inf")) -> Iterator[Observation]:
        """The observations later than ``after``, each when its time comes at ``speed``."""
        pending = [o for o in self.timeline() if o.time > after]
        if not pending:
            return
        origin = self.clock() - pending[0].time / self.speed
        for observation in pending:
            wait = origin + observation.time / self.speed - self.clock()
            if wait > 0:
                self.sleep(wait)
            yield observation
