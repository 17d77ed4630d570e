"""GameEvent: one entry of a board's log.

Every stage that changes what spectators see speaks through these: the tracker (moves,
irregularities, clock signals), the referee console (decisions) and the workers (camera
notices). The envelope's fields are what every kind may have; what only one kind says is
in its typed ``detail`` (:mod:`events.details`, :mod:`events.decisions`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any

from makhos.engine import Colour

from .details import Detail, EventKind, Unreadable, detail_type, read_detail

__all__ = ["EventKind", "GameEvent"]


@dataclass(frozen=True, slots=True)
class GameEvent:
    """One event of one board. ``seq`` is given by the log when it is appended (0 before:
    logs number their events from 1).

    ``detail`` defaults to the kind's detail with every field at its default (a kind
    whose detail has a required field needs it given).
    """

    board: str
    kind: EventKind
    time: float  # seconds of the source's clock (frame time), or wall time for referee acts
    game: int = 1  # which game of the board's match
    ply: int | None = None  # plies played in the game after this event
    move: str | None = None  # full-path PDN, e.g. "25x18x11"
    fen: str | None = None  # the position after the event (or the board it is about)
    side: Colour | None = None  # who moved, or who is concerned
    reason: str | None = None  # a referee's sentence
    detail: Detail = field(default=None)  # type: ignore[assignment]  # filled in below
    seq: int = 0

    def __post_init__(self) -> None:
        if self.detail is None:
            object.__setattr__(self, "detail", detail_type(self.kind)())
        elif not isinstance(self.detail, (detail_type(self.kind), Unreadable)):
            raise TypeError(f"a {self.kind.value} event carries {detail_type(self.kind).__name__}, "
                            f"not {type(self.detail).__name__}")

    def to_json(self) -> str:
        data: dict[str, Any] = {
            "board": self.board, "kind": self.kind.value, "time": self.time, "game": self.game,
            "ply": self.ply, "move": self.move, "fen": self.fen,
            "side": None if self.side is None else self.side.value, "reason": self.reason,
            "detail": self.detail.to_dict(), "seq": self.seq,
        }
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> GameEvent:
        """Read a stored event; ValueError when the envelope is not an event's."""
        data = json.loads(text)
        try:
            kind = EventKind(data["kind"])
            side = None if data.get("side") is None else Colour(data["side"])
            return cls(board=data["board"], kind=kind, time=data["time"],
                       game=data.get("game", 1), ply=data.get("ply"), move=data.get("move"),
                       fen=data.get("fen"), side=side, reason=data.get("reason"),
                       detail=read_detail(kind, data.get("detail", {})), seq=data.get("seq") or 0)
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"not a stored event ({error!r}): {text[:120]}") from None

    def with_seq(self, seq: int) -> GameEvent:
        return replace(self, seq=seq)
