"""BoardSession: one camera, one board, from frames to logged events.

Events are appended to the log before the session hands them on, so whatever shows an
event (the live page, a PDN download) can only show what is already stored. Between
frames the session reads the log back to the tracker: its own events come back numbered
(a referee decision names an alert by its seq), and referee decisions and camera notices,
which others append, are applied to its record.
"""

from __future__ import annotations

import time as clock

import numpy as np

from engine.pdn import Numbering, write_game
from events import EventLog, GameEvent
from tracker import GameTracker
from vision.pipeline import BoardReader, FrameResult
from vision.reading import Reading

#: Seconds (wall clock) between two looks at the log.
DECISION_POLL = 0.25


class BoardSession:
    def __init__(self, reader: BoardReader, tracker: GameTracker, log: EventLog | None = None,
                 seen: int | None = None) -> None:
        """``seen``: the last seq the tracker already knows (a tracker resumed from the log);
        by default everything logged before this session is history."""
        self.reader = reader
        self.tracker = tracker
        self.log = log
        self.last: FrameResult | None = None
        self._seen = self._log_end() if seen is None else seen
        self._polled = -np.inf

    def feed(self, image: np.ndarray, time: float) -> list[GameEvent]:
        """Process one frame; returns the events it caused, already stored."""
        self.last = self.reader.process(image, time)
        return self.observe(time, self.last.reading)

    def observe(self, time: float, reading: Reading | None) -> list[GameEvent]:
        """Take a Reading made without this session's reader (a replayed game in a hall
        bench or test): the same decisions, tracker and log as a camera frame."""
        self._read_back()
        events = self.tracker.observe(time, reading)
        if self.log is not None:
            events = [self.log.append(event) for event in events]
        return events

    def pdn(self, tags: dict[str, str] | None = None,
            numbering: Numbering = Numbering.FIRST_MOVER) -> str | None:
        """The PDN of the current game, None before a game has started."""
        game = self.tracker.game
        return write_game(game, tags, numbering=numbering) if game is not None else None

    def _log_end(self) -> int:
        if self.log is None:
            return 0
        seen = 0
        while batch := self.log.read(self.tracker.board_id, after=seen):
            seen = batch[-1].seq
        return seen

    def _read_back(self) -> None:
        now = clock.monotonic()
        if self.log is None or now - self._polled < DECISION_POLL:
            return
        self._polled = now
        for event in self.log.read(self.tracker.board_id, after=self._seen):
            self._seen = event.seq
            self.tracker.logged(event)
