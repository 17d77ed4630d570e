"""Say why: what vision saw of a recording, in figures, when it recorded nothing or stopped early.

A user whose video gives no game needs more than "no game found": was the board never
found, found but never still (a shaking camera, a flickering light, a hand that never
left), found and read but never in the start position? :class:`Diagnosis` watches every
frame's :class:`~vision.pipeline.FrameResult` (cheaply: a few numbers a frame) and
:meth:`Diagnosis.explain` turns them into sentences with the figures and what to try.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from makhos.events.game import LoggedGame
from makhos.vision.reading import labels_of
from makhos.vision.occlusion import GateConfig, GateState
from makhos.vision.pipeline import FrameResult

#: Seconds without a read before the end of a video that count as "stopped early": longer
#: than a hand takes over the board to make a move, so a video cut during its last move is
#: not blamed, while a board covered or unreadable to the end (a shadow the gate takes for
#: an arm, a hand resting on it) is said, since moves made then are not in the record.
STOPPED_EARLY_S = 3.0
#: Share of the frames a container announces that must decode before it is "truncated".
DECODED_SHARE = 0.95


@dataclass(frozen=True)
class Window:
    """The figures of a run of frames."""

    frames: int
    found: int
    states: dict[GateState, int]
    shake: float  # median pixels the board moved from one frame to the next
    seconds: float

    def share(self, state: GateState) -> float:
        return self.states.get(state, 0) / max(self.frames, 1)

    @property
    def seen(self) -> str:
        return f"board found in {100 * self.found / max(self.frames, 1):.0f} % of {self.frames} frames"


@dataclass
class Diagnosis:
    """Running figures of one recording; feed it every frame's result (a few numbers a
    frame are kept, so any stretch of the video can be described afterwards)."""

    first_reading: str | None = None
    readings: int = 0
    # A video's frames a second: the frames are then counted by their times, every frame of
    # the video, also those a paced source passed over (``vision.sources.VideoFile``).
    frame_rate: float | None = None
    last_read: float | None = None
    _times: list[float] = field(default_factory=list)
    _states: list[GateState] = field(default_factory=list)
    _steps: list[float] = field(default_factory=list)  # see _step
    _centre: np.ndarray | None = None

    def observe(self, result: FrameResult) -> None:
        self._times.append(result.time)
        self._states.append(result.gate.state)
        self._steps.append(self._step(result))
        if result.reading is not None:
            self.readings += 1
            self.last_read = result.time
            if self.first_reading is None:
                self.first_reading = labels_of(result.reading.probabilities)

    def _step(self, result: FrameResult) -> float:
        """Pixels the board moved since the last analysed frame; nan for the first and for a
        repeat of the last analysed frame (no step of its own), -1 when not found."""
        if result.location is None:
            self._centre = None
            return -1.0
        if not result.analysed:
            return np.nan
        centre = result.location.to_image(np.array([[4.0, 4.0]]))[0]
        step = np.nan if self._centre is None else float(np.linalg.norm(centre - self._centre))
        self._centre = centre
        return step

    @property
    def frames(self) -> int:
        if self.frame_rate is None or not self._times:
            return len(self._times)
        return round((self._times[-1] - self._times[0]) * self.frame_rate) + 1

    def window(self, after: float | None = None) -> Window:
        """Figures of the frames after ``after`` seconds (all frames when None)."""
        times = np.asarray(self._times)
        keep = np.ones(len(times), bool) if after is None else times > after
        steps = np.asarray(self._steps)[keep]
        states: dict[GateState, int] = {}
        for state, kept in zip(self._states, keep):
            if kept:
                states[state] = states.get(state, 0) + 1
        moved = steps[np.isfinite(steps) & (steps >= 0)]
        span = float(times[keep][-1] - times[keep][0]) if keep.any() else 0.0
        return Window(int(keep.sum()), int((steps != -1.0).sum()), states,
                      float(np.median(moved)) if moved.size else 0.0, span)

    # ------------------------------------------------------------------ sentences

    def explain(self, game_started: bool, plies: int = 0,
                announced_frames: int | None = None) -> list[str]:
        """Why the recording gave nothing (``game_started`` False) or stopped early; empty
        when nothing needs saying. ``announced_frames``: the container's frame count."""
        lines = []
        if announced_frames and self.frames < DECODED_SHARE * announced_frames:
            lines.append(f"the video ends after {self.frames} of the {announced_frames} frames "
                         "its header announces: is the file truncated (a recording cut off)?")
        end = self._times[-1] if self._times else 0.0
        if not game_started:
            lines.append(self._nothing(self.window()))
        elif self.last_read is not None and end - self.last_read > STOPPED_EARLY_S:
            after = self.window(self.last_read)
            lines.append(f"moves stopped being read at {self.last_read:.1f} s of {end:.1f} s "
                         f"(after {plies} plies); after that {_unreadable(after)}")
        return lines

    def _nothing(self, w: Window) -> str:
        if w.found == 0:
            return (f"board never found in {self.frames} frames ({w.seconds:.1f} s): is the "
                    "whole board in view, lit and sharp, and at least a third of the picture "
                    "high? (makhos read on one frame shows what is found)")
        if self.readings == 0:
            return w.seen + ", but " + _never_still(w)
        pieces = sum(c != "." for c in self.first_reading or "")
        return (f"{w.seen} and read {self.readings} times, but the start position was never "
                f"seen: first reading was {self.first_reading} ({pieces} pieces; squares 1-32, "
                "l/d men, L/D kings). Is the board set up for the start, and was recording "
                "started before the first move? (--men and --rules set other start positions)")


def _never_still(w: Window) -> str:
    still = GateConfig().still_s
    occluded, moving = w.share(GateState.OCCLUDED), w.share(GateState.MOVING)
    if occluded >= moving:
        return (f"never readable: something covered it in {100 * occluded:.0f} % of the "
                "frames (a hand or an arm resting on it? an object at its edge?)")
    text = f"never still for {still:.1f} s: moving in {100 * moving:.0f} % of the frames"
    if w.shake >= 1.0:
        return text + (f"; it moves by about {w.shake:.1f} px between frames (is the camera "
                       "shaking? fix it to something that does not move)")
    return text + (f" while the camera holds still ({w.shake:.1f} px between frames): "
                   "something keeps changing over it (a flickering light? hands?)")


def _unreadable(w: Window) -> str:
    if w.found < 0.5 * w.frames:
        return w.seen + ": was the camera moved or the board taken away?"
    return w.seen + ", but " + _never_still(w)


def held_up(record: LoggedGame) -> str | None:
    """Why the record ends where it does when the game waits on a board nobody went on
    from (an irregularity never corrected nor played on, a board that never matched
    again), so that a recording never ends silently; None when nothing holds it."""
    alert = record.board_alert()
    if alert is None or record.current.result is not None:
        return None
    plies = len(record.current.moves)
    return (f"recording stopped after ply {plies}, at {alert.time:.1f} s: {alert.reason}; the "
            f"board was neither put back nor played on from, so the PDN ends at ply {plies}")

