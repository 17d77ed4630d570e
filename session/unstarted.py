"""A board read but never seen in its set-up: said to the referee, and kept with the log.

Why: until the set-up is seen no game starts, and a recording whose set-up is never seen
ended with nothing in its log but "opened" and "ended": the board was found and read, yet
nobody was told that the start could not be read, nor why (pieces the colour of their
squares, a set-up shown for less time than a board takes to settle). :class:`StartWatch`
raises a camera notice once a board with pieces on it has been read for a while with no
game started (or when a recording ends so), naming what the reader made of it, and closes
it when the game starts.

What the reader made of it is its search that came nearest the set-up
(``StartVerdict.nearer``), with when it was made, not its last: the set-up stands a moment
before the first move, and by the time the notice is due the reader searches boards many
plies into the game, far from any set-up (kingplay 70119: the notice named the search of a
board half a minute into the game, which told the referee nothing of the set-up's time).
A set-up the searches found but the game never started on is said as such
(``StartVerdict.found``): the board was seen, its reading was not good enough.
"""

from __future__ import annotations

from makhos.events.details import CameraStatus
from makhos.vision.pipeline import FrameResult
from makhos.vision.start_check import StartVerdict

#: Seconds a board with pieces on it is read, with no game started, before it is said: more
#: than players take to set a board up between games, hands coming and going (a recording
#: that ends first says it at its end, :meth:`StartWatch.ended`).
UNSTARTED_AFTER = 30.0
#: Pieces a read must show to count as a board being set up or played on: an empty board,
#: or a man or two left on it between games, is no set-up missed.
MIN_PIECES = 4
#: Seconds after the first frame a board first found is said to have been found late: a
#: set-up stands a moment before the first move, and a board the locator did not find then
#: is no board that did not stand still (kingplay 70133: found two plies in, and the notice
#: named only when it was first still).
FOUND_LATE_S = 1.0


class StartWatch:
    """Follows a board's frames while no game is on; says when its set-up is never seen."""

    def __init__(self, after: float = UNSTARTED_AFTER) -> None:
        self.after = after
        self._first_frame: float | None = None  # when the recording's first frame came
        self._first_found: float | None = None  # when the board was first found in a frame
        self._first_read: float | None = None  # when the board was first still enough to read
        self._read_from: float | None = None  # the first read with pieces, no game on
        self._raised = False
        self.reason: str | None = None  # the words of the last notice
        self._last: StartVerdict | None = None  # the reader's verdict on the last frame
        self._nearest: tuple[StartVerdict, float] | None = None  # the nearest the set-up, and when

    def update(self, result: FrameResult, no_game: bool, verdict: StartVerdict | None) -> CameraStatus | None:
        """Take one frame's result, whether no game is on, and the reader's last start
        search (``BoardReader.start_verdict``); returns UNREADABLE when the set-up has not
        been seen for :attr:`after` seconds of reads, READABLE when the game then starts."""
        self._weigh(verdict, result.time)
        if self._first_frame is None:
            self._first_frame = result.time
        if self._first_found is None and result.location is not None:
            self._first_found = result.time
        if not no_game:
            self._read_from = None
            self._nearest = None
            if self._raised:
                self._raised, self.reason = False, "the set-up is seen: the game started"
                return CameraStatus.READABLE
            return None
        reading = result.reading
        if reading is None or self._raised:
            return None
        if self._first_read is None:
            self._first_read = result.time
        if int((reading.labels() != 0).sum()) < MIN_PIECES:
            self._read_from = None
            return None
        if self._read_from is None:
            self._read_from = result.time
        if result.time - self._read_from < self.after:
            return None
        self._raised = True
        self.reason = self.describe(result.time - self._read_from)
        return CameraStatus.UNREADABLE

    def ended(self, time: float, verdict: StartVerdict | None) -> bool:
        """The recording ended with no game started: whether that needs saying now (a board
        with pieces was read, and it was not said yet); :attr:`reason` says it."""
        self._weigh(verdict, time)
        if self._raised or self._read_from is None:
            return False
        self._raised = True
        self.reason = self.describe(time - self._read_from)
        return True

    def _weigh(self, verdict: StartVerdict | None, time: float) -> None:
        """Keep the reader's ``verdict``, new at ``time`` (a search made), where it came
        nearer the set-up than every search before it (``StartVerdict.nearer``)."""
        if verdict is None or verdict is self._last:
            self._last = verdict
            return
        self._last = verdict
        if self._nearest is None or verdict.nearer(self._nearest[0]):
            self._nearest = (verdict, time)

    def describe(self, seconds: float) -> str:
        """In a referee's words: what was read, what the reader made of it (its search
        nearest the set-up, and when), what to look at."""
        text = f"board read for {seconds:.0f} s, but not as the set-up, so no game is started"
        if self._nearest is not None:
            verdict, at = self._nearest
            text += f": at {at:.1f} s, {verdict.describe()} (pieces hard to tell from their squares?)"
        found = ""
        if (self._first_found is not None and self._first_frame is not None
                and self._first_found - self._first_frame >= FOUND_LATE_S):
            found = f"first found at {self._first_found:.1f} s and "
        return text + (f"; the board was {found}first still enough to read at {self._first_read:.1f} s: was the "
                       "set-up on it then, lit and in view? A set-up must stand still a moment before the first move")
