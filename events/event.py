"""GameEvent: one typed entry of a board's log.

Every stage that changes what spectators see speaks through these: the tracker (moves,
irregularities, clock warnings), the referee console (corrections, results) and the
workers (camera lost). Fields are explicit; ``detail`` holds only extra, kind-specific
facts that no reader needs to branch on.
"""

from __future__ import annotations

import enum
import json
from dataclasses import asdict, dataclass, field, replace
from typing import Any


class EventKind(str, enum.Enum):
    GAME_STARTED = "game_started"  # fen: the start; detail: rules
    MOVE = "move"  # move, fen after, side; irregular moves carry ``reason``
    IRREGULARITY = "irregularity"  # alert: reason, rule, side; detail: missed captures
    ALERT_CLOSED = "alert_closed"  # how an alert ended: corrected, stood, chain finished
    TAKEBACK = "takeback"  # the board went back ``detail.plies`` plies
    CROWNING_PENDING = "crowning_pending"  # a man reached the far row, not stacked yet
    BOARD_MISMATCH = "board_mismatch"  # no move explains the board; detail: differing squares
    BOARD_MATCHED = "board_matched"  # the board agrees with the game again
    CLOCK = "clock"  # per-move clock signal: detail.level yellow/red, detail.seconds
    RESULT = "result"  # reason, detail.outcome
    CAMERA = "camera"  # detail.status lost/back
    REFEREE = "referee"  # a referee action; detail.action and its arguments


@dataclass(frozen=True, slots=True)
class GameEvent:
    """One event of one board. ``seq`` is given by the log when it is appended."""

    board: str
    kind: EventKind
    time: float  # seconds of the source's clock (frame time), or wall time for referee acts
    game: int = 1  # which game of the board's match
    ply: int | None = None  # plies played in the game after this event
    move: str | None = None  # full-path PDN, e.g. "25x18x11"
    fen: str | None = None  # the position after the event
    side: str | None = None  # "dark" / "light": who moved or who is concerned
    reason: str | None = None  # a referee's sentence
    detail: dict[str, Any] = field(default_factory=dict)
    seq: int | None = None

    def to_json(self) -> str:
        data = asdict(self)
        data["kind"] = self.kind.value
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> "GameEvent":
        data = json.loads(text)
        data["kind"] = EventKind(data["kind"])
        return cls(**data)

    def with_seq(self, seq: int) -> "GameEvent":
        return replace(self, seq=seq)
