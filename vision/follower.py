"""Follow the board from frame to frame: a cheap check each frame, a full search only when lost.

Why: a full localisation costs tens of milliseconds, the X-corner probe a few
microseconds; one core can then watch many boards. The probe (see
:mod:`vision.grid_probe`) separates three cases that need different answers:

- corners visible with the expected polarity: the board has not moved by more than a
  fraction of a square; keep the location, refitting it locally every ``refit_s`` seconds
  to follow a nudge of a few pixels;
- too few corners visible: something covers the board (the occlusion gate handles that),
  keep the location but look again with a full search now and then, in case the camera
  was also moved;
- visible corners with the wrong polarity: the board or camera was bumped; search again
  (a local refit first, then the full search), at most every ``retry_s`` seconds so a
  long disturbance does not eat the core.

A knock of the camera that the registration measures (too large for a wobble, but the
whole board moved alike) is adopted at once, turn and all, where more corners show there.

A board cut by the frame's edge that a search found is followed only until a board wholly
in view is found: the full search is made again while it is followed, soon at first, then
more and more seldom (a camera is aimed at its own board, :func:`vision.locate.locate_board`;
the one search that found it may have been made on a frame where the camera's own board did
not show, and a lone board at the edge should cost a search only now and then).

Before the probe looks, each frame is registered to the board (see
:mod:`vision.registration`): the location handed on is where the board is in this very
frame, to a tenth of a pixel, so a camera that wobbles or drifts keeps the probe on its
corners and shows the occlusion gate a still board. The local refit (costly) then only has
to catch what a shift cannot follow: the slow zoom of focus breathing, a tilt.

After a re-localisation the corner order closest to the previous one is kept, so the
numbering found from the pieces survives a bump.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from .geometry import BoardLocation
from .grid_probe import GridCheck, GridProbe
from .lens import Lens
from .locate import LocateConfig, in_frame, locate_board, refine_location
from .registration import BoardRegistrar, Registration, RegistrationConfig, moved


class FollowState(enum.Enum):
    SEARCHING = "searching"  # no board yet, or lost it
    FOLLOWING = "following"  # board verified in this frame
    HIDDEN = "hidden"  # too little of the grid visible to verify; location kept


@dataclass(frozen=True)
class FollowerConfig:
    min_visible: int = 8  # corners needed to judge the polarity
    min_agreement: float = 0.8  # share of visible corners with the right sign
    retry_s: float = 0.1  # least time between two full searches
    hidden_retry_s: float = 0.3  # full search this often while hidden (a hand, a big bump)
    min_confidence: float = LocateConfig.min_confidence  # a search result below this is ignored
    refit_s: float = 2.0  # a local refit this often catches what the registration cannot follow
    refit_shift: float = 0.05  # squares a refit must move a corner to be adopted (not noise)
    registration: RegistrationConfig = RegistrationConfig()
    still_px: float = 0.05  # a registered move this small (pixels) is noise: the location stays
    nudge: float = 0.15  # squares the registration may carry the board from the last fit before a refit
    bump_corners: int = 4  # more corners a knocked camera's location must show than the old one
    cut_retry_s: float = 0.3  # first full search while the board followed is cut by the frame's edge,
    # the wait doubling after each that finds no board wholly in view, up to ...
    cut_retry_max_s: float = 5.0  # ... this: a lone board at the edge costs a search only now and then


def _closest_order(new: BoardLocation, old: BoardLocation) -> BoardLocation:
    """``new`` with its first corner rotated to sit where ``old``'s first corner was."""
    costs = [
        np.linalg.norm(np.roll(new.corners, -k, axis=0) - old.corners, axis=1).sum()
        for k in range(4)
    ]
    return new.rotated(int(np.argmin(costs)))


class BoardFollower:
    """Keeps one board's location up to date; call :meth:`update` with every frame.

    ``locate`` is the full search (injectable so tests and profiles can substitute the
    ArUco finder or fixed corners). ``lens``, a board profile's calibrated lens, places the
    outer corners of every search and refit (see :func:`vision.locate.locate_board`).
    """

    def __init__(
        self,
        cfg: FollowerConfig = FollowerConfig(),
        locate: Callable[[np.ndarray], BoardLocation | None] | None = None,
        initial: BoardLocation | None = None,
        lens: Lens | None = None,
    ) -> None:
        self.cfg = cfg
        self.lens = lens
        self._locate = locate or (lambda frame: locate_board(frame, lens=lens))
        self.location: BoardLocation | None = initial
        self.state = FollowState.SEARCHING
        self.last_check: GridCheck | None = None
        self.registration: Registration | None = None  # this frame's, None when not tracking
        self._registrar = BoardRegistrar(cfg.registration)
        self._probe: GridProbe | None = None
        self._last_search = -np.inf
        self._last_refit = -np.inf
        self._previous: BoardLocation | None = initial  # for the corner order after a bump
        self._fitted: BoardLocation | None = initial  # the last location found or refitted
        self.boards = 0  # how many times another board was taken for one cut by the frame's edge
        self._searched = False  # the board followed was found by a full search, not given
        # (``initial``: a board profile's corners name the camera's board, cut or not)
        self._cut_wait = cfg.cut_retry_s  # the wait before the next search while it is cut
        self._held = False  # a game is in play on the board followed (:meth:`hold`)

    def update(self, frame: np.ndarray, timestamp: float | None = None) -> BoardLocation | None:
        """The board's location in ``frame``, or None while it is lost."""
        now = time.monotonic() if timestamp is None else timestamp
        if self.location is not None and self._probe is None:
            self._probe = GridProbe.build(self.location, frame)
        self.registration = None
        if self._probe is not None:
            kept = self.location, self._probe
            self._register(frame)
            check = self._probe.check(frame)
            self.last_check = check
            if check.n_visible < self.cfg.min_visible:
                # Covered: what the registration saw may be the hand; the location stays.
                self.location, self._probe = kept
                self.state = FollowState.HIDDEN
                if now - self._last_search >= self.cfg.hidden_retry_s:
                    self._search(frame, now)
                return self.location
            if check.agreement >= self.cfg.min_agreement:
                self.state = FollowState.FOLLOWING
                if (self._cut(frame) and now - self._last_search >= self._cut_wait
                        and self._whole_board(frame, now)):
                    return self.location
                lost_track = self.registration is not None and not self.registration.trusted
                if (now - self._last_refit >= self.cfg.refit_s or self._nudged()
                        or (lost_track and now - self._last_refit >= self.cfg.retry_s)):
                    self._refit(frame, now)
                return self.location
            # Wrong polarity: it moved. A small move is fixed by a local refit, at once.
            refit = self._refine(frame)
            if refit is not None and self._keeps_polarity(refit, frame):
                self._adopt(refit, frame)
                return self.location
            self.location, self._probe = None, None
            self._registrar.forget()
            self.state = FollowState.SEARCHING
        if now - self._last_search >= self.cfg.retry_s:
            self._search(frame, now)
        return self.location

    def _register(self, frame: np.ndarray) -> None:
        """Move the location onto the board in this frame, when the registration is sure."""
        assert self.location is not None and self._probe is not None
        if not self._registrar.has_template:
            self._registrar.retemplate(frame, self.location, self._probe.weights)
        reg = self._registrar.register(frame)
        self.registration = reg
        if not reg.trusted and reg.explained:
            self._bumped(frame, reg)
        elif reg.trusted and self._registrar.base is not None:
            registered = moved(self._registrar.base, reg.motion)
            # Below the registration's own noise the board has not moved: keeping the
            # location then keeps the crops of a still board exactly the same.
            if np.abs(registered.corners - self.location.corners).max() > self.cfg.still_px:
                self.location = registered
                self._probe = self._probe.moved_to(self.location, frame.shape)

    def _bumped(self, frame: np.ndarray, reg: Registration) -> None:
        """A motion too large for a wobble that still brings the whole board onto the
        template: the camera was knocked (it turns, shifts and zooms in a frame or two and
        stays there). Adopted, turn and all, where the grid's corners confirm it: more of
        them show there, with their polarity, than where the board was. Why: a local refit
        fails on a small board's 9-pixel squares, and with some corners still showing where
        the board was, the follower would follow a location half a square off to the end
        (kingplay 70027: 45 corners at the knocked location, 8-26 at the old one); a full
        search may land a quarter of a square off."""
        assert self.location is not None and self._probe is not None and self._registrar.base is not None
        knocked = moved(self._registrar.base, reg.motion)
        there = self._probe.moved_to(knocked, frame.shape).check(frame)
        if there.n_visible < self.cfg.min_visible or there.agreement < self.cfg.min_agreement:
            return
        if there.n_visible > self._probe.check(frame).n_visible + self.cfg.bump_corners:
            self._adopt(knocked, frame)

    def _refine(self, frame: np.ndarray) -> BoardLocation | None:
        """A local refit, or None (also when a shaken location puts corners off the image)."""
        if self.location is None:
            return None
        try:
            return refine_location(frame, self.location, lens=self.lens)
        except cv2.error:
            return None

    def _nudged(self) -> bool:
        """The registration carried the board far from where it was last fitted: a nudge,
        perhaps with a tilt that a similarity only approximates; fit it again now."""
        if self._fitted is None or self.location is None:
            return False
        shift = np.abs(self.location.corners - self._fitted.corners).max()
        return bool(shift > self.cfg.nudge * self.location.square_px)

    def _keeps_polarity(self, refit: BoardLocation, frame: np.ndarray) -> bool:
        """A refit that snapped to the corners one square over would invert every corner."""
        assert self._probe is not None  # a board is being tracked
        check = self._probe.moved_to(refit, frame.shape).check(frame)
        return check.n_visible >= self.cfg.min_visible and check.agreement >= self.cfg.min_agreement

    def _refit(self, frame: np.ndarray, now: float) -> None:
        """Adopt a local refit if the board crept by more than noise (a nudge of a few pixels)."""
        self._last_refit = now
        refit = self._refine(frame)
        if refit is None or not self._keeps_polarity(refit, frame):
            return
        assert self.location is not None and self._probe is not None  # _refine had a board
        self._fitted = refit
        shift = np.linalg.norm(refit.corners - self.location.corners, axis=1).max()
        if shift > self.cfg.refit_shift * self.location.square_px:
            self._adopt(refit, frame)
        elif self.registration is not None and self.registration.trusted:
            # Confirmed where it is: register against this frame from now on (the men moved
            # since the template was cut), at the registered location, so nothing jumps.
            self._registrar.retemplate(frame, self.location, self._probe.weights)

    def _search(self, frame: np.ndarray, now: float) -> None:
        self._last_search = now
        found = self._locate(frame)
        if found is not None and found.confidence >= self.cfg.min_confidence:
            self._adopt(found, frame)
            self._searched, self._cut_wait = True, self.cfg.cut_retry_s

    def hold(self) -> None:
        """A game is in play on the board followed: it is the camera's own, cut by the
        frame's edge or not (a camera knocked aside), and is never given up for another board
        wholly in view (:meth:`_whole_board`): the game's numbering and reader are this one's."""
        self._held = True

    def _cut(self, frame: np.ndarray) -> bool:
        """Whether the board followed, found by a search and held by no game, is cut by the
        frame's edge."""
        return (self._searched and not self._held and self.location is not None
                and not in_frame(self.location, frame))

    def _whole_board(self, frame: np.ndarray, now: float) -> bool:
        """Take a board wholly in view, where the full search finds one, for the board
        followed, which is cut by the frame's edge; whether it was taken. Why: the search
        that found the cut board may have been made on a frame where the camera's own board
        did not show (a dim first frame, a focus hunt), and a board followed is never
        searched for again while its grid shows (kingplay 70189: the next table's board, at
        the frame's edge and found alone on the first frame, was followed to the end, and
        its set-up was taken for the game's). Another board (its centre outside the board
        followed, which may be the same board come wholly into view) starts its corners
        afresh, and :attr:`boards` tells the reader to number it afresh."""
        self._last_search = now
        found = self._locate(frame)
        if found is None or found.confidence < self.cfg.min_confidence or not in_frame(found, frame):
            self._cut_wait = min(2 * self._cut_wait, self.cfg.cut_retry_max_s)
            return False
        assert self.location is not None  # a board was followed
        other = cv2.pointPolygonTest(self.location.corners.astype(np.float32).reshape(-1, 1, 2),
                                     tuple(float(v) for v in found.corners.mean(axis=0)), False) < 0
        if other:
            self._previous = None
            self.boards += 1
        self._adopt(found, frame)
        return True

    def _adopt(self, found: BoardLocation, frame: np.ndarray) -> None:
        if self._previous is not None:
            found = _closest_order(found, self._previous)
        self.location = self._previous = self._fitted = found
        self._probe = GridProbe.build(found, frame)
        self._registrar.retemplate(frame, found, self._probe.weights)
        self.state = FollowState.FOLLOWING
