"""The hall: the boards of the event, and their view states for the public and the referee.

States are folded incrementally and cached, one per board and audience: the referee's
is live, the public's stops at the broadcast delay. Because events become visible in log
order, the public's events are always a prefix of the referee's, so both caches only
ever move forward. The JSON of a state is cached per sequence number, so a move sent to
hundreds of SSE clients is serialised once.

The commentators' analysis (when the event has it on) is asked for here, and only ever of
a position of the public state: :meth:`Hall.analysis` takes no audience, so the referee's
live state cannot reach the analyst, and no analysis of a position newer than the broadcast
delay is ever made.
"""

from __future__ import annotations

import json
import math
import threading
from dataclasses import dataclass
from typing import Any, Callable, TypeVar

from makhos.engine.search import GamePosition
from makhos.events import GameEvent

from .analyst import Analyst, Job, analysis_json
from .config import BoardInfo, ServerConfig
from .feed import EventFeed
from .standings import MatchLine, match_line
from .state import BoardState

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Audience:
    """Who is looking: the public sees the log ``delay`` seconds late, the referee live."""

    live: bool


PUBLIC = Audience(live=False)
REFEREE = Audience(live=True)


class _Cache:
    def __init__(self, board: str, config: ServerConfig) -> None:
        self.lock = threading.Lock()
        self.state = BoardState(board, config.scoring)
        self.json_seq = -1
        self.json_text = ""
        self.analysis_key: tuple[int, int] = (-1, -1)  # (seq, analyst version) of the text
        self.analysis_text = ""


class Hall:
    """Boards of the event over one :class:`EventFeed`."""

    def __init__(self, config: ServerConfig, feed: EventFeed) -> None:
        self.config = config
        self.feed = feed
        self._caches: dict[tuple[str, bool], _Cache] = {}
        self._lock = threading.Lock()
        #: The SSE messages last made, by (seq, state text) (:func:`server.sse.update`).
        self.messages: dict[tuple[int, str], bytes] = {}
        self.analyst = Analyst(config.analysis, feed.poke) if config.analysis else None

    def close(self) -> None:
        self.feed.close()
        if self.analyst is not None:
            self.analyst.close()

    # ------------------------------------------------------------ boards

    def info(self, board: str) -> BoardInfo | None:
        """The board's entry when it is configured or has events; None for an unknown board."""
        configured = next((b for b in self.config.boards if b.id == board), None)
        if configured is not None:
            return configured
        return BoardInfo(board) if self.feed.has_board(board) else None

    def infos(self) -> list[BoardInfo]:
        """Configured boards in their order, then boards only the log knows."""
        listed = list(self.config.boards)
        known = {b.id for b in listed}
        return listed + [BoardInfo(b) for b in self.feed.boards() if b not in known]

    # ------------------------------------------------------------ visibility

    def until(self, audience: Audience) -> float:
        """Wall time up to which this audience may see events."""
        return math.inf if audience.live else self.feed.now() - self.config.broadcast_delay

    def delay(self, audience: Audience) -> float:
        return 0.0 if audience.live else self.config.broadcast_delay

    def events(self, board: str | None, after: int, audience: Audience) -> list[GameEvent]:
        return self.feed.events(board, after, self.until(audience))

    def wait(self, board: str | None, after: int, audience: Audience, timeout: float) -> bool:
        return self.feed.wait(board, after, self.delay(audience), timeout)

    # ------------------------------------------------------------ states

    def _cache(self, board: str, audience: Audience) -> _Cache:
        key = (board, audience.live)
        with self._lock:
            cache = self._caches.get(key)
            if cache is None:
                cache = self._caches[key] = _Cache(board, self.config)
            return cache

    def _advance(self, cache: _Cache, board: str, audience: Audience) -> None:
        for event in self.feed.events(board, cache.state.seq, self.until(audience)):
            cache.state.apply(event)

    def state_json(self, board: str, audience: Audience) -> str:
        """The board's full view state as JSON text, as this audience may see it now."""
        cache = self._cache(board, audience)
        with cache.lock:
            self._advance(cache, board, audience)
            if cache.json_seq != cache.state.seq:
                cache.json_text = json.dumps(self._decorate(cache.state.to_json(), board, audience),
                                             ensure_ascii=False, separators=(",", ":"))
                cache.json_seq = cache.state.seq
            return cache.json_text

    def summary(self, board: str, audience: Audience) -> dict[str, Any]:
        cache = self._cache(board, audience)
        with cache.lock:
            self._advance(cache, board, audience)
            return self._decorate(cache.state.summary(), board, audience)

    def matches(self, audience: Audience) -> list[MatchLine]:
        """Every match of every board (one per round) whose players are named."""
        lines = []
        for info in self.infos():
            matches = self.with_state(info.id, audience,
                                      lambda s: [s.match_json(m) for m in s.matches])
            lines += [line for m in matches if (line := match_line(info.id, info.label, m))]
        return lines

    def with_state(self, board: str, audience: Audience, use: Callable[[BoardState], T]) -> T:
        """Run ``use(state)`` on the up-to-date state under its lock (PDN, checks)."""
        cache = self._cache(board, audience)
        with cache.lock:
            self._advance(cache, board, audience)
            return use(cache.state)

    # ------------------------------------------------------------ analysis (public only)

    def analysis(self, board: str, ply: int | None = None) -> dict[str, Any] | None:
        """The analysis of the current game's position after ``ply`` plies (None: the position
        the public is shown now) as the public state holds it; None when analysis is off.
        LookupError for a ply the public has not been shown."""
        if self.analyst is None:
            return None
        cache = self._cache(board, PUBLIC)
        with cache.lock:
            self._advance(cache, board, PUBLIC)
            return self._analysis(cache, ply)

    def analysis_text(self, board: str) -> str | None:
        """:meth:`analysis` of the shown position as JSON text, cached until a move or a
        finished search changes it (every SSE stream of the board reads it)."""
        if self.analyst is None:
            return None
        cache = self._cache(board, PUBLIC)
        with cache.lock:
            self._advance(cache, board, PUBLIC)
            key = (cache.state.seq, self.analyst.version)
            if cache.analysis_key != key:
                cache.analysis_text = json.dumps(self._analysis(cache, None), ensure_ascii=False,
                                                 separators=(",", ":"))
                cache.analysis_key = key
            return cache.analysis_text

    def _analysis(self, cache: _Cache, ply: int | None) -> dict[str, Any]:
        assert self.analyst is not None
        record = cache.state.current
        shown = len(record.moves)
        if ply is None:
            ply = shown
        if not 0 <= ply <= shown:
            raise LookupError(f"game {record.number} has {shown} plies on this page, not {ply}")
        at = GamePosition.of(record.game, ply)
        searched, found = self.analyst.lookup(Job(cache.state.board, record.rules, at), ply == shown)
        return analysis_json(cache.state.board, record.number, ply, at, searched, found)

    def _decorate(self, data: dict[str, Any], board: str, audience: Audience) -> dict[str, Any]:
        info = self.info(board) or BoardInfo(board)
        data["title"] = info.title
        data["label"] = info.label
        data["delay"] = self.delay(audience)
        return data
