"""BoardSession: one camera, one board, from frames to logged events.

Events are appended to the log before the session hands them on, so whatever shows an
event (the live page, a PDN download) can only show what is already stored.
"""

from __future__ import annotations

import numpy as np

from engine.pdn import write_game
from events import EventLog, GameEvent
from tracker import GameTracker
from vision.pipeline import BoardReader, FrameResult


class BoardSession:
    def __init__(self, reader: BoardReader, tracker: GameTracker, log: EventLog | None = None) -> None:
        self.reader = reader
        self.tracker = tracker
        self.log = log
        self.last: FrameResult | None = None

    def feed(self, image: np.ndarray, time: float) -> list[GameEvent]:
        """Process one frame; returns the events it caused, already stored."""
        self.last = self.reader.process(image, time)
        events = self.tracker.observe(time, self.last.reading)
        if self.log is not None:
            events = [self.log.append(event) for event in events]
        return events

    def pdn(self, tags: dict[str, str] | None = None) -> str | None:
        """The PDN of the current game, None before a game has started."""
        game = self.tracker.game
        return write_game(game, tags) if game is not None else None
