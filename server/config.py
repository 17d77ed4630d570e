"""The server's one typed configuration object, built by ``makhos serve`` or by tests."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from events import EventLog


@dataclass(frozen=True, slots=True)
class BoardInfo:
    """A board of the hall as the organiser names it (the id is the one in the event log)."""

    id: str
    label: str = ""

    @property
    def title(self) -> str:
        return self.label or f"Board {self.id}"


@dataclass(frozen=True, slots=True)
class Scoring:
    """Match points per game: 2/1/0 (PEA 2005) by default, 3/1/0 (sports association)."""

    win: int = 2
    draw: int = 1
    loss: int = 0

    def points(self, outcome: str) -> int:
        """A player's points for one game they ``"won"``, ``"drawn"`` or ``"lost"``."""
        return {"won": self.win, "drawn": self.draw, "lost": self.loss}[outcome]


class FrameProvider(Protocol):
    """Where the camera view comes from (the vision pipeline plugs in here later).

    The frames show hands and faces, so they are served only behind the referee token.
    """

    def snapshot(self, board: str) -> bytes | None:
        """The latest annotated JPEG of a board, or None when that board has no camera."""


class CalibrationDesk(Protocol):
    """The calibration page's image work, done where OpenCV lives (``calibration.desk``).

    Corners are camera pixels, clockwise on screen, as a board profile stores them;
    ``quarter_turns`` rolls them so that square 1's corner comes first.
    """

    def state(self, board: str) -> dict | None:
        """Size, corners, numbering and the reading of each square; None: no profile here."""

    def frame(self, board: str) -> bytes | None:
        """The latest camera frame as JPEG, or None before the first one."""

    def board_view(self, board: str, corners: list, quarter_turns: int) -> bytes | None:
        """The rectified board with its grid and each square's reading, as JPEG."""

    def save(self, board: str, corners: list, quarter_turns: int) -> dict:
        """Write the profile with these corners; ValueError when they cannot be a board."""


@dataclass(frozen=True)
class ServerConfig:
    """Everything the application factory needs; no other setting is read anywhere else.

    ``broadcast_delay`` holds public pages and the public API that many seconds behind the
    log (anti-cheating for broadcasts); the referee console always sees it live.
    ``referee_token`` None disables the console rather than leaving it open.
    ``trusted_proxies`` is how many reverse proxies in front set ``X-Forwarded-Proto``:
    only then does a request that reached the proxy over TLS count as secure (the
    referee's cookie gets the Secure flag). With 0 the header is ignored, since any client
    can send it.
    """

    events: EventLog
    referee_token: str | None = None
    broadcast_delay: float = 0.0
    boards: tuple[BoardInfo, ...] = ()
    event_name: str = "Mak-hos"
    scoring: Scoring = field(default_factory=Scoring)
    camera: FrameProvider | None = None
    calibration: CalibrationDesk | None = None  # the calibration page (needs a board profile)
    poll_seconds: float = 0.05  # how often to look for events appended by another process
    keepalive_seconds: float = 15.0  # SSE comment interval, so proxies keep the stream open
    mjpeg_fps: float = 5.0
    trusted_proxies: int = 0

    def __post_init__(self) -> None:
        if self.broadcast_delay < 0:
            raise ValueError("broadcast_delay must not be negative")
        if self.trusted_proxies < 0:
            raise ValueError("trusted_proxies must not be negative")
        if self.referee_token is not None and len(self.referee_token) < 4:
            raise ValueError("the referee token must have at least 4 characters")
        ids = [b.id for b in self.boards]
        if len(set(ids)) != len(ids):
            raise ValueError("a board id is listed twice")
