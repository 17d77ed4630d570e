"""The commentators' analyst: a background thread that searches the positions the public is
shown, one at a time, and keeps what it found.

The pages never wait for it. A page (or a stream) asks for the analysis of the position it
shows; the answer is the cached one, or None, and then the position joins the queue and the
page says "analysing…" until the board is poked (:meth:`server.feed.EventFeed.poke`) with the
result. Analyses are cached on the rules and the :class:`~engine.search.GamePosition` (the
position, the earlier positions it could repeat, the count), so a position costs one search
however many viewers, boards or games show it.

Which positions: only those the :class:`~server.hall.Hall` asks for, and it asks only for
positions of the public (delayed) state. The analyst itself knows nothing of the live log,
so no analysis of a position newer than the broadcast delay can exist to leak.

The queue: each board's shown position first (the one most viewers look at), boards in the
order they asked; a board that moves on replaces its waiting position with the new one, so
a busy hall never searches positions no one shows any more. Then the positions viewers walked
back to (``#ply=N``), the latest first, at most :data:`WALKED_BACK` of them waiting.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from typing import Any

from makhos.engine import CapturedRemoval, Colour, Rules
from makhos.engine.endgame import EndgameTable
from makhos.engine.move import Move
from makhos.engine.search import Analysis, GamePosition, Limits, Searcher

from .config import AnalysisSettings

__all__ = ["Analyst", "Job", "WALKED_BACK", "analysis_json", "line_text"]

log = logging.getLogger(__name__)

#: How many walked-back positions may wait; older ones are dropped (their viewers moved on).
WALKED_BACK = 32
#: Transposition-table entries per rule set (about 250 bytes each): a second's search fills
#: a fraction of it, and what the last positions left helps the next ones.
TT_ENTRIES = 200_000
#: Scores on the pages are clipped here (ten men): beyond it one side has simply won.
CLIP = 1_000


@dataclass(frozen=True, slots=True)
class Job:
    """A position a board shows, to be searched under its game's rules."""

    board: str
    rules: Rules
    at: GamePosition

    @property
    def key(self) -> tuple[Rules, GamePosition]:
        return self.rules, self.at


Key = tuple[Rules, GamePosition]


class Analyst:
    """One search thread with a cache of analyses; ``on_done(board)`` for each board
    that waited for a position just searched.

    :meth:`lookup` answers at once, from the cache or with None (then queues the job).
    ``version`` grows with every analysis stored, so callers can cache what they built
    from the analyst's answers.
    """

    def __init__(self, settings: AnalysisSettings, on_done: Callable[[str], None]) -> None:
        self.settings = settings
        self._limits = Limits(seconds=settings.seconds, depth=settings.depth)
        self._on_done = on_done
        self._lock = threading.Condition()
        self._done: OrderedDict[Key, Analysis | None] = OrderedDict()  # None: the search failed
        self._shown: OrderedDict[str, Job] = OrderedDict()  # per board, its shown position
        self._walked: OrderedDict[Key, Job] = OrderedDict()
        self._searchers: dict[Rules, Searcher] = {}
        self._tables: dict[CapturedRemoval, EndgameTable | None] = {}
        self._stop = False
        self.version = 0
        self._thread = threading.Thread(target=self._run, name="analyst", daemon=True)
        self._thread.start()

    def lookup(self, job: Job, shown: bool) -> tuple[bool, Analysis | None]:
        """``(True, analysis)`` when the position was searched (the analysis is None when the
        search failed), else ``(False, None)`` and the job waits its turn: as the board's
        shown position when ``shown``, else as a position walked back to."""
        key = job.key
        with self._lock:
            if key in self._done:
                self._done.move_to_end(key)
                return True, self._done[key]
            if shown:
                self._shown.pop(job.board, None)  # a board that moved on goes to the back
                self._shown[job.board] = job
            else:
                self._walked[key] = job
                self._walked.move_to_end(key)
                while len(self._walked) > WALKED_BACK:
                    self._walked.popitem(last=False)
            self._lock.notify()
            return False, None

    def close(self) -> None:
        with self._lock:
            self._stop = True
            self._lock.notify()
        self._thread.join(timeout=max(5.0, 2 * self.settings.seconds))

    # ------------------------------------------------------------ the thread

    def _next(self) -> Job | None:
        """The next job to search (lock held), or None when there is none or we stop."""
        while not self._stop:
            if self._shown:
                _, job = self._shown.popitem(last=False)
            elif self._walked:
                _, job = self._walked.popitem(last=True)
            else:
                self._lock.wait()
                continue
            if job.key not in self._done:
                return job
        return None

    def _run(self) -> None:
        while True:
            with self._lock:
                job = self._next()
            if job is None:
                return
            analysis: Analysis | None
            try:
                analysis = self._searcher(job.rules).search_at(job.at, self._limits)
            except Exception:  # a position the engine cannot search must not stop the analyst
                log.exception("analysis of %s failed", job.at.position.fen())
                analysis = None
            with self._lock:
                self._done[job.key] = analysis
                while len(self._done) > self.settings.cache_entries:
                    self._done.popitem(last=False)
                self.version += 1
                # Every board waiting for this position has it now, not only the one that asked.
                boards = [job.board] + [b for b, waiting in self._shown.items()
                                        if waiting.key == job.key and b != job.board]
                for board in boards[1:]:
                    del self._shown[board]
            for board in boards:
                self._on_done(board)

    def _searcher(self, rules: Rules) -> Searcher:
        searcher = self._searchers.get(rules)
        if searcher is None:
            removal = rules.captured_removal
            if removal not in self._tables:
                self._tables[removal] = EndgameTable.load_if_built(removal=removal)
            searcher = self._searchers[rules] = Searcher(rules, table=self._tables[removal],
                                                           table_entries=TT_ENTRIES)
        return searcher


# ---------------------------------------------------------------- what the pages read


def analysis_json(board: str, game: int, ply: int, at: GamePosition,
                  searched: bool, analysis: Analysis | None) -> dict[str, Any]:
    """The analysis of the position after ply ``ply`` of game ``game``, as the pages read it.

    ``status`` is ``ready``, ``analysing`` (not searched yet) or ``unavailable`` (the search
    failed). The score is from dark's side whoever is to move, so a bar can show it without
    knowing the turn: ``dark`` in hundredths of a man clipped at ten men, and for a forced end
    ``winner`` and ``plies`` (a win in that many plies; 0: the game is over). The best move's
    ``path`` and ``captured`` are squares, as the move list gives them; ``line`` is the
    principal variation in PDN notation, numbered as the game's moves are.
    """
    data: dict[str, Any] = {"board": board, "game": game, "ply": ply, "fen": at.position.fen(),
                            "status": "analysing" if not searched else
                            "ready" if analysis is not None else "unavailable"}
    if analysis is None:
        return data
    score = analysis.score.for_dark(at.position.turn)
    winner = None
    if score.is_forced:
        winner = Colour.DARK.value if score.value > 0 else Colour.LIGHT.value
    best = analysis.best
    data.update({
        "score": {"dark": max(-CLIP, min(CLIP, score.value)), "winner": winner,
                  "plies": score.plies_to_end, "exact": analysis.exact},
        "best": None if best is None else {"move": str(best), "path": list(best.path),
                                           "captured": list(best.captured)},
        "pv": [str(m) for m in analysis.pv],
        "line": line_text(ply, analysis.pv),
        "depth": analysis.depth,
    })
    return data


def line_text(ply: int, moves: tuple[Move, ...]) -> str:
    """Moves from the position after ``ply`` plies, numbered as PDN numbers a game's moves.

    >>> from makhos.engine.move import Move
    >>> line_text(0, (Move((22, 18)), Move((9, 13)), Move((18, 14))))
    '1. 22-18 9-13 2. 18-14'
    >>> line_text(3, (Move((9, 13)), Move((22, 18))))
    '2... 9-13 3. 22-18'
    """
    tokens = []
    for index, move in enumerate(moves, start=ply):
        if index % 2 == 0:
            tokens.append(f"{index // 2 + 1}.")
        elif index == ply:
            tokens.append(f"{index // 2 + 1}...")
        tokens.append(str(move))
    return " ".join(tokens)
