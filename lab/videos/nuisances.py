"""What a real camera does to a video that our renderer does not: drawn per video by seed.

Other people's game videos showed what our own never did: a phone on a small tripod
wobbles by a pixel or three between frames, is bumped now and then, hunts its exposure
when a hand comes in, bands under mains light, and saves everything through a codec at a
low bit rate. :class:`Nuisances` is one draw of all of that for one video, plain data (so
a bench can tabulate by it); :class:`Camera` applies it to the renderer's clean frames,
in the order light and a sensor meet them:

    clean frame -> camera motion: wobble, jolts, a knock to a new angle, zoom/focus
                   breathing, roll, rolling-shutter skew while it moves (one remap)
                -> motion blur along the camera's motion during the exposure
                -> a busy hall's focus hunting and a player's head at the frame's top
                   (:mod:`lab.videos.busy_camera`)
                -> exposure (steps, drift, a hunt when a hand comes in, a dim hall), white
                   balance drift, mains flicker banding on a rolling shutter, a person's
                   shadow falling across part of the view and staying, a busy hall's
                   glare spot moving with the lamp
                -> sensor noise at the current gain
                -> (the writer) compression: MPEG-4 Part 2 or H.264 at a low bit rate,
                   key frames every ``gop`` frames

Time is sampled as a camera samples it: frame ``k`` shows the scene at ``content_times[k]``
(capture jitter, dropped and duplicated frames), while the file says ``k / fps``.

Ranges follow cheap cameras in halls and homes; distances are in pixels at 720p and scale
with the frame height. :meth:`Nuisances.calm` is a tripod in steady light (the demo).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, replace
from typing import Any

import cv2
import numpy as np

from .busy_camera import BusyCamera, is_busy

#: Frame sizes of the cameras we meet: VGA webcams to full-HD phones.
SIZES = ((640, 480), (960, 540), (1024, 576), (1280, 720), (1280, 960), (1920, 1080))
FRAME_RATES = (15.0, 25.0, 30.0, 60.0)
CODECS = ("mpeg4", "h264")
#: Camera wobble levels of the bench's tables (pixels at 720p, ``wobble_px``).
WOBBLE_LEVELS = (0.0, 1.0, 2.0, 3.0, 5.0)


@dataclass(frozen=True)
class Nuisances:
    """One video's camera, light and codec. Pixel sizes are at 720p (scaled by height)."""

    fps: float
    size: tuple[int, int]  # (width, height)
    codec: str  # "mpeg4" (Part 2), "h264", or "mp4v" (OpenCV's writer, calm videos)
    bit_rate: int  # bits per second of the encoder (0: the writer's default)
    gop: int  # frames between key frames
    # camera motion
    wobble_px: float  # 2-sigma amplitude of the smooth random walk of the image position
    wobble_time: float  # seconds: correlation time of the walk (short = jittery)
    roll_deg: float  # 2-sigma amplitude of the camera's roll, with the walk
    jolts_per_min: float
    jolt_px: float  # largest jolt
    jolt_keep: float  # share of a jolt's displacement that stays (a nudged tripod)
    breathing: float  # zoom amplitude of focus breathing (fraction of scale)
    breathing_period: float  # seconds
    readout: float  # rolling shutter: share of the frame period spent reading the rows
    exposure_time: float  # share of the frame period the shutter is open (motion blur)
    # light
    exposure_steps_per_min: float
    exposure_step: float  # largest step of the auto exposure (fraction)
    exposure_drift: float  # amplitude of the slow drift (fraction)
    white_balance_drift: float  # amplitude of per-channel drift (fraction)
    hand_hunt: float  # exposure swing when a hand comes in (fraction; 0 = none)
    mains_hz: float  # 0 (daylight), 50 or 60
    flicker: float  # amplitude of the banding (fraction)
    shadow_at: float | None  # seconds at which a person's shadow falls and then stays
    shadow_strength: float  # how much the shadow darkens (fraction)
    noise: float  # sensor noise at unit gain, grey levels (standard deviation)
    # time
    time_jitter: float  # seconds (standard deviation) of the capture time
    drop_rate: float  # share of frames the camera skips
    duplicate_rate: float  # share of frames delivered twice
    seed: int = 0
    # a hall's (:func:`hall_nuisances`; the defaults: none, as every video before them)
    dim: float = 1.0  # share of the light a dim hall gives: darker, and noisier by its gain
    bump_at: float | None = None  # seconds: the camera is knocked and settles at a new angle
    bump_roll_deg: float = 0.0  # roll it keeps
    bump_zoom: float = 0.0  # change of scale it keeps (fraction)
    bump_px: tuple[float, float] = (0.0, 0.0)  # shift it keeps
    sleeve_at: float | None = None  # seconds: a player's arm comes to rest on the board's edge
    sleeve_s: float = 0.0  # for this long, lifted only to play
    scoresheet: bool = False  # a ruled scoresheet lies on the table beside the board
    # a busy hall's (:func:`busy_hall_nuisances`; the defaults: none)
    nudged: float = 0.0  # chance a man is put down leaning into the next square, and stays
    hand_smear: float = 0.0  # share of a hand's path swept in one exposure (a fast hand)
    second_board: bool = False  # the next table's board at the frame's edge, played on too
    phone: bool = False  # a phone laid on the board's edge
    captured_beside: bool = False  # captured men stacked on the table beside the board
    glare: float = 0.0  # grey levels of a glossy glare spot that moves with the lamp
    head_at: float | None = None  # seconds: a player's head comes in at the frame's top
    head_s: float = 0.0  # for this long
    focus_hunts_per_min: float = 0.0  # the auto-focus losing the board and finding it again

    @classmethod
    def calm(cls, size: tuple[int, int] = (1280, 720), fps: float = 30.0,
             noise: float = 2.0) -> Nuisances:
        """A camera bolted down in steady light, written by OpenCV: the old test videos."""
        return cls(fps=fps, size=size, codec="mp4v", bit_rate=0, gop=12, wobble_px=0.0,
                   wobble_time=0.3, roll_deg=0.0, jolts_per_min=0.0, jolt_px=0.0, jolt_keep=0.0,
                   breathing=0.0, breathing_period=5.0, readout=0.0, exposure_time=0.5,
                   exposure_steps_per_min=0.0, exposure_step=0.0, exposure_drift=0.0,
                   white_balance_drift=0.0, hand_hunt=0.0, mains_hz=0.0, flicker=0.0,
                   shadow_at=None, shadow_strength=0.0, noise=noise, time_jitter=0.0,
                   drop_rate=0.0, duplicate_rate=0.0)

    @property
    def is_calm(self) -> bool:
        return self == replace(Nuisances.calm(self.size, self.fps, self.noise), seed=self.seed)

    @property
    def scale(self) -> float:
        """Pixels of this video per pixel at 720p."""
        return self.size[1] / 720.0

    def describe(self) -> dict[str, Any]:
        return asdict(self)


def sample_nuisances(rng: np.random.Generator, duration: float = 60.0, *,
                     wobble_px: float | None = None, fps: float | None = None,
                     codec: str | None = None, size: tuple[int, int] | None = None) -> Nuisances:
    """Draw every nuisance at random; the keywords pin the ones a bench tabulates by."""
    size = size or SIZES[int(rng.integers(len(SIZES)))]
    fps = fps or float(rng.choice(FRAME_RATES))
    codec = codec or str(rng.choice(CODECS))
    # Low bit rates: 0.4-2.5 Mbit/s at 720p30 for H.264 (MPEG-4 Part 2 gets twice that, as
    # phones give it), scaled with the area and less than linearly with the frame rate.
    mbit = rng.uniform(0.4, 2.5) * (2.0 if codec == "mpeg4" else 1.0)
    bit_rate = int(mbit * 1e6 * size[0] * size[1] / (1280 * 720) * (fps / 30) ** 0.7)
    return Nuisances(
        fps=fps, size=size, codec=codec, bit_rate=bit_rate,
        gop=int(rng.choice([int(fps // 2) or 1, int(fps), int(2 * fps), 250])),
        wobble_px=float(rng.uniform(0.0, 3.0)) if wobble_px is None else float(wobble_px),
        wobble_time=float(rng.uniform(0.06, 0.6)),
        roll_deg=float(rng.uniform(0.0, 0.15)),
        jolts_per_min=float(rng.choice([0.0, 1.0, 3.0])),
        jolt_px=float(rng.uniform(3.0, 8.0)),
        jolt_keep=float(rng.uniform(0.0, 1.0)),
        breathing=float(rng.uniform(0.0, 0.004)) if rng.random() < 0.5 else 0.0,
        breathing_period=float(rng.uniform(3.0, 15.0)),
        readout=float(rng.uniform(0.5, 0.95)) if rng.random() < 0.8 else 0.0,
        exposure_time=float(rng.uniform(0.1, 1.0)),
        exposure_steps_per_min=float(rng.choice([0.0, 2.0, 6.0])),
        exposure_step=float(rng.uniform(0.05, 0.3)),
        exposure_drift=float(rng.uniform(0.0, 0.15)),
        white_balance_drift=float(rng.uniform(0.0, 0.06)),
        hand_hunt=float(rng.uniform(0.05, 0.25)) if rng.random() < 0.5 else 0.0,
        mains_hz=float(rng.choice([0.0, 50.0, 60.0])),
        flicker=float(rng.uniform(0.02, 0.12)),
        shadow_at=float(rng.uniform(0.1, 0.8) * duration) if rng.random() < 0.4 else None,
        shadow_strength=float(rng.uniform(0.2, 0.5)),
        noise=float(rng.uniform(1.0, 12.0)),
        time_jitter=float(rng.uniform(0.0, 0.25 / fps)),
        drop_rate=float(rng.choice([0.0, 0.01, 0.03])),
        duplicate_rate=float(rng.choice([0.0, 0.01, 0.03])),
        seed=int(rng.integers(2**31)),
    )


def hall_nuisances(nuisances: Nuisances, rng: np.random.Generator, duration: float) -> Nuisances:
    """``nuisances`` with what a playing hall adds, drawn from ``rng``: dim light, a camera
    knocked to a new angle mid-game, a player's arm resting on the board's edge for
    seconds, a scoresheet on the table. Each comes with a good chance, not always, so a set
    of videos has each alone and together. Their own generator: every other draw stays."""
    def chance(p: float) -> bool:
        return bool(rng.random() < p)

    angle = rng.uniform(0, 2 * np.pi)
    shift = float(rng.uniform(4.0, 14.0))
    return replace(
        nuisances,
        dim=float(rng.uniform(0.35, 0.6)) if chance(0.4) else 1.0,
        bump_at=float(rng.uniform(0.2, 0.8) * duration) if chance(0.5) else None,
        bump_roll_deg=float(rng.choice([-1, 1]) * rng.uniform(1.0, 3.0)),
        bump_zoom=float(rng.uniform(-0.04, 0.04)),
        bump_px=(shift * math.cos(angle), shift * math.sin(angle)),
        sleeve_at=float(rng.uniform(0.1, 0.7) * duration) if chance(0.5) else None,
        sleeve_s=float(rng.uniform(4.0, 12.0)),
        scoresheet=chance(0.5),
    )


def busy_hall_nuisances(nuisances: Nuisances, rng: np.random.Generator,
                        duration: float) -> Nuisances:
    """``nuisances`` with what a busy hall adds, drawn from ``rng``: men put down off-centre,
    a fast hand blurred, the next table's board in view, a phone on the board's edge,
    captured men stacked beside it, a glare spot moving with the lamp, a player's head at
    the frame's top, the auto-focus hunting. Each with a good chance, not always; their
    own generator, so every other draw stays."""
    def chance(p: float) -> bool:
        return bool(rng.random() < p)

    return replace(
        nuisances,
        nudged=float(rng.uniform(0.2, 0.5)) if chance(0.5) else 0.0,
        hand_smear=float(rng.uniform(0.1, 0.3)) if chance(0.5) else 0.0,
        second_board=chance(0.4),
        phone=chance(0.4),
        captured_beside=chance(0.5),
        glare=float(rng.uniform(40.0, 110.0)) if chance(0.4) else 0.0,
        head_at=float(rng.uniform(0.1, 0.8) * duration) if chance(0.4) else None,
        head_s=float(rng.uniform(3.0, 10.0)),
        focus_hunts_per_min=float(rng.uniform(1.0, 4.0)) if chance(0.4) else 0.0,
    )


def content_times(n: int, nuisances: Nuisances) -> np.ndarray:
    """When the scene was captured for each of ``n`` file frames (seconds)."""
    rng = np.random.default_rng([nuisances.seed, 1])
    period = 1.0 / nuisances.fps
    step = np.full(n, period)
    u = rng.random(n)
    step[u < nuisances.drop_rate] = 2 * period  # a frame the camera skipped
    step[u > 1 - nuisances.duplicate_rate] = 0.0  # the same frame delivered twice
    step[0] = 0.0
    times = np.cumsum(step)
    jitter = rng.normal(0, nuisances.time_jitter, n) if nuisances.time_jitter > 0 else 0.0
    return np.maximum(times + jitter, 0.0)


def _smooth_walk(rng: np.random.Generator, n: int, dt: float, correlation: float,
                 dims: int) -> np.ndarray:
    """A smooth random walk about zero, unit standard deviation: white noise through two
    one-pole low-passes (position and velocity both continuous), ``(n, dims)``."""
    a = math.exp(-dt / max(correlation, dt))
    white = rng.standard_normal((n, dims))
    out = np.empty_like(white)
    v = p = np.zeros(dims)
    for k in range(n):
        v = a * v + (1 - a) * white[k]
        p = a * p + (1 - a) * v
        out[k] = p
    out -= out.mean(axis=0)
    std = out.std(axis=0)
    return out / np.where(std > 0, std, 1.0)


class Camera:
    """Applies one :class:`Nuisances` draw to clean frames; ``duration`` seconds of video.

    The camera's motion and light are laid out up front on a fine time grid (1 ms), so a
    rolling shutter can read each row at its own time.
    """

    DT = 0.001

    def __init__(self, nuisances: Nuisances, duration: float) -> None:
        self.n = nuisances
        nz = nuisances
        w, h = nz.size
        rng = np.random.default_rng([nz.seed, 2])
        steps = int(duration / self.DT) + 2000
        s = nz.scale
        walk = _smooth_walk(rng, steps, self.DT, nz.wobble_time, 3)
        self.offset = walk[:, :2] * (nz.wobble_px / 2) * s  # pixels
        self.roll = walk[:, 2] * math.radians(nz.roll_deg / 2)
        # Jolts: a sudden push (within 2 frames) that rings out in half a second; part stays.
        t = np.arange(steps) * self.DT
        count = rng.poisson(nz.jolts_per_min * duration / 60.0)
        for at in rng.uniform(0.5, max(duration - 0.5, 0.6), count):
            angle = rng.uniform(0, 2 * np.pi)
            size = rng.uniform(0.4, 1.0) * nz.jolt_px * s
            push = np.array([math.cos(angle), math.sin(angle)]) * size
            rise = 2.0 / nz.fps
            u = np.clip((t - at) / rise, 0, None)
            after = t - at - rise
            ring = np.where(after > 0, np.exp(-after / 0.15) * np.cos(2 * np.pi * after / 0.25), 1.0)
            shape = np.where(u < 1, u, nz.jolt_keep + (1 - nz.jolt_keep) * ring)
            shape[t < at] = 0.0
            self.offset += shape[:, None] * push
        self.zoom = 1 + nz.breathing * np.sin(2 * np.pi * t / nz.breathing_period
                                              + rng.uniform(0, 2 * np.pi))
        if nz.bump_at is not None:
            self._bump(t, nz.bump_at)
        # Exposure: steps of the auto exposure, a slow drift, the hunt after a hand.
        gain = np.ones(steps)
        for at in rng.uniform(0, duration, rng.poisson(nz.exposure_steps_per_min * duration / 60)):
            gain[t >= at] *= 1 + rng.uniform(-1, 1) * nz.exposure_step
        drift = _smooth_walk(rng, steps // 100 + 2, 0.1, 8.0, 4)
        drift = np.repeat(drift, 100, axis=0)[:steps]
        # An auto exposure keeps the picture's brightness within limits, whatever it does.
        self.gain = np.clip(gain * (1 + nz.exposure_drift * drift[:, 0] / 2), 0.7, 1.3)
        self.balance = 1 + nz.white_balance_drift * drift[:, 1:] / 2  # (steps, 3) BGR
        self._hunts: list[tuple[float, float]] = []
        self._rng = rng
        self.centre = np.array([w / 2, h / 2])
        self.flicker_phase = rng.uniform(0, 2 * np.pi)
        self._noise = np.empty((h, w, 3), np.float32)
        cv2.setRNGSeed(int(nz.seed % 2**31))
        self._shadow = self._shadow_mask(rng) if nz.shadow_at is not None else None
        self._frame_index = 0
        self._busy = BusyCamera(nz, duration) if is_busy(nz) else None

    def _bump(self, t: np.ndarray, at: float) -> None:
        """The camera knocked at ``at``: within two frames it turns, shifts and zooms, rings
        for half a second, and stays at its new angle (a tripod's head knocked loose)."""
        nz = self.n
        rise = 2.0 / nz.fps
        after = t - at - rise
        ring = np.where(after > 0, 1 + 0.3 * np.exp(-after / 0.15) * np.cos(2 * np.pi * after / 0.25), 1.0)
        shape = np.where(t < at, 0.0, np.where(t < at + rise, (t - at) / rise, ring))
        self.offset += shape[:, None] * np.asarray(nz.bump_px) * nz.scale
        self.roll += shape * math.radians(nz.bump_roll_deg)
        self.zoom *= 1 + shape * nz.bump_zoom

    # ------------------------------------------------------------ sampled state

    def _at(self, series: np.ndarray, time: float | np.ndarray) -> Any:
        k = np.clip(np.rint(np.asarray(time) / self.DT).astype(int), 0, len(series) - 1)
        return series[k]

    def hand_enters(self, time: float) -> None:
        """A hand came into view at ``time``: the auto exposure hunts (if this camera does)."""
        if self.n.hand_hunt > 0:
            self._hunts.append((time, self._rng.uniform(-1, 1) * self.n.hand_hunt))

    def exposure(self, time: float) -> float:
        g = float(self._at(self.gain, time))
        for at, swing in self._hunts:
            after = time - at
            if 0 <= after < 2.0:
                # Metering sees the hand, the exposure swings and rings back: a damped hunt.
                g *= 1 + swing * math.exp(-after / 0.35) * math.cos(2 * math.pi * after / 0.7)
        return g

    # ------------------------------------------------------------ pieces of the frame

    def _shadow_mask(self, rng: np.random.Generator) -> np.ndarray:
        """A person standing beside the table: a large soft dark blob over part of the view."""
        w, h = self.n.size
        small = np.zeros((h // 4, w // 4), np.float32)
        # From one side of the view, reaching a third to a half of the way to its centre.
        side = [(-1, 0), (1, 0), (0, -1), (0, 1)][int(rng.integers(4))]
        reach = rng.uniform(0.25, 0.45)
        centre = (int(w / 8 * (1 + side[0] * 2 * reach)), int(h / 8 * (1 + side[1] * 2 * reach)))
        axes = (int(rng.uniform(0.3, 0.6) * w / 4), int(rng.uniform(0.3, 0.6) * h / 4))
        cv2.ellipse(small, centre, axes, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        soft = cv2.GaussianBlur(small, (0, 0), max(w, h) / 4 * rng.uniform(0.02, 0.06))
        self._shadow_dir = rng.uniform(0, 2 * np.pi)
        return np.asarray(cv2.resize(soft, (w, h), interpolation=cv2.INTER_LINEAR), np.float32)

    def _shadow_factor(self, time: float) -> np.ndarray | None:
        """(h, w) multiplier of the shadow at ``time``, None before it falls. Applied with the
        light, after the camera's motion: it is soft enough that a few pixels do not show."""
        at = self.n.shadow_at
        if self._shadow is None or at is None or time < at:
            return None
        # It slides in over a second, then stays where it stopped.
        u = min((time - at) / 1.0, 1.0)
        w, h = self.n.size
        mask = self._shadow
        if u < 1:
            shift = (1 - u) * 0.4 * np.array([math.cos(self._shadow_dir),
                                              math.sin(self._shadow_dir)]) * (w, h)
            m = np.array([[1, 0, shift[0]], [0, 1, shift[1]]], np.float32)
            mask = np.asarray(cv2.warpAffine(mask, m, (w, h), borderMode=cv2.BORDER_CONSTANT))
        return 1 - np.float32(self.n.shadow_strength * u ** 0.5) * mask

    def _geometry(self, image: np.ndarray, time: float) -> tuple[np.ndarray, float]:
        """Wobble, jolts, roll and breathing, each row read at its own time; the image speed
        (pixels per frame) for the blur."""
        nz = self.n
        w, h = nz.size
        period = 1.0 / nz.fps
        readout = nz.readout * period
        rows = time + np.linspace(0, readout, h)
        offset = self._at(self.offset, rows)  # (h, 2)
        roll = float(self._at(self.roll, time))
        zoom = float(self._at(self.zoom, time))
        speed = self._at(self.offset, time + period * 0.5) - self._at(self.offset, time - period * 0.5)
        if not (np.abs(offset).max() > 0.01 or abs(roll) > 1e-6 or abs(zoom - 1) > 1e-6):
            return image, 0.0
        c, sn = math.cos(roll) / zoom, math.sin(roll) / zoom
        # output pixel p -> source centre + R(-roll) / zoom (p - centre - offset(row))
        xs = np.arange(w, dtype=np.float32) - np.float32(self.centre[0])
        ys = np.arange(h, dtype=np.float32) - np.float32(self.centre[1])
        ox, oy = offset[:, 0].astype(np.float32), offset[:, 1].astype(np.float32)
        if np.ptp(offset, axis=0).max() < 0.2:  # no visible skew: one affine warp
            m = np.array([[c, sn, self.centre[0] - c * (self.centre[0] + ox[0]) - sn * (self.centre[1] + oy[0])],
                          [-sn, c, self.centre[1] + sn * (self.centre[0] + ox[0]) - c * (self.centre[1] + oy[0])]],
                         np.float32)
            out = cv2.warpAffine(image, m, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                 borderMode=cv2.BORDER_REFLECT)
            return out, speed
        row_x = (-c * ox + sn * (ys - oy) + self.centre[0]).astype(np.float32)
        row_y = (sn * ox + c * (ys - oy) + self.centre[1]).astype(np.float32)
        map_x = np.add.outer(row_x, np.float32(c) * xs)
        map_y = np.add.outer(row_y, np.float32(-sn) * xs)
        out = cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        return out, speed

    def _blur(self, image: np.ndarray, speed: np.ndarray | float) -> np.ndarray:
        v = np.asarray(speed, float) * self.n.exposure_time
        length = float(np.hypot(*v)) if np.ndim(v) else 0.0
        if length < 0.7:
            return image
        size = int(math.ceil(length)) | 1
        kernel = np.zeros((size, size), np.float32)
        d = v / length
        for u in np.linspace(-length / 2, length / 2, 2 * size):
            kernel[int(round(size // 2 + u * d[1])), int(round(size // 2 + u * d[0]))] += 1
        return cv2.filter2D(image, -1, kernel / kernel.sum(), borderType=cv2.BORDER_REFLECT)

    def _light(self, image: np.ndarray, time: float) -> np.ndarray:
        nz = self.n
        w, h = nz.size
        gain = self.exposure(time)
        balance = self._at(self.balance, time)
        f = image.astype(np.float32)
        np.multiply(f, (gain * nz.dim * np.asarray(balance)).astype(np.float32), out=f)
        if nz.mains_hz > 0 and nz.flicker > 0:
            # Light pulses at twice the mains frequency; each row is exposed at its own time,
            # so the pulse shows as bands that roll unless the frame rate divides it. A row
            # exposed for a good part of a pulse averages it out (strong bands need a short
            # exposure, as in a bright hall).
            rows = time + np.linspace(0, nz.readout / nz.fps, h)
            cycles = 2 * nz.mains_hz * nz.exposure_time / nz.fps
            depth = nz.flicker * abs(np.sinc(cycles))
            band = 1 + depth * np.sin(2 * np.pi * 2 * nz.mains_hz * rows + self.flicker_phase)
            np.multiply(f, band.astype(np.float32)[:, None, None], out=f)
        shadow = self._shadow_factor(time)
        if shadow is not None:
            np.multiply(f, shadow[..., None], out=f)
        if self._busy is not None:
            self._busy.light(f, time)
        # High gain is noisy: the sensor's noise grows with the gain the exposure needs.
        sigma = nz.noise * max(gain, 0.5) ** 0.5 / nz.dim ** 0.5
        if sigma > 0.05:
            # Fresh every frame: a reused pattern, shifted, is something a registration locks on.
            cv2.randn(self._noise, np.zeros(3), np.ones(3))
            cv2.scaleAdd(self._noise, float(sigma), f, dst=f)
        return np.asarray(cv2.convertScaleAbs(np.maximum(f, 0.0, out=f)))

    def frame(self, clean: np.ndarray, time: float) -> np.ndarray:
        """What this camera delivers of the scene ``clean`` captured at ``time``."""
        image, speed = self._geometry(clean, time)
        image = self._blur(image, speed)
        if self._busy is not None:
            image = self._busy.lens(image, time)
        return self._light(image, time)
