"""The occlusion gate: never read a position while a hand, an arm or an object is over the board.

A frame is read only when the board has been quiet for ``still_s`` seconds and nothing
covers it. Three cheap cues, on a tiny rectified view (``px`` pixels per square) of the
board plus a ring of ``margin`` squares around it:

- motion: some half square's mean colour changed since the previous frame, by more than a
  slip of the registration by a fraction of a pixel explains (``registration``);
- hidden grid: X-corners that were visible in the last still view are gone (a hand or arm
  over the squares hides the points where squares meet; pieces on square centres do not);
- crossing: the outer half of a two-square ring around the board changed since the last
  still view (an arm reaching in must cross it, even where the hand itself hides no corner
  yet). Only the outer half: a low camera sees a king of the far row leaning up to 0.8
  squares past the board's edge, and when the hand that played nudges it, that change must
  not look like an arm that never leaves. Measured in quarter squares and at 20 grey levels,
  so a thin wrist at a corner, or a sleeve of nearly the table's colour, still counts. With
  every corner in view, only a change that reaches across the ring's depth in one piece is
  an arm: a line along the board's edge (a border pattern that the codec or the
  registration shifts by a fraction of a pixel) or a cell or two is not. Nor is an arm
  that left: a still view taken with a sleeve lying on the board's edge (after a knock, or
  as the new normal) changes, when the sleeve is lifted for good, as if an arm came; but
  where it lay the ring is the table again, like the cells beside it.

Motion is measured between consecutive frames; a lone frame that moves a little between
quiet ones (a key frame's pulse in a compressed video) does not end a quiet run.

A board just found has no still view to compare with: unless nearly all its corners show
(``clear_first``), its first read waits ``first_still_s`` (longer), and a hand resting there
from the start, hiding few corners, is the gap that remains until a hand detector joins the
gate.

The location it is given is where the board is in this very frame (the follower registers
every frame, see :mod:`vision.registration`), so the cells are the board's own whatever
the camera does, and every comparison first divides out what the light did (see
:mod:`vision.light`: exposure, white balance, flicker bands). Motion and crossing are
judged against the cells' own noise as well as fixed levels: a camera at high gain or a
video at a low bit rate makes every cell shimmer by more than a sleeve of the table's
colour would.

A frame whose cells are all within a few grey levels of the last frame judged (``same_level``,
``same_quarter``) is that frame again, for the gate: no motion, the same verdict on the ring
against the same still view. Only the clocks move on. A camera that wobbles changes no cell
(they are cut where the board lies in each frame), so a still board costs a warp and a
comparison a frame, not the light's fit and the ring's.

Changes of pieces on the squares are what we want to see, so the gate compares the
squares themselves only through their corners. A change that stays still for ``settle_s``
and is not an arm (hidden corners together with a changed ring) becomes the new normal:
a cup put down beside the board, a tall king that now hides a corner from a low camera.
So does one against a still view taken on a smeared frame (a jolt doubled it under a long
exposure): its grid was markedly less sharp than the board's now, and what looks like an
arm is the view's own doubled ring.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import cv2
import numpy as np

from .geometry import BoardLocation, project
from .grid_probe import GridCheck, GridProbe
from .light import FLOOR, corrected, light_gain, noise_level, unexplained

#: A shadow keeps at least this share of the light (and one that leaves gives back at most
#: its inverse): a cell darker or brighter than that changed by more than light.
SHADE_GAIN = 0.3
#: The most a shadow's gain (as a log) differs from that of a neighbouring cell...
SHADE_SMOOTH = 0.15
#: ...beyond what the cells' noise makes of a gain, for a shadow that stays over hidden
#: corners (``_shaded``'s second): this many times the noise over the cell's brightness
#: (a dark cell's gain is fitted on few grey levels)...
SHADE_NOISE = 3.0
#: ...where one gain explains the change to within this many times the noise (a sleeve of
#: the cloth's hue leaves more).
SHADE_FIT = 1.5
#: A change is white light added or taken (a glare) where channels scaled alike (a shadow)
#: leave this many times its residual.
GLARE_MARGIN = 2.0
#: The shifts of the still view, in quarter squares, a board pushed a pixel may show
#: (:func:`_shifted`)...
SHIFTS = tuple((dx, dy) for dx in np.linspace(-1, 1, 9) for dy in np.linspace(-1, 1, 9) if dx or dy)
#: ...where one brings back this share of the ring's changed cells (the rest: cells on an
#: edge's steepest step, which the camera's noise and the cells' averaging move further)...
SHIFT_SHARE = 2 / 3
#: ...and they are at least a square's length of edge (quarter squares).
SHIFT_CELLS = 4
#: A ring piece is a lamp's spot, no arm (:func:`_faded`), where it changed by this many
#: times a change's level...
SPOT_CHANGE = 2.0
#: ...and this share of its cells step from their neighbours by no more than that level.
SPOT_STEADY = 0.9
#: ...and at least this share of its cells turned brighter, or darker, in every channel, as
#: light does (a sleeve's colour turns some channels one way and some the other)...
SPOT_LIT = 0.5
#: ...a channel this bright both in the still view and now being clipped, so either way.
CLIPPED = 250.0
#: An arm's piece of the ring is one that left (:meth:`OcclusionGate._vacated`) where at most
#: this share of its cells now stands out from the cells around it...
VACATED_FOREIGN = 0.1
#: ...where in the still view at least this share did,
VACATED_WAS = 0.5
#: ...and the unchanged ring cells beside it at each depth are at least this many times as
#: many as its own there.
VACATED_AROUND = 0.5


class GateState(enum.Enum):
    NO_BOARD = "no_board"
    OCCLUDED = "occluded"
    MOVING = "moving"
    STILL = "still"


@dataclass(frozen=True)
class GateStatus:
    """The gate's verdict for one frame: read the board only when ``readable``."""

    state: GateState
    since: float  # timestamp at which ``state`` began
    readable: bool
    lost_corners: int = 0  # X-corners hidden since the last still view
    motion: float = 0.0  # cell change since the previous frame (third largest), grey levels
    shake: float = 0.0  # how far the board moves in the image between frames (pixels, median of the last second)
    quiet: float = 0.0  # seconds nothing has moved on or around the board, covered or not
    spotlit: bool = False  # still only past a lamp's spot taken as no arm: read, but never to teach the reader


@dataclass(frozen=True)
class GateConfig:
    px: int = 8  # rectified pixels per square
    margin: int = 2  # squares of surroundings watched around the board
    motion_level: float = 12.0  # cell change between frames that counts as motion
    change_level: float = 20.0  # ring cell change from the last still view that counts as crossing
    still_s: float = 0.2  # quiet time before the board is read again
    min_still_frames: int = 3  # and at least this many quiet frames (slow sources)
    max_lost_corners: int = 1  # corners a tall piece may hide without blocking the read
    min_visible_first: int = 12  # corners needed before the very first still view
    first_still_s: float = 1.0  # quiet time before the very first read of a (re)found board
    clear_first: int = 45  # ...unless this many corners show: then still_s, as for any read
    new_board_shift: float = 0.3  # squares a corner must move for the views to start afresh (a knock the follower adopted)
    settle_s: float = 2.0  # a still change that is not an arm becomes the new normal after this
    settle_hidden_s: float = 0.3  # corners hidden by men (the ring untouched) are normal after this
    noise_factor: float = 5.0  # a change must also exceed this many times the cells' noise
    pulse_factor: float = 1.5  # a lone frame moving by at most this times the level is no motion
    pulse_gap_s: float = 0.3  # ...unless another was let pass this recently
    shake_s: float = 1.0  # the camera's shake is the median over this long
    refit_check: float = 0.02  # squares the location must jump in a frame to ask whether the picture moved
    same_level: float = 6.0  # grey levels every half square stays within, from the last judged frame, for "unchanged"
    same_quarter: float = 16.0  # ... and every quarter square (sampled sparsely, so noisier)
    registration: float = 0.25  # quarter squares the board's registration may slip between frames
    jolt_factor: float = 2.0  # ...where it usually does, unless this many times more than usual
    unread_s: float = 2.0  # ...and only on a board not still for this long
    sharper: float = 1.2  # the grid this many times as sharp as in the still view: the view was smeared


class OcclusionGate:
    """Per-board state machine; feed it every frame with the follower's location."""

    def __init__(self, cfg: GateConfig = GateConfig()) -> None:
        self.cfg = cfg
        q, outer = 4 * (8 + 2 * cfg.margin), 2 * cfg.margin  # quarter squares
        ring = np.ones((q, q), bool)
        ring[outer : q - outer, outer : q - outer] = False
        self._ring = ring  # the outer half of the ring around the board
        y, x = np.mgrid[0:q, 0:q]
        self._depth = np.minimum(np.minimum(y, x), np.minimum(q - 1 - y, q - 1 - x))  # cells in from the edge
        self._inner = outer - 1  # the depth of the ring's inner edge
        u = (np.arange(q) + 0.5) / 4 - cfg.margin
        self._centres = np.stack(np.meshgrid(u, u), axis=-1).astype(np.float32)  # board units
        self._reset(None)
        self._ever_still = False  # the board was still once since the gate began (_wavering)

    def _reset(self, location: BoardLocation | None) -> None:
        self._location = location
        self._probe: GridProbe | None = None
        self._previous: np.ndarray | None = None  # quarter-square cells of the previous frame
        self._reference: np.ndarray | None = None  # cells of the last still view
        self._reference_visible: np.ndarray | None = None  # corners seen in the last still view
        self._reference_sharpness = 0.0  # the grid's sharpness in the last still view (_sharpness)
        self._quiet_since: float | None = None
        self._was_moving = False  # the previous frame moved beyond the motion level
        self._last_pulse = -np.inf  # when a lone frame's motion was last let pass
        self._still_at: float | None = None  # when the board was last still (or first seen)
        self._allowing = False  # the slip is allowed, until a hand moves (_wavering)
        self._quiet_frames = 0
        self._state = GateState.NO_BOARD
        self._since = 0.0
        self._centre: np.ndarray | None = None  # the board's centre in the previous frame
        # Board to board: the gate cuts its cells where the location followed by this says (a
        # refit the gate's views have not caught up with yet, see :meth:`_view`), else None.
        self._correction: np.ndarray | None = None
        self._last_view: np.ndarray | None = None  # the homography the previous frame was cut with
        self._shakes: list[tuple[float, float]] = []  # (time, pixels moved since the previous frame)
        self._slips: list[tuple[float, float]] = []  # (time, cells' change with no slip allowed)
        self._judged: np.ndarray | None = None  # the cells of the last frame whose motion was measured
        self._views = 0  # still views taken: a ring verdict holds for one of them only
        self._moved_at = np.full(self._ring.shape, np.nan)  # when each cell last moved (quarter squares; NaN: not since found)
        self._anchor: np.ndarray | None = None  # each half square as it was when it last moved
        self._now = 0.0  # the time of the frame being judged
        self._settled_view = False  # a still view was taken past ``settle_s`` in this quiet run
        # The ring's verdict (crossing, arm, an arm beyond a shadow, an arm only were a
        # lamp's spot one), for the still view and corner count it was judged with.
        self._ring_verdict: tuple[tuple[int, bool], tuple[bool, bool, bool, bool]] | None = None
        self._spotlit = False  # the still view was taken past a lamp's spot (:meth:`_ring_change`)

    def _arms(self, strong: np.ndarray, weak: np.ndarray) -> list[np.ndarray]:
        """The pieces of changed ring cells that reach from its outer edge to its inner edge,
        as an arm reaching in does: cells of ``weak`` joined (8 neighbours) into a piece that
        holds a cell of ``strong``, as an edge is traced from strong points. Each a mask."""
        count, labels = cv2.connectedComponents(weak.astype(np.uint8), connectivity=8)
        if count <= 1:
            return []
        armed = np.zeros(count, bool)
        armed[np.unique(labels[strong])] = True
        outside = np.zeros(count, bool)
        outside[np.unique(labels[weak & (self._depth == 0)])] = True
        inside = np.zeros(count, bool)
        inside[np.unique(labels[weak & (self._depth == self._inner)])] = True
        return [labels == k for k in np.flatnonzero(armed & outside & inside) if k > 0]

    def _vacated(self, cells: np.ndarray, piece: np.ndarray, unchanged: np.ndarray, level: float) -> bool:
        """Whether an arm's ``piece`` of the ring is an arm that left rather than one that came:
        the still view was taken with it lying there (a sleeve resting on the board's edge,
        settled as the new normal or there when the views started afresh) and it has gone. An arm that came puts its own
        colour there; where one left, the cells are now the table again: like the ring's
        ``unchanged`` cells beside them, where in the still view they were not. Each cell is
        judged within its own picture (the light divides out) against the median of the
        unchanged cells within two of the piece at its own depth in the ring (a board's frame
        and the table's edge run along the board, so the ring changes across its depth, not
        along it); a patterned table or an object beside the piece keeps it an arm."""
        assert self._reference is not None  # judged against a still view
        near = (cv2.dilate(piece.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0) & unchanged
        now, then = np.zeros(piece.shape, bool), np.zeros(piece.shape, bool)
        for depth in range(self._inner + 1):
            here, around = piece & (self._depth == depth), near & (self._depth == depth)
            if not here.any():
                continue
            if around.sum() < VACATED_AROUND * here.sum():
                return False
            for off, picture in ((now, cells), (then, self._reference)):
                off[here] = np.abs(picture[here] - np.median(picture[around], axis=0)).max(axis=1) > level
        return bool(now[piece].mean() <= VACATED_FOREIGN and then[piece].mean() >= VACATED_WAS)

    def _rows(self, homography: np.ndarray) -> np.ndarray:
        """Image rows of the quarter cells' centres, ``(4n, 4n)``."""
        q = self._centres.shape[0]
        rows = project(homography, self._centres.reshape(-1, 2))[:, 1]
        finite: np.ndarray = np.nan_to_num(rows)
        return finite.reshape(q, q)

    def _shake(self, location: BoardLocation, timestamp: float) -> float:
        centre = location.to_image(np.array([[4.0, 4.0]]))[0]
        if self._centre is not None:
            self._shakes.append((timestamp, float(np.linalg.norm(centre - self._centre))))
        self._centre = centre
        self._shakes = [(t, d) for t, d in self._shakes if t > timestamp - self.cfg.shake_s]
        return float(np.median([d for _, d in self._shakes])) if self._shakes else 0.0

    def _cells(self, frame: np.ndarray, homography: np.ndarray) -> np.ndarray:
        """Mean colour of each quarter square of the board and its ring, ``(4n, 4n, c)`` float32.

        Quarter squares: a wrist crossing the ring at a corner covers a good part of one,
        where it would change the mean of a larger cell too little to notice.
        """
        px, m = self.cfg.px, self.cfg.margin
        n = 8 + 2 * m
        to_board = np.array([[1 / px, 0, -m], [0, 1 / px, -m], [0, 0, 1]], np.float64)
        view = cv2.warpPerspective(
            frame,
            homography @ to_board,
            (n * px, n * px),
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_REPLICATE,
        )
        return (
            cv2.resize(view, (4 * n, 4 * n), interpolation=cv2.INTER_AREA)
            .astype(np.float32)
            .reshape(4 * n, 4 * n, -1)
        )

    def _moved(self, location: BoardLocation) -> bool:
        """A new board position (found again after a bump), not a wobble of a few pixels."""
        if self._location is None:
            return True
        shift = np.linalg.norm(location.corners - self._location.corners, axis=1).max()
        return bool(shift > self.cfg.new_board_shift * location.square_px)

    def update(
        self,
        frame: np.ndarray,
        location: BoardLocation | None,
        timestamp: float,
        check: GridCheck | None = None,
    ) -> GateStatus:
        """Judge one frame. ``check`` may pass the follower's probe result to save a probe."""
        if location is None:
            self._reset(None)
            return self._status(GateState.NO_BOARD, timestamp)
        if self._moved(location):
            self._reset(location)
        assert self._location is not None  # set by the reset or by the previous frame
        self._now = timestamp
        jump = float(np.abs(location.corners - self._location.corners).max()) / location.square_px
        self._location = location
        shake = self._shake(location, timestamp)
        cfg = self.cfg
        if self._probe is None:
            self._probe = GridProbe.build(location, frame)
        if check is None:
            check = self._probe.check(frame)
        # The location is where the board is in this frame (the follower registers every
        # frame): the cells are the board's own, whatever the camera did.
        view, cells = self._view(frame, location, jump)
        rows = self._rows(view)
        same = self._unchanged(cells)
        if same:
            # Nothing on the board's plane changed since the last frame judged: no motion,
            # and what covers the board is what covered it then (its verdict is kept).
            motion, moving, self._was_moving = 0.0, False, False
        else:
            self._judged = cells
            motion, moving = self._motion(cells, rows, timestamp)
        if moving or self._quiet_since is None:
            self._quiet_since, self._quiet_frames, self._settled_view = timestamp, 0, False
        self._quiet_frames += 1
        quiet = timestamp - self._quiet_since
        lost, covered, spot = self._covered(cells, rows, check, quiet, same)
        if covered:
            state = GateState.OCCLUDED
        elif (
            quiet < self._still_needed(check)
            or self._quiet_frames < cfg.min_still_frames
        ):
            state = GateState.MOVING
        else:
            state = GateState.STILL
            self._still_at, self._ever_still = timestamp, True
            settled = quiet >= cfg.settle_s and not (same and self._settled_view)
            if self._state is not GateState.STILL or settled:
                # The still view is taken as the board settles, not frame by frame: a hand
                # creeping in below the motion level would otherwise become part of it. Past
                # ``settle_s`` it follows the board, but a frame the same as the last judged
                # one adds nothing to the view taken since.
                self._reference, self._reference_visible = self._caught_up(frame, location, cells), check.visible
                self._reference_sharpness = _sharpness(check, self._reference, cfg.margin)
                self._views += 1
                self._settled_view = quiet >= cfg.settle_s
                self._spotlit = spot
        # Let through only past a lamp's spot, on this frame or on the still view's: a read
        # under a light that moved, not one to teach the reader by (:func:`_faded`).
        spotlit = state is GateState.STILL and (spot or self._spotlit)
        return self._status(state, timestamp, lost, motion, shake, quiet, spotlit)

    def _unchanged(self, cells: np.ndarray) -> bool:
        """Whether every cell of the board and its ring (cut where the board lies in this
        frame, so a wobbling camera changes none) is within ``same_level`` of the last frame
        judged (half squares, as motion is measured; a quarter square within ``same_quarter``):
        then judging this one would find what that one found. A hand, a shadow, the light's
        change, a moved man all change some cell by more. The half squares' level is half
        the motion level, so a run of such frames never adds up to motion between two."""
        judged = self._judged
        if judged is None or judged.shape != cells.shape:
            return False
        if np.abs(cells - judged).max() > self.cfg.same_quarter:
            return False
        return bool(np.abs(_halves(cells) - _halves(judged)).max() <= self.cfg.same_level)

    def _still_needed(self, check: GridCheck) -> float:
        """Quiet time before a read. A board just found has no still view to say what covers
        it, so it waits longer, unless nearly every corner of its grid shows: a hand resting
        on the squares hides more, and a start set up just before the first move (well
        under a second at a brisk table) must not be missed."""
        if self._reference is not None or check.n_visible >= self.cfg.clear_first:
            return self.cfg.still_s
        return self.cfg.first_still_s

    def _view(self, frame: np.ndarray, location: BoardLocation, jump: float) -> tuple[np.ndarray, np.ndarray]:
        """(the homography the cells are cut with, the cells). The follower's location, unless
        it jumped while the picture did not move: a refit or a search that puts the corners
        a pixel or two elsewhere on a still board (a wide frame around the squares gives two
        edges to choose from). Cut with the new location, every cell along the board's edges
        and grid lines would change at once, from the previous frame (motion) and from the
        still view (a ring crossed all round), and the board would wait for a quiet run it
        never gets while the players' hands come and go. Which it was, the cells tell: cut
        where the previous frame was cut, a picture that did not move matches the previous
        frame better than cut where the new location says."""
        view = location.homography if self._correction is None else location.homography @ self._correction
        cells = self._cells(frame, view)
        if self._last_view is not None and self._previous is not None and jump > self.cfg.refit_check:
            kept = self._cells(frame, self._last_view)
            if _mismatch(kept, self._previous) < _mismatch(cells, self._previous):
                self._correction = np.linalg.inv(location.homography) @ self._last_view
                view, cells = self._last_view, kept
        self._last_view = view
        return view, cells

    def _caught_up(self, frame: np.ndarray, location: BoardLocation, cells: np.ndarray) -> np.ndarray:
        """The cells for a new still view, cut where the follower's location says: a refit the
        gate held back (:meth:`_view`) is taken up at the moment its views start afresh."""
        if self._correction is None:
            return cells
        self._correction = None
        self._last_view = location.homography
        cells = self._cells(frame, location.homography)
        self._previous = cells
        return cells

    def _motion(self, cells: np.ndarray, rows: np.ndarray, timestamp: float) -> tuple[float, bool]:
        """The change of half squares since the previous frame (the third largest, in grey
        levels, the light's change divided out) and whether it is motion. A frame that moves
        under the slip's allowance ends it (a hand), unless let pass as a key frame's pulse:
        a pulse is no hand, and taken for one on a board that wavers, it held the board
        unread for ``unread_s`` after it (kingplay 70005: MPEG-4 with frequent key frames; a
        pulse with no hand near ended the board's read soon after two plies made across a
        gap, it went unread until the next ply's hand had come, and the plies around it were
        recorded wrong)."""
        cfg = self.cfg
        halves, half_rows = _halves(cells), _halves(rows[..., None])[..., 0]
        before, self._previous = self._previous, cells
        if before is None:
            self._anchor = halves.copy()
            return 0.0, False
        previous = _halves(before)
        bands, channel = light_gain(halves, previous, half_rows)
        change = unexplained(corrected(halves, half_rows, bands, channel), halves, previous)
        # The third largest cell: a hand or an arm covers several half squares, while a
        # codec's block or a burst of sensor noise changes one.
        changed = np.abs(change).max(axis=2)
        level = max(cfg.motion_level, cfg.noise_factor * noise_level(change))
        self._stamp(halves, level, timestamp)
        motion = _third_largest(changed)
        wavering = self._wavering(motion, level, timestamp)
        if wavering:
            # A picture registered a fraction of a pixel off slides each cell by that share
            # of its steepest step to a neighbour in the previous frame: on a small board
            # under a wobbling camera every square's edge changes so, frame after frame, and
            # the board never looks quiet. A hand changes a cell by its own colour, far
            # more, and over a plain square, where nothing slides, by all of it.
            slid = cfg.registration * _halves(_steepest_step(before)[..., None])[..., 0]
            motion = _third_largest(np.maximum(changed - slid, 0.0))
        moving = motion > level
        # One frame that moves a little between quiet ones is a key frame's pulse or a
        # burst of noise, not a hand: a hand moves the board's cells for frames on end,
        # and a second moving frame in a row ends the quiet run all the same. Pulses come
        # a key-frame interval apart; a hand leaving slowly makes them every few frames.
        pulse = (moving and not self._was_moving and motion <= cfg.pulse_factor * level
                 and timestamp - self._last_pulse >= cfg.pulse_gap_s)
        self._was_moving = moving
        if pulse:
            self._last_pulse = timestamp
        self._allowing = wavering and (pulse or not moving)
        return motion, moving and not pulse

    def _stamp(self, halves: np.ndarray, level: float, timestamp: float) -> None:
        """Note when each cell moved: changed by more than ``level`` since it last did, so
        that a hand creeping in by less than the motion level a frame moves it all the same
        (:meth:`_lying`)."""
        assert self._anchor is not None  # set with the first frame's cells
        moved = np.abs(halves - self._anchor).max(axis=2) > level
        self._anchor[moved] = halves[moved]
        self._moved_at[np.kron(moved, np.ones((2, 2), bool))] = timestamp

    def _wavering(self, slipped: float, level: float, timestamp: float) -> bool:
        """Whether the cells' change with no slip allowed (``slipped``) is the board's
        registration wavering, to be allowed its slip: the picture's usual change over the
        last ``shake_s`` (its median) is beyond the level, so that without the allowance
        the board would never be quiet, and this one is no jolt (at most ``jolt_factor``
        times the usual). A camera that wavers less keeps the plain measure, and a jolt
        counts in full: a board read then is read off its squares until the follower has
        caught up. Only from a board not still for ``unread_s`` on, until a hand moves: the
        allowance lets a board be read where it would be lost, not sooner where it is read,
        as a hand that changes a cell by little more than its edges slide passes under it.
        A board never still since the gate began has no read to keep, and its set-up may
        stand only a moment before the first move: it is allowed the slip from its first
        frame (kingplay 70174: under a wobbling camera the set-up stood a little over a
        second before the first hand came, the board was first still a ply in, and no game
        was found; 70005 likewise). A knock that moves the board later (``_reset``) keeps
        the rule for a board read before: it is the set-up that stands a moment only."""
        if self._still_at is None:
            self._still_at = timestamp
        self._slips = [(t, slip) for t, slip in self._slips if t > timestamp - self.cfg.shake_s]
        usual = float(np.median([slip for _, slip in self._slips])) if self._slips else 0.0
        self._slips.append((timestamp, slipped))
        unread = (self._allowing or not self._ever_still
                  or timestamp - self._still_at >= self.cfg.unread_s)
        return unread and usual > level and slipped <= self.cfg.jolt_factor * usual

    def _covered(self, cells: np.ndarray, rows: np.ndarray, check: GridCheck,
                 quiet: float, same: bool) -> tuple[int, bool, bool]:
        """(corners lost since the last still view, whether something covers the board,
        whether it is uncovered only because a lamp's spot was taken as no arm): corners
        hidden, or the ring crossed, as the module's docstring tells. ``same``: the cells
        are those of the last frame judged (:meth:`_unchanged`), so the ring's verdict on
        them, against the same still view, holds."""
        cfg = self.cfg
        if self._reference is None or self._reference_visible is None:
            lost = max(0, cfg.min_visible_first - check.n_visible)
            return lost, lost > 0, False
        lost = int((self._reference_visible & ~check.visible).sum())
        hidden = lost > cfg.max_lost_corners
        key = (self._views, hidden)
        if same and self._ring_verdict is not None and self._ring_verdict[0] == key:
            crossing, arm, unshaded, spot = self._ring_verdict[1]
        else:
            crossing, arm, unshaded, spot = self._ring_change(cells, rows, hidden)
            self._ring_verdict = key, (crossing, arm, unshaded, spot)
        if quiet >= cfg.settle_s and not (hidden and unshaded):
            # A still change that no arm reaching in explains (a tall king now hiding a
            # corner, a cup beside the board) is the new normal; so is a shadow that fell
            # over the ring as corners went (kingplay 70026: a person's shadow over a dim
            # board hid corners from the probe, and no read came for the rest of the game),
            # and the edges around a board that sits a pixel elsewhere (:func:`_shifted`).
            return lost, False, False
        if quiet >= cfg.settle_s and self._smeared(cells, check):
            # So is one against a still view taken on a smeared frame (:meth:`_smeared`).
            return lost, False, False
        if not arm and quiet >= cfg.settle_hidden_s:
            # No change across the ring's depth, for a moment: no arm reaches in (an arm must
            # cross the ring). Corners hidden are tall men moved onto the corners' squares; a
            # line along the board's edge (a border pattern the codec or the registration
            # shifts by a fraction of a pixel) or a cell or two of noise is not an arm. The
            # still view taken then makes it the new normal. (Not at once: the fingertips
            # of an arm on its way out linger at the ring's outer edge.)
            return lost, False, spot
        return lost, hidden or crossing, False

    def _smeared(self, cells: np.ndarray, check: GridCheck) -> bool:
        """Whether the last still view was taken on a smeared frame: its grid markedly less
        sharp than the board's now (``sharper``), with nearly every corner in view now, as a
        board just found is read at once. A frame a jolt doubled, or a hand's leaving
        blurred, under a long exposure, can be still for a moment (kingplay 70017: the
        camera's jolt, doubled over the frames of its exposure); its ring, doubled, differs
        from every sharp frame's across its depth as an arm would, the corners it saw
        double are hidden now, and as no still view comes after it the board is never read
        again. A hand or a shadow over the board sharpens no corner, and the light divides
        out."""
        if check.n_visible < self.cfg.clear_first:
            return False
        return _sharpness(check, cells, self.cfg.margin) >= self.cfg.sharper * self._reference_sharpness

    def _ring_change(self, cells: np.ndarray, rows: np.ndarray, hidden: bool) -> tuple[bool, bool, bool, bool]:
        """(the ring changed from the last still view, the change reaches across the ring's
        depth in one piece as an arm does, an arm is left once a shadow's cells are taken
        out, it would were a lamp's spot counted as an arm). With corners ``hidden`` a
        shadow counts too, for the second: a hand may be on the board; the third is for a
        change that stays (:meth:`_covered`), and takes out only the cells one gain darkened
        to within the cells' noise (``_shaded``'s second), as a sleeve of nearly the cloth's
        colour does not (kingplay 70096), and the edges one shift of the whole still view
        brings back (:func:`_shifted`); the fourth says the board is let through only
        past a spot (:func:`_faded`), with every corner in view.

        The level comes from the ring's noise, measured on the change itself, so a light's
        change over much of the ring raises it (a lamp's spot moving over the cloth, a shadow
        leaving). That lets a deep shadow's tinge pass as light, but a sleeve resting beside
        the light's change, changed by less than the light did, would pass too (kingplay
        70096: a dim board read with an arm on it while the spot moved, and taught as
        relit). So the cells that start an arm are those changed beyond the level of the
        ring without the cells the light changed (:func:`_unlit_level`). Only they: the
        light is still judged, and an arm's piece traced and judged come or left, at the
        ring's own level."""
        assert self._reference is not None  # judged against a still view
        cfg = self.cfg
        # The light's change fitted on half squares, the ring judged in quarters.
        half_rows = _halves(rows[..., None])[..., 0]
        bands, channel = light_gain(_halves(cells), _halves(self._reference), half_rows)
        relit = corrected(cells, rows, bands, channel)
        signed = unexplained(relit, cells, self._reference)
        noise = noise_level(signed[self._ring])
        level = max(cfg.change_level, cfg.noise_factor * noise)
        change = np.abs(signed).max(axis=2)
        ring = self._ring
        if not (ring & (change > level)).any():
            return False, False, False, False  # nothing crossed, shaded or not (most frames: spare the shade's fit)
        shaded, dimmed = _shaded(relit, self._reference, level, noise)
        if not hidden:
            # Every corner in view: a shadow over the ring (a person beside the table) is no
            # arm, nor is a lamp's spot that moved over it, nor anything that lies still
            # there. With corners hidden they count all the same: a hand may be on the board.
            crossing, arm, spot = self._arm(cells, signed, change, ring & ~shaded, level, edged=True)
            return crossing, arm, arm, spot
        # ...but a glare that came or went is no hand's: light added or taken away.
        ring = ring & ~_glared(relit, self._reference, level)
        crossing, arm, _ = self._arm(cells, signed, change, ring, level)
        if not arm:
            return crossing, False, False, False  # no arm to stay: spare the shifts' search
        staying = ring & ~dimmed & ~_shifted(relit, self._reference, self._ring, level)
        return crossing, arm, self._arm(cells, signed, change, staying, level)[1], False

    def _arm(self, cells: np.ndarray, signed: np.ndarray, change: np.ndarray, ring: np.ndarray,
             level: float, edged: bool = False) -> tuple[bool, bool, bool]:
        """(the ``ring``'s cells changed, an arm among them, none but a lamp's spot):
        :meth:`_ring_change` on the ring cells left once the light's are taken out.
        ``edged``: a piece that fades out as a lamp's spot does (:func:`_faded`), or that
        lies still while hands move elsewhere (:meth:`_lying`), is no arm; the third says
        whether a spot's piece would have been one."""
        lit = self._ring & ~ring & (change > level)  # changed beyond the level, by light
        unlit = _unlit_level(signed, self._ring, lit, self.cfg)
        changed = ring & (change > unlit)
        crossing = bool(changed.any())
        weak = ring & (change > level / 2)
        arms = self._arms(changed, weak) if crossing else []
        spots: list[np.ndarray] = []
        if edged:
            arms = [piece for piece in arms if not self._lying(piece, change, level)]
            assert self._reference is not None  # judged against a still view
            faded = [_faded(change, piece, unlit, cells, self._reference) for piece in arms]
            spots = [piece for piece, spot in zip(arms, faded) if spot]
            arms = [piece for piece, spot in zip(arms, faded) if not spot]
        unchanged = self._ring & ~weak
        if any(not self._vacated(cells, piece, unchanged, level) for piece in arms):
            return crossing, True, False
        return crossing, False, any(not self._vacated(cells, piece, unchanged, level) for piece in spots)

    def _lying(self, piece: np.ndarray, change: np.ndarray, level: float) -> bool:
        """Whether nothing moved over the ring's changed ``piece`` for ``settle_s``: something
        put down beside the board (the men a capture took, a phone, a sleeve at rest), not an
        arm reaching in. A still change becomes the new normal after ``settle_s`` of quiet
        over the whole board (:meth:`_covered`), but at a brisk table a hand plays every two
        seconds or so and that quiet never comes (kingplay 70148: the men of a capture put
        beside the board held it covered, every corner in view, for the seven seconds and
        four plies that followed). Only with every corner in view: a hand at rest on the
        board hides some, and only beside the board: a piece whose change, traced through
        the cells changed by half the ``level``, reaches the board's edge may lie on it (a
        pale sleeve resting over the edge row's men, every corner showing through it:
        kingplay 70110). A piece no cell of which moved since the board was found is not
        known to lie still."""
        edge = 4 * self.cfg.margin - 1  # the depth of the cells along the board's edge
        weak = (self._depth <= edge) & (change > level / 2)
        _, labels = cv2.connectedComponents(weak.astype(np.uint8), connectivity=8)
        traced = np.isin(labels, labels[piece & weak]) & (labels > 0)
        if (traced & (self._depth == edge)).any():
            return False
        moved = self._moved_at[piece]
        moved = moved[~np.isnan(moved)]
        return moved.size > 0 and self._now - float(moved.max()) >= self.cfg.settle_s

    def _status(
        self, state: GateState, timestamp: float, lost: int = 0, motion: float = 0.0,
        shake: float = 0.0, quiet: float = 0.0, spotlit: bool = False,
    ) -> GateStatus:
        if state is not self._state:
            self._state, self._since = state, timestamp
        return GateStatus(state, self._since, state is GateState.STILL, lost, motion, shake, quiet, spotlit)


def _sharpness(check: GridCheck, cells: np.ndarray, margin: int) -> float:
    """The grid's sharpness in one frame: its visible corners' median contrast (``check``),
    over the mean grey of the board's own ``cells`` (those inside ``margin`` squares of
    ring), so that the light's level divides out and a smear (a doubled frame, a blur)
    is what lowers it. 0 with no corner visible."""
    if not check.visible.any():
        return 0.0
    q = 4 * margin
    grey = float(cells[q:-q, q:-q].mean()) + FLOOR
    return float(np.median(check.contrast[check.visible])) / grey


def _unlit_level(signed: np.ndarray, ring: np.ndarray, lit: np.ndarray, cfg: GateConfig) -> float:
    """The level of a change over the ``ring``'s cells (``signed``: each cell's change per
    channel) measured without the cells ``lit``: those a light's change explains, changed
    beyond the ring's own level. Without them the median measures the cells' noise again."""
    return max(cfg.change_level, cfg.noise_factor * noise_level(signed[ring & ~lit]))


def _shaded(relit: np.ndarray, reference: np.ndarray, level: float,
            noise: float) -> tuple[np.ndarray, np.ndarray]:
    """``(h, w)`` cells whose change from ``reference`` one gain of their own explains (to
    within ``level`` grey levels in every channel) where that gain varies smoothly from
    each cell to its neighbours: a shadow darkens what lies beneath it without changing
    its colour, and its soft edge changes the gain gently. An arm puts its own colour
    there, and its edges are sharp (the cells along them stay changed, and they cross the
    ring). Second, the cells darkened by one gain to within the cells' ``noise`` (where a
    sleeve of the cloth's hue leaves more), smoothly to within what that noise makes of a
    gain: on a dark cloth in shade a gain is fitted on a few tens of grey levels, and the
    noise alone makes it step from a cell to the next by more than a shadow's edge does
    (kingplay 70026: a person's shadow over a dim table, every cell of it one gain to within
    a few grey levels, kept an arm along the ring's outer edge, and with corners hidden the
    board was never read again). Only for a change that stays: taken out of every ring, it
    let an arm through that the first keeps (kingplay 70041)."""
    gain, scaled = _gain_fit(relit, reference)
    steps = _steepest_step(np.log(np.clip(gain, SHADE_GAIN, 1 / SHADE_GAIN)))
    gained = (gain > SHADE_GAIN) & (gain < 1 / SHADE_GAIN)
    shaded: np.ndarray = (scaled <= level) & (steps <= SHADE_SMOOTH) & gained
    noisy = SHADE_NOISE * noise / np.maximum(np.linalg.norm(relit + FLOOR, axis=2), FLOOR)
    dimmed: np.ndarray = (scaled <= SHADE_FIT * noise) & (steps <= SHADE_SMOOTH + noisy) & gained & (gain < 1)
    return shaded, dimmed


def _shifted(relit: np.ndarray, reference: np.ndarray, ring: np.ndarray, level: float) -> np.ndarray:
    """``(h, w)`` the ``ring``'s cells changed from the still view by more than the
    ``level``, where one shift of the whole view, by up to a cell each way (:data:`SHIFTS`),
    brings back most of them (:data:`SHIFT_SHARE`, at least :data:`SHIFT_CELLS`) to within
    it in every channel (none elsewhere): the shift that leaves the fewest of the
    ring's cells beyond the level. A board pushed a pixel across the table, or a location
    that settles a pixel off, moves every edge around it alike (a scoresheet's, a phone's),
    and the edges that run away from the board cross the ring's depth as an arm does
    (kingplay 70170: a scoresheet's edges beside a board whose corners came and went held
    it covered while the game went on). An arm comes on its own: a shift that brought its
    colour back would move the edges it left alone, and a hand's first cells or two are
    too few to show a shift (kingplay 70153)."""
    off = ring & (np.abs(relit - reference).max(axis=2) > level)
    changed = int(off.sum())
    if changed < SHIFT_CELLS:
        return np.zeros(off.shape, bool)
    fewest, back = changed, 0
    h, w = reference.shape[:2]
    for dx, dy in SHIFTS:
        moved = cv2.warpAffine(reference, np.array([[1, 0, dx], [0, 1, dy]], np.float32), (w, h),
                               flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        still_off = ring & (np.abs(relit - moved).max(axis=2) > level)
        if int(still_off.sum()) < fewest:
            fewest, back = int(still_off.sum()), int((off & ~still_off).sum())
    return off if back >= SHIFT_SHARE * changed else np.zeros(off.shape, bool)


def _glared(relit: np.ndarray, reference: np.ndarray, level: float) -> np.ndarray:
    """``(h, w)`` cells whose change from ``reference`` is white light added or taken away
    (a lamp's spot on the cloth that moved): the same number of grey levels in every
    channel, where a shadow scales the channels (a hand's shadow keeps the cloth's colour,
    only darker) and an arm puts its own colour there. Only cells of a colour where the two
    differ by :data:`GLARE_MARGIN` times, and where the light added varies smoothly from a
    cell to its neighbours (a sleeve's edge is sharp)."""
    change = relit - reference
    offset = change.mean(axis=2)
    added = np.abs(change - offset[..., None]).max(axis=2)
    _, scaled = _gain_fit(relit, reference)
    glared: np.ndarray = (_steepest_step(offset) <= level) & (GLARE_MARGIN * added < scaled)
    return glared


def _faded(change: np.ndarray, piece: np.ndarray, level: float, cells: np.ndarray,
           reference: np.ndarray) -> bool:
    """Whether the ring's changed ``piece`` is a lamp's spot that moved over the cloth, not
    an arm: changed by :data:`SPOT_CHANGE` times the ``level`` a change must pass or more,
    yet with no outline: nine cells in ten (:data:`SPOT_STEADY`) differ from each neighbour
    by no more than that level. An arm or a sleeve puts its own colour beside the cloth's,
    so its outline steps by most of its change from one cell to the next; a spot fades out
    over many cells, and where it was bright enough to clip the picture's channels neither
    a gain nor white light added fits its change (kingplay 70148: a spot over the ring held
    a board with every corner in view covered for 16 s while the players played on). A
    change near the level says nothing of its outline (a wrist of nearly the table's
    colour): it stays an arm. And it is light: in half its cells or more (:data:`SPOT_LIT`)
    every channel of the ``cells`` turned the same way from the still view (``reference``),
    a channel clipped in both (:data:`CLIPPED`) going either way. A sleeve blurred by its
    motion has no outline either, but its colour turns the cloth's channels apart
    (kingplay 70068, 70033: a sleeve over the ring taken for a spot, and reads let through
    under it recorded plies nobody played)."""
    steps = _steepest_step(change)[piece]
    strong = float(change[piece].max()) >= SPOT_CHANGE * level
    if not strong or float(np.quantile(steps, SPOT_STEADY)) > level:
        return False
    now, then = cells[piece], reference[piece]
    clipped = (now >= CLIPPED) & (then >= CLIPPED)
    lit = np.all((now > then) | clipped, axis=1) | np.all((now < then) | clipped, axis=1)
    return float(lit.mean()) >= SPOT_LIT


def _gain_fit(relit: np.ndarray, reference: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(each cell's one gain that best scales ``reference`` onto ``relit``, the grey levels
    that gain leaves unexplained in its worst channel): a shadow's fit."""
    base, lit = reference + FLOOR, relit + FLOOR
    gain = (lit * base).sum(axis=2) / (base * base).sum(axis=2)
    return gain, np.abs(lit - gain[..., None] * base).max(axis=2)


def _steepest_step(values: np.ndarray) -> np.ndarray:
    """``(h, w)``: each cell's largest difference from its four neighbours (edges repeated),
    in its channel that differs most where ``values`` is ``(h, w, c)``."""
    padded = np.pad(values, [(1, 1), (1, 1)] + [(0, 0)] * (values.ndim - 2), mode="edge")
    steps = [np.abs(values - padded[1 + dy: padded.shape[0] - 1 + dy, 1 + dx: padded.shape[1] - 1 + dx])
             for dy, dx in ((-1, 0), (1, 0), (0, -1), (0, 1))]
    steepest: np.ndarray = np.max(steps, axis=0).reshape(*values.shape[:2], -1).max(axis=2)
    return steepest


def _third_largest(changes: np.ndarray) -> float:
    return float(np.partition(changes.ravel(), -3)[-3])


def _mismatch(cells: np.ndarray, other: np.ndarray) -> float:
    """Mean absolute difference of two frames' quarter-square cells, in half squares."""
    return float(np.abs(_halves(cells) - _halves(other)).mean())


def _halves(cells: np.ndarray) -> np.ndarray:
    """Quarter-square cells ``(4n, 4n, c)`` averaged into half squares ``(2n, 2n, c)``."""
    h, w = cells.shape[:2]
    halves: np.ndarray = cells.reshape(h // 2, 2, w // 2, 2, -1).mean(axis=(1, 3))
    return halves
