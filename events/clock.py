"""The per-move clock: RULES.md's time per move, its warnings, and the time base of events.

The fold (:mod:`events.game`) keeps one :class:`Clock` for the side to move and asks it
which signals are due; the pages draw it. The policy lives here so that changing the time
per move, or the marks a referee hears, touches this module alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from makhos.engine import Colour

from .details import ClockLevel, ClockSignal

#: RULES.md: 2 minutes per move, yellow warnings at 1:30 and 1:50.
MOVE_SECONDS = 120
WARNING_SECONDS = (90, 110)
#: The events' time base, guessed from a time itself (an event does not name it): above
#: this (2001-09-09) the wall clock, below it a video's seconds.
WALL_CLOCK = 1e9


@dataclass(slots=True)
class Clock:
    """The per-move clock of the side to move. ``started`` is in the events' time base."""

    side: Colour = Colour.DARK
    started: float | None = None
    extra_seconds: int = 0
    level: ClockLevel | None = None  # the last signal given for this move
    signalled: set[float] = field(default_factory=set)  # the marks given, extra included
    stopped: float | None = None  # when it stopped: the game ended, or the camera did

    @property
    def limit_seconds(self) -> int:
        return MOVE_SECONDS + self.extra_seconds

    def spent(self, time: float) -> float | None:
        """Seconds from the clock's start to ``time``; None without a start, or when the two
        are in different time bases (a video's frame time and a referee's wall time)."""
        if self.started is None or (self.started > WALL_CLOCK) != (time > WALL_CLOCK):
            return None
        return max(time - self.started, 0.0)

    def stop(self, time: float) -> None:
        if self.stopped is None:
            self.stopped = time

    def due(self, time: float) -> list[ClockSignal]:
        """The signals due at ``time`` that were not given yet, oldest mark first."""
        if self.started is None or self.stopped is not None:
            return []
        used = max(time - self.started, 0.0) - self.extra_seconds
        marks = [(w, ClockLevel.YELLOW) for w in WARNING_SECONDS] + [(MOVE_SECONDS, ClockLevel.RED)]
        return [ClockSignal(level, float(mark + self.extra_seconds)) for mark, level in marks
                if used >= mark and mark + self.extra_seconds not in self.signalled]
