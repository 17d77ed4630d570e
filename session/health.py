"""The board's vision health: what the camera makes of the board, live, and when to tell the referee.

Why: a camera that has stopped seeing the board records nothing, and nothing in the game
says so: a quiet board looks the same as a board no one can read. The health says what
vision sees frame by frame (found, still, covered, moving, how much the camera shakes,
how long since the last read), for the referee's console and the board's API; and while a
game is on, a board that no frame has read for ``unreadable_after`` seconds is raised as a
camera notice, closed by the next read. A board read on every frame but not as the game
stands (squares no story explains, a king read as a man the tracker cannot follow) stops
the recording as surely, so it counts as unread here, with the squares it contradicts.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from makhos.events.details import CameraStatus
from makhos.vision.occlusion import GateState
from makhos.vision.pipeline import FrameResult

#: Seconds of frames over which the share of frames with the board found is counted.
FOUND_WINDOW_S = 5.0
#: Seconds since the last read past which the board is said to be unread, whatever that read
#: showed: a read that did not match the game, followed by none (the gate holding the board
#: covered), is no board "read, but not as the game stands" (kingplay 70017 said so of a
#: read made long before, while what kept the game stopped was the gate).
UNREAD_S = 2.0
#: Squares past which a read that does not match the game is no piece out of place: more
#: than the players change in a ply or two (a man moved, a capture of two, a man put back).
#: Such a board is plies the camera did not follow, or a board the reader cannot read as it
#: is, and is said so (kingplay 70141, 70188: 15 and 14 squares under a dim light or a
#: shadow were said to be "a piece out of place, or misread?").
UNREADABLE_SQUARES = 6


@dataclass(frozen=True)
class VisionHealth:
    """One moment's health. ``since_read`` is None before the first read."""

    state: GateState
    found: float  # share of the last FOUND_WINDOW_S seconds' frames with the board found
    shake_px: float  # how far the board moves in the image between frames (median)
    since_read: float | None  # seconds of source time since the board was last read
    unexplained: tuple[int, ...] = ()  # squares the last read contradicts the game on

    def to_json(self) -> dict[str, object]:
        return {"state": self.state.value, "found": round(self.found, 3),
                "shake_px": round(self.shake_px, 2),
                "since_read": None if self.since_read is None else round(self.since_read, 1)}

    def describe(self) -> str:
        """In a referee's words, with the figures and what to look at."""
        if self.found < 0.5:
            cause = f"the board is found in only {self.found:.0%} of frames (is all of it in view?)"
        elif self.state is GateState.OCCLUDED:
            cause = "something covers the board or its edge (a hand, an arm, an object)"
        elif self.state is GateState.MOVING and self.shake_px >= 1.0:
            cause = (f"the image moves by about {self.shake_px:.1f} px between frames "
                     "(is the camera shaking?)")
        elif self.state is GateState.MOVING:
            cause = "the board never stays still long enough to read"
        else:
            cause = "the squares cannot be read with confidence (light, glare, focus?)"
        squares = ", ".join(map(str, self.unexplained))
        if self.unexplained and self.since_read is not None and self.since_read < UNREAD_S:
            why = (", more than a piece out of place: plies not followed, or a board that cannot be read as "
                   "it is (the light, a shadow, focus, men the colour of their squares?); no move is recorded "
                   "until they match" if len(self.unexplained) > UNREADABLE_SQUARES else
                   " (a piece out of place, or misread?); no move is recorded until they do")
            return f"board read, but not as the game stands: squares {squares} do not match it{why}"
        waited = "never read" if self.since_read is None else f"not read for {self.since_read:.0f} s"
        if self.unexplained:  # what keeps the board unread, then what its last read showed
            cause += f"; its last read did not match the game on squares {squares}"
        return f"board {waited}: {cause}"


class HealthWatch:
    """Follows a board's frames; says when the board becomes unreadable in a game and back."""

    def __init__(self, unreadable_after: float = 10.0) -> None:
        self.unreadable_after = unreadable_after
        self._found: deque[tuple[float, bool]] = deque()
        self._last_read: float | None = None
        self._last_followed: float | None = None  # the last read the game explained
        self._unexplained: tuple[int, ...] = ()
        self._watch_from: float | None = None  # when the game was last seen on, unread
        self._raised = False
        self.health: VisionHealth | None = None

    def update(self, result: FrameResult, game_on: bool,
               unexplained: tuple[int, ...] = (), moved: bool = False) -> CameraStatus | None:
        """Take one frame's result, with the squares its reading contradicts the game on
        beyond a misread (``unexplained``) and whether the game took a ply (or a board) on it
        (``moved``); returns UNREADABLE or READABLE when that changes. A ply the game took
        is the board followed, whatever the frame's read shows: a notice raised before it
        (the reads contradicting the game) is closed, and one raised again, with what is
        wrong then, if nothing follows (kingplay 70026: the notice of 14.9 s, squares the
        reads contradicted, stayed open over four plies and then over a board covered to
        the end, saying neither)."""
        now = result.time
        self._found.append((now, result.location is not None))
        while self._found and self._found[0][0] < now - FOUND_WINDOW_S:
            self._found.popleft()
        found = sum(seen for _, seen in self._found) / len(self._found)
        followed = moved or (result.reading is not None and not unexplained)
        if result.reading is not None or moved:
            self._last_read, self._unexplained = now, () if followed else unexplained
        if followed:
            self._last_followed = now
        since = None if self._last_read is None else now - self._last_read
        self.health = VisionHealth(result.gate.state, found, result.gate.shake, since, self._unexplained)
        if followed or not game_on:
            self._watch_from = None
            if self._raised and followed:
                self._raised = False
                return CameraStatus.READABLE
            return None
        if self._watch_from is None:
            self._watch_from = now if self._last_followed is None else self._last_followed
        if not self._raised and now - self._watch_from >= self.unreadable_after:
            self._raised = True
            return CameraStatus.UNREADABLE
        return None
