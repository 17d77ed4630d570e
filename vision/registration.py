"""Where the board lies in this frame to a tenth of a pixel: a cheap registration of the image.

Why: a camera on a light stand, a clamp or a phone tripod moves by a pixel or three between
frames. A view of the board cut at an earlier frame's location then shifts by that much,
and every square's edge reads as motion. Cutting each frame at the board's own position in
that frame removes it: the board reads still whatever the camera does.

How: a camera that wobbles turns and shifts a little about its mount, which moves the
image of a distant board by a shift, a tiny turn and (focus breathing) a tiny zoom: a
similarity of the image. The board's region is cut from a template frame once
(downscaled so its longer side is at most ``work_px``, grey, band-passed) and every later
frame's same region is matched against it:

- phase correlation first (robust to a jolt of several pixels, and, comparing phases
  only, to any change of exposure or white balance);
- then Gauss-Newton steps for the similarity (until a step is a few thousandths of a pixel), from the template's gradients, leaving out
  the pixels the motion does not explain (a hand, a moved man).

The band-pass keeps the squares' edges and removes what competes with them: sensor noise
(finer) and the light's slow changes across the board (flicker bands on a rolling shutter,
a shadow's edge; coarser). The template is absolute: errors do not add up from frame to
frame. A motion of more than ``max_shift`` squares is not a wobble (a bump, or the
checkerboard's own period fooling the correlation) and is refused: the follower's refit or
full search handles it.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .geometry import BoardLocation, homography_from_corners, project

_OUTLINE = np.array([[-0.3, -0.3], [8.3, -0.3], [8.3, 8.3], [-0.3, 8.3]], np.float32)
_CORNERS = np.array([[0, 0], [8, 0], [8, 8], [0, 8]], np.float32)


@dataclass(frozen=True)
class RegistrationConfig:
    work_px: int = 128  # longer side of the region matched, pixels (downscaled to it)
    pad: float = 0.4  # squares of room around the board for the camera to move into
    min_response: float = 0.05  # phase-correlation peak below which its shift is not used
    max_shift: float = 0.35  # squares: a larger move is a bump, not a wobble
    max_residual: float = 0.9  # error left after the fit, relative to the template's contrast
    max_steps: int = 6  # Gauss-Newton steps at most
    converged: float = 0.005  # work pixels: a step this small ends them
    parameters: int = 4  # 2: a shift only; 4: with a turn and a zoom


@dataclass(frozen=True)
class Registration:
    """One frame's registration: ``motion`` (3x3) maps the template frame's pixels onto this
    frame's; ``response`` in [0, 1] is how much of the region agreed with the template by
    phase correlation (None: the steps from the last motion found needed none).
    ``explained``: the motion brings the region onto the template (a camera's move, however
    large); ``trusted``: explained, and small enough to be a wobble."""

    motion: np.ndarray
    response: float | None
    trusted: bool
    explained: bool = False

    def displacement(self, point: np.ndarray) -> float:
        """Pixels that ``point`` (template frame) moved to reach this frame."""
        p = np.asarray(point, np.float64).reshape(1, 2)
        return float(np.linalg.norm(project(self.motion, p) - p))


def moved(location: BoardLocation, motion: np.ndarray) -> BoardLocation:
    """``location`` carried by an image motion (3x3, old pixels -> new pixels)."""
    corners = project(motion, location.corners)
    return BoardLocation(corners, homography_from_corners(corners), location.confidence,
                         location.method)


def _band_pass(grey: np.ndarray) -> np.ndarray:
    return cv2.GaussianBlur(grey, (0, 0), 2.0) - cv2.GaussianBlur(grey, (0, 0), 4.0)


class BoardRegistrar:
    """Registers frames of one board against a template frame; :meth:`retemplate` renews it."""

    def __init__(self, cfg: RegistrationConfig = RegistrationConfig()) -> None:
        self.cfg = cfg
        self._template: np.ndarray | None = None
        self.base: BoardLocation | None = None  # where the board was in the template frame

    @property
    def has_template(self) -> bool:
        return self._template is not None

    def forget(self) -> None:
        self._template, self.base = None, None

    def _region(self, frame: np.ndarray) -> np.ndarray:
        x0, y0, x1, y1 = self._box
        small = frame[y0:y1, x0:x1]
        # Halvings first, then the last step to the work size. A halving by INTER_LINEAR
        # at exactly one half is a 2x2 mean: a third of pyrDown's cost, and smooth enough
        # once halvings cascade and the band-pass follows.
        while max(small.shape[:2]) > 2 * self.cfg.work_px:
            small = cv2.resize(small, (small.shape[1] // 2, small.shape[0] // 2),
                               interpolation=cv2.INTER_LINEAR)
        small = cv2.resize(small, self._size, interpolation=cv2.INTER_AREA).astype(np.float32)
        if small.ndim == 3:
            # Along the axis between the two square colours: grey loses red against green.
            small = cv2.transform(small, self._axis)
        return _band_pass(small)

    def retemplate(self, frame: np.ndarray, location: BoardLocation,
                   axis: np.ndarray | None = None) -> None:
        """Register later frames against ``frame``, where the board is at ``location``;
        ``axis``: colour weights (B, G, R) that tell the squares apart (default: grey)."""
        h, w = frame.shape[:2]
        weights = np.array([0.114, 0.587, 0.299]) if axis is None else np.asarray(axis, float)
        weights = weights / max(float(np.abs(weights).sum()), 1e-6)
        self._axis = weights.reshape(1, -1).astype(np.float32)
        pad = self.cfg.pad * location.square_px
        outline = np.nan_to_num(project(location.homography, _OUTLINE))
        x0, y0 = np.clip(np.floor(outline.min(axis=0) - pad).astype(int), 0, [w - 2, h - 2])
        x1, y1 = np.clip(np.ceil(outline.max(axis=0) + pad).astype(int), [x0 + 2, y0 + 2], [w, h])
        self._box = (int(x0), int(y0), int(x1), int(y1))
        scale = min(1.0, self.cfg.work_px / max(x1 - x0, y1 - y0))
        # Even sizes: OpenCV's phase correlation is half a pixel off on odd ones.
        self._size = (max(8, 2 * int(round((x1 - x0) * scale / 2))),
                      max(8, 2 * int(round((y1 - y0) * scale / 2))))
        self._scale = np.array([(x1 - x0) / self._size[0], (y1 - y0) / self._size[1]])
        t = self._region(frame)
        self._template = t
        self._window = cv2.createHanningWindow(self._size, cv2.CV_32F)
        gy, gx = np.gradient(t)
        ys, xs = np.mgrid[0:t.shape[0], 0:t.shape[1]].astype(np.float32)
        xs -= t.shape[1] / 2
        ys -= t.shape[0] / 2
        # Jacobian of a similarity (shift x, shift y, zoom, turn) about the region's centre.
        self._jacobian = np.stack([gx, gy, xs * gx + ys * gy,
                                   xs * gy - ys * gx]).reshape(4, -1).astype(np.float32)
        self._centre = np.array([t.shape[1] / 2, t.shape[0] / 2])
        self._contrast = float(np.abs(t).mean()) + 1e-3
        self._last = np.zeros(4)
        self._tracking = False  # the last registration was trusted: the next starts from it
        self.base = location

    def _to_frame(self, params: np.ndarray) -> np.ndarray:
        """The similarity ``params`` (work pixels) as a 3x3 motion of frame pixels."""
        dx, dy, zoom, turn = params
        c = self._centre
        a = np.array([[1 + zoom, -turn], [turn, 1 + zoom]])
        # work pixel p (template) -> c + a (p - c) + d (this frame)
        work = np.eye(3)
        work[:2, :2] = a
        work[:2, 2] = c - a @ c + [dx, dy]
        x0, y0 = self._box[:2]
        # frame -> work: p_work = (p - box0) / scale - 0.5 ... kept to pixel centres
        s = self._scale
        to_work = np.array([[1 / s[0], 0, -x0 / s[0] + 0.5 / s[0] - 0.5],
                            [0, 1 / s[1], -y0 / s[1] + 0.5 / s[1] - 0.5], [0, 0, 1]])
        matrix: np.ndarray = np.linalg.inv(to_work) @ work @ to_work
        return matrix

    def register(self, frame: np.ndarray) -> Registration:
        """How the image moved from the template frame to ``frame``.

        A camera that wobbles moves the image by a pixel or two from one analysed frame to
        the next, well inside the band-passed edges' reach: the steps from the last motion
        found converge by themselves, and phase correlation (half the cost) is needed only
        when they do not (a jolt, the first frame after a new template)."""
        if self._template is None or self.base is None:
            raise ValueError("no template: call retemplate() first")
        v = self._region(frame)
        if self._tracking:
            params, error, converged = self._steps(v, self._last.copy())
            if converged:
                registration = self._judge(params, error, None)
                if registration.trusted:
                    return registration
        # Copies: OpenCV 5's phaseCorrelate applies the window to its inputs in place.
        (dx, dy), response = cv2.phaseCorrelate(self._template.copy(), v.copy(), self._window)
        # Start from the last motion found; phase correlation's shift replaces it when sure.
        params = self._last.copy()
        if response >= self.cfg.min_response:
            params[:2] = dx, dy
        params, error, _ = self._steps(v, params)
        return self._judge(params, error, float(response))

    def _judge(self, params: np.ndarray, error: np.ndarray | None, response: float | None) -> Registration:
        """The registration ``params`` make, trusted unless it moved too far or explains too
        little of the region (a hand, a bump); a trusted one is where the next starts."""
        assert self.base is not None  # registering
        motion = self._to_frame(params)
        shift = max(self._displacements(motion)) / self.base.square_px
        residual = float(np.abs(error).mean()) / self._contrast if error is not None else 1.0
        explained = residual <= self.cfg.max_residual
        trusted = shift <= self.cfg.max_shift and explained
        self._tracking = trusted
        if trusted:
            self._last = params
        return Registration(motion, response, bool(trusted), bool(explained))

    def _steps(self, v: np.ndarray, params: np.ndarray) -> tuple[np.ndarray, np.ndarray | None, bool]:
        """Gauss-Newton steps from ``params`` bringing the region ``v`` onto the template:
        (the parameters, the error left, whether a step became small enough to stop)."""
        t = self._template
        assert t is not None  # registering
        h, w = t.shape
        c = self._centre
        error = None
        for _ in range(self.cfg.max_steps):
            # Bring the frame's region back onto the template with the current estimate.
            dx, dy, zoom, turn = params
            a = np.array([[1 + zoom, -turn], [turn, 1 + zoom]])
            m = np.hstack([a, (c - a @ c + [dx, dy])[:, None]]).astype(np.float32)
            back = cv2.warpAffine(v, m, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                  borderMode=cv2.BORDER_REPLICATE)
            error = (back - t).ravel()
            # Large residuals are not the camera's motion (a hand, a moved man): left out.
            size = np.abs(error)
            keep = (size <= 3.0 * float(size.mean()) + 1e-3).astype(np.float32)
            j = self._jacobian[:self.cfg.parameters] * keep
            hessian = (j @ self._jacobian[:self.cfg.parameters].T).astype(np.float64)
            if abs(np.linalg.det(hessian)) < 1e-9:
                break
            # back(x) ~ t(x) + J . delta  (the frame's region drawn back with the motion still to find)
            step = np.zeros(4)
            step[:self.cfg.parameters] = -np.linalg.solve(hessian, (j @ error).astype(np.float64))
            params = params + step
            if np.abs(step[:2]).max() < self.cfg.converged:
                return params, error, True
        return params, error, False

    def _displacements(self, motion: np.ndarray) -> list[float]:
        assert self.base is not None
        c = self.base.corners
        return list(np.linalg.norm(project(motion, c) - c, axis=1))
