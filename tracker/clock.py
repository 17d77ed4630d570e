"""The per-move clock, read from the board itself: time runs from the last move seen.

RULES.md: 2 minutes per move, yellow warnings at 1:30 and 1:50, red at 2:00; extra
thinking time granted by the referee extends the limit of the move in progress.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class ClockSignal:
    level: str  # "yellow" or "red"
    seconds: float  # the mark reached (90, 110, 120 plus any extra time)


@dataclass
class MoveClock:
    limit: float = 120.0
    warnings: tuple[float, ...] = (90.0, 110.0)
    started: float | None = None
    extra: float = 0.0
    _given: set[float] = field(default_factory=set)

    def start(self, time: float) -> None:
        """A move was made: the next one's time starts now."""
        self.started = time
        self.extra = 0.0
        self._given = set()

    def grant(self, seconds: float) -> None:
        """Extra thinking time for the move in progress."""
        self.extra += seconds
        self._given = set()  # the marks fall due again, later by the extra time

    def elapsed(self, time: float) -> float:
        return 0.0 if self.started is None else max(time - self.started, 0.0)

    def tick(self, time: float) -> list[ClockSignal]:
        """The signals due at ``time`` that were not given yet."""
        if self.started is None:
            return []
        used = self.elapsed(time) - self.extra
        out = []
        for mark, level in [(w, "yellow") for w in self.warnings] + [(self.limit, "red")]:
            if used >= mark and mark not in self._given:
                self._given.add(mark)
                out.append(ClockSignal(level, mark + self.extra))
        return out
