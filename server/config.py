"""The server's one typed configuration object, built by ``makhos serve`` or by tests."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from makhos.events import EventLog


@dataclass(frozen=True, slots=True)
class BoardInfo:
    """A board of the hall as the organiser names it (the id is the one in the event log).

    ``picture``: its public page shows the camera's rectified board beside the diagram
    (the hall profile's ``"picture": true``); off by default, since a camera sees more than
    the pieces.
    """

    id: str
    label: str = ""
    picture: bool = False

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


MAX_ANALYSIS_SECONDS = 60.0  # a position a minute: beyond that the broadcast has moved on
MAX_ANALYSIS_DEPTH = 64


@dataclass(frozen=True, slots=True)
class AnalysisSettings:
    """The commentators' analysis on the public board pages (off unless the hall profile
    says ``"analysis": {"seconds": 1}``): how long the search may think about each position
    the public is shown, or how deep (``depth``, for tests and slow machines), and how many
    analysed positions the server keeps.

    >>> AnalysisSettings.from_json({"seconds": 0.5})
    AnalysisSettings(seconds=0.5, depth=None, cache_entries=4096)
    >>> AnalysisSettings.from_json(False) is None
    True
    """

    seconds: float = 1.0
    depth: int | None = None
    cache_entries: int = 4096

    def __post_init__(self) -> None:
        if not 0 < self.seconds <= MAX_ANALYSIS_SECONDS:
            raise ValueError(f"analysis seconds must be more than 0 and at most {MAX_ANALYSIS_SECONDS}")
        if self.depth is not None and not 1 <= self.depth <= MAX_ANALYSIS_DEPTH:
            raise ValueError(f"analysis depth must be 1 to {MAX_ANALYSIS_DEPTH}")
        if self.cache_entries < 1:
            raise ValueError("analysis cache_entries must be at least 1")

    @classmethod
    def from_json(cls, value: object) -> "AnalysisSettings | None":
        """The hall profile's ``"analysis"``: ``true``, ``false`` (off) or
        ``{"seconds": S, "depth": D}``; ValueError, naming the field, for anything else."""
        if value is False or value is None:
            return None
        if value is True:
            return cls()
        if not isinstance(value, dict):
            raise ValueError('analysis must be true, false or {"seconds": 1}')
        unknown = sorted(set(value) - {"seconds", "depth"})
        if unknown:
            raise ValueError(f"analysis: unknown field {unknown[0]!r} (seconds, depth)")
        seconds, depth = value.get("seconds", 1.0), value.get("depth")
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
            raise ValueError(f"analysis seconds must be a number, not {seconds!r}")
        if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int)):
            raise ValueError(f"analysis depth must be a whole number, not {depth!r}")
        return cls(seconds=float(seconds), depth=depth)


class FrameProvider(Protocol):
    """Where the camera view comes from (the vision pipeline plugs in here later).

    The frames show hands and faces, so they are served only behind the referee token.
    """

    def snapshot(self, board: str) -> bytes | None:
        """The latest annotated JPEG of a board, or None when that board has no camera."""

    def health(self, board: str) -> dict[str, Any] | None:
        """The board's vision health as the recorder last said it (state, share of frames
        with the board found, camera shake, seconds since the last read, ``age`` of the
        news), or None when that board has no camera."""


class CalibrationDesk(Protocol):
    """The calibration page's image work, done where OpenCV lives (``calibration.desk``).

    Corners are camera pixels, clockwise on screen, as a board profile stores them;
    ``quarter_turns`` rolls them so that square 1's corner comes first.
    """

    def state(self, board: str) -> dict[str, Any] | None:
        """Size, corners, numbering and the reading of each square; None: no profile here."""

    def frame(self, board: str) -> bytes | None:
        """The latest camera frame as JPEG, or None before the first one."""

    def board_view(self, board: str, corners: list[list[float]], quarter_turns: int) -> bytes | None:
        """The rectified board with its grid and each square's reading, as JPEG."""

    def save(self, board: str, corners: list[list[float]], quarter_turns: int) -> dict[str, Any]:
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
    can send it. ``analysis`` switches on the commentators' analysis of the positions the
    public is shown (never of the live one).
    """

    events: EventLog
    referee_token: str | None = None
    broadcast_delay: float = 0.0
    boards: tuple[BoardInfo, ...] = ()
    event_name: str = "Mak-hos"
    site: str = "?"  # where the event is played, as PDN's Site tag says it ("Bangkok, Thailand")
    scoring: Scoring = field(default_factory=Scoring)
    camera: FrameProvider | None = None
    calibration: CalibrationDesk | None = None  # the calibration page (needs a board profile)
    poll_seconds: float = 0.05  # how often to look for events appended by another process
    keepalive_seconds: float = 15.0  # SSE comment interval, so proxies keep the stream open
    mjpeg_fps: float = 5.0
    trusted_proxies: int = 0
    analysis: AnalysisSettings | None = None  # the commentators' analysis; None: off
    clock: Callable[[], float] = time.time  # wall time (the broadcast delay counts on it)

    @property
    def pdn_tags(self) -> dict[str, str]:
        """The tags every game of the event carries in PDN (the board adds its own)."""
        return {"Event": self.event_name, "Site": self.site}

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
