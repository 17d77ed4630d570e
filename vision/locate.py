"""Find the 8x8 playing grid in a frame, without markers, from the grid's own structure.

Why X-corners: pieces stand on square centres and hide most of the squares' area, but the
points where four squares meet stay visible and are saddle points of the image intensity,
which nothing else on a table (piece rims, stripes, hands) produces in a regular lattice.
The steps, all on a working copy with the longer side ``work_size`` pixels:

1. saddle response (Hessian determinant, negative at saddles) with non-maximum
   suppression, filtered by a ring test (an X-corner shows two bright and two dark
   sectors on a small circle around it);
2. lattice growth from seeds: a point and its two nearest non-collinear neighbours give a
   first affine guess of the grid; the lattice is grown ring by ring, refitting a
   homography (lattice index -> pixel) each time, so perspective is absorbed gradually;
3. the 8x8 window inside the lattice: the 7x7 inner corners must be X-corners and the
   32 corners on the board's outline must not (a frame, tape or the table meets the
   squares there), which also picks the right window on a larger board masked to 8x8;
4. refinement at full resolution (``cv2.cornerSubPix`` on the visible inner corners) and a
   robust homography fit; the outer corners are its image of the board outline. Without a
   calibrated lens a radial term is fitted with it, from this frame's corners alone; with
   one (a board profile's) the corners go through the lens into the ideal image, where one
   homography holds, and its outline comes back out through the lens.

Confidence is the share of the 49 inner corners that were confirmed, discounted when
another window of the lattice scored nearly as well (the board could be off by a row).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from .geometry import (
    BOARD_CORNERS,
    BoardLocation,
    clockwise,
    corner_error,
    homography_from_corners,
    location_from_corners,
    project,
)
from .lens import Lens

#: Board coordinates of the 49 inner corners, (u, v) in 1..7, u fastest.
INNER_CORNERS = (
    np.stack(np.meshgrid(np.arange(1, 8), np.arange(1, 8)), axis=-1)
    .reshape(-1, 2)
    .astype(np.float32)
)


#: Where the four quadrants of a lattice node are sampled, in squares along each diagonal:
#: close enough to the corner that men on the square centres do not reach them.
QUADRANT_OFFSET = 0.15
#: Pixels at least between a corner and its quadrants' samples, where it is measured.
MIN_QUADRANT_PX = 1.0
#: Fewest points a homography is fitted to (fewer: an affine guess, or no fit at all).
HOMOGRAPHY_POINTS = 6
#: Lines of lattice nodes, or squares in a line, that make a line of evidence.
LINE_EVIDENCE = 3
#: Lines of squares of the board, each way.
BOARD_LINES = 8
#: Contrast gain of the colour-opponent planes about neutral grey (:func:`chroma`): CIELAB's
#: a* and b* of real square colours span about half of their 8-bit range.
CHROMA_GAIN = 2.0
#: Sides of a window past which its checkerboard goes on, that make it a cloth's.
CLOTH_SIDES = 2
#: Share of the zigzag of the lines of empty squares (neighbouring squares' colours, less
#: a shading's gradient) that a line of squares across the men's rows shows, where the
#: board's surroundings show little (:func:`_settled_by_rows`) ...
ROW_ZIGZAG = 0.15
#: ... and that the lines past the board stay under: a line between the two settles nothing.
ROW_STILL = 0.06
#: How far inside a board's outline, in squares, a corner is surely the board's own.
OUTLINE_MARGIN = 0.25


@dataclass(frozen=True)
class LocateConfig:
    """Tuning of the marker-free localiser; the defaults suit 640-1920 px wide frames.

    Distances given as a share of a ``step`` are in squares of the board as it is seen
    there (the shorter side of the square: seen from low down, squares are flat).
    """

    # 1. candidate X-corners
    work_size: int = 640  # longer side of the working image
    blur_sigma: float = 1.0  # pre-smoothing before the Hessian
    peak_window: int = 5  # non-maximum suppression of the saddle map, working pixels
    max_candidates: int = 400  # strongest saddle points kept
    min_strength: float = 0.01  # of the strongest candidate's saddle strength
    ring_radius: float = 3.0  # radius of the ring test, working pixels
    min_contrast: float = 12.0  # grey levels between the ring's bright and dark sectors
    # 2. growing a lattice
    max_seeds: int = 40  # seeds tried before giving up
    seed_max_cos: float = 0.6  # the seed's two neighbours are this far from collinear ...
    seed_step_ratio: float = 2.0  # ... and at most this many times further than the other
    match_step: float = 0.3  # a point this near a predicted node (of a step) is that node
    grow_pairing: float = 0.7  # paired-quadrant tolerance while growing (:func:`paired`)
    dense_share: float = 0.5  # nodes per lattice cell of a lattice that is not spread thin
    claim_quality: int = 8  # a clean lattice this large keeps its points from seeding again
    good_lattice: int = 30  # a lattice this large stops the seed search
    planes_tried: int = 2  # colour planes searched before the finer second look
    # 3. the 8x8 window
    window_pairing: float = 0.5  # paired-quadrant tolerance of a window's inner corners
    outline_weight: float = 1.5  # what a corner on the window's outline costs, per corner
    sure_lead: float = 10.0  # a window this far ahead of the runner-up is sure (confidence 1)
    min_square_contrast: float = 12.0  # grey levels between the two square colours
    alternating_step: float = 0.5  # of that contrast between neighbouring squares ...
    alternating_share: float = 0.7  # ... in this share of a line of squares
    unlike_ratio: float = 2.0  # the runner-up's outside lines this many times as unlike the
    # board's surroundings as the chosen window's, or the squares do not settle a close call
    # 4. refinement at full resolution
    coarse_window: float = 0.3  # the first sub-pixel window after a bump, of a step
    fine_window: float = 0.2  # the last sub-pixel window, of a step
    window_px: tuple[int, int] = (2, 12)  # bounds of the sub-pixel half-window, pixels
    max_snap: float = 0.3  # a corner that moved further (of a step) was pulled off
    refine_pairing: float = 0.35  # paired-quadrant tolerance of a refined corner
    refine_ring: float = 0.2  # ring test radius at full resolution, of a step ...
    min_ring_px: float = 2.0  # ... and at least this many pixels
    ransac_step: float = 0.04  # RANSAC tolerance of the final homography, of a step ...
    min_ransac_px: float = 1.0  # ... and at least this many pixels
    radial_corners: int = 20  # inner corners needed to fit a lens bend from one frame
    radial_range: tuple[float, float] = (-0.4, 0.2)  # the bends tried, r^2 coefficient
    # acceptance
    min_inner: int = 12  # inner corners needed to accept a board
    # The floor: share of the 49 inner corners in the fit, times the window's lead. Men of
    # the light squares' colour (red men beside red squares) hide corners in the colour too,
    # and a dim, low view keeps right boards at 0.2-0.25; wrong windows sat below 0.13 on the
    # hostile renders (bench/RESULTS.md, #42).
    min_confidence: float = 0.2
    hint_confidence: float = 0.5  # a refit near the last location this sure is kept
    good_confidence: float = 0.6  # a board this sure ends the search over colour planes
    plane_lead: float = 2.0  # a board this many times as sure as another plane's elsewhere stands
    # a last look beside a cloth (see :func:`_beside_a_cloth`)
    cloth_share: float = 0.5  # of the strongest corners on one colour axis: a texture's
    cloth_angle: float = 20.0  # degrees between colour axes that make them one
    cloth_colours: int = 2  # commonest colour axes left out, one after the other


@dataclass(frozen=True)
class _Features:
    """The working image and its saddle evidence, shared by every step of one search."""

    gray: np.ndarray  # blurred working image, float32
    points: np.ndarray  # (N, 2) candidate X-corners, working pixels, strongest first
    scale: float  # working pixels per frame pixel


def _gray(frame: np.ndarray) -> np.ndarray:
    return frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)


def channel(frame: np.ndarray, index: int) -> np.ndarray:
    """Image ``index`` of a frame: 0 grey, 1-3 its blue, green and red planes.

    Why not grey alone: a red and green board (or blue tape on brown wood) can have the
    same brightness in both colours, and only one colour plane shows its grid.
    """
    if frame.ndim == 2 or index == 0:
        return _gray(frame)
    return np.ascontiguousarray(frame[..., index - 1])


def _saddle(image: np.ndarray, sigma: float) -> tuple[np.ndarray, np.ndarray]:
    """Blurred float image and its saddle strength (Hessian determinant where negative)."""
    g = cv2.GaussianBlur(image.astype(np.float32), (0, 0), sigma)
    gxx = cv2.Sobel(g, cv2.CV_32F, 2, 0, ksize=3)
    gyy = cv2.Sobel(g, cv2.CV_32F, 0, 2, ksize=3)
    gxy = cv2.Sobel(g, cv2.CV_32F, 1, 1, ksize=3)
    return g, np.maximum(gxy * gxy - gxx * gyy, 0)


def sample(gray: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Nearest-pixel values at ``(..., 2)`` points; points off the image (or not finite) read 0."""
    pts = np.nan_to_num(np.asarray(points, np.float32), nan=-1.0, posinf=-1.0, neginf=-1.0)
    xs = np.clip(np.rint(pts[..., 0]), -1, gray.shape[1]).astype(np.intp)
    ys = np.clip(np.rint(pts[..., 1]), -1, gray.shape[0]).astype(np.intp)
    inside = (xs >= 0) & (xs < gray.shape[1]) & (ys >= 0) & (ys < gray.shape[0])
    values = gray[np.where(inside, ys, 0), np.where(inside, xs, 0)].astype(np.float32)
    return np.where(inside, values, 0.0)


def _ring_offsets(n: int = 16) -> np.ndarray:
    angles = np.arange(n) * (2 * np.pi / n)
    return np.stack([np.cos(angles), np.sin(angles)], axis=1)


def x_corner_evidence(
    gray: np.ndarray, points: np.ndarray, radius: float | np.ndarray, min_contrast: float
) -> np.ndarray:
    """1.0 where a point looks like an X-corner (4 sign changes on a ring), else 0.0.

    ``radius`` is one value or one per point. Vectorised nearest-pixel sampling: cheap
    enough to run on every predicted grid point.
    """
    if len(points) == 0:
        return np.zeros(0, np.float32)
    h, w = gray.shape
    radius = np.broadcast_to(np.asarray(radius, np.float32), (len(points),))
    values = sample(gray, points[:, None, :] + _ring_offsets()[None] * radius[:, None, None])
    lo, hi = values.min(axis=1, keepdims=True), values.max(axis=1, keepdims=True)
    signs = values > (lo + hi) / 2
    changes = np.count_nonzero(signs != np.roll(signs, 1, axis=1), axis=1)
    inside = (
        (points[:, 0] >= radius)
        & (points[:, 0] < w - radius)
        & (points[:, 1] >= radius)
        & (points[:, 1] < h - radius)
    )
    ok: np.ndarray = (changes == 4) & ((hi - lo)[:, 0] >= min_contrast) & inside
    return ok.astype(np.float32)


def chroma(frame: np.ndarray) -> list[np.ndarray]:
    """The two colour-opponent planes of a BGR frame (CIELAB a*: green to red, b*: blue to
    yellow), their contrast doubled about neutral grey.

    Why: on a red and green board the grid lives in colour, and each plane of B, G, R shows
    it only between the men: dark men merge with the squares dark in that plane, light men
    with the bright ones, and on a small, noisy board too few corners are left to grow a
    lattice. Men are mostly neutral (black, white, grey) and sit mid-way in a colour-opponent
    plane, where each square colour is at one end, so the board's corners stay X-corners
    beside them.
    """
    lab = cv2.cvtColor(frame, cv2.COLOR_BGR2LAB)
    return [np.asarray(cv2.convertScaleAbs(lab[..., c], alpha=CHROMA_GAIN, beta=128 * (1 - CHROMA_GAIN)))
            for c in (1, 2)]


def _channel_maps(
    frame: np.ndarray, work_size: int, cfg: LocateConfig, colour: bool = False
) -> list[tuple[float, np.ndarray, np.ndarray, float]]:
    """(score, blurred image, saddle map, scale) for grey, blue, green, red, best first;
    with ``colour``, for the two colour-opponent planes (:func:`chroma`) instead."""
    small, scale = _working(frame, work_size)
    if colour:
        images = chroma(small) if small.ndim == 3 else []
    else:
        images = [channel(small, index) for index in range(1 if small.ndim == 2 else 4)]
    maps = []
    for image in images:
        g, saddle = _saddle(image, cfg.blur_sigma)
        # Strength-weighted mean strength: dominated by the strongest saddles, and cheap.
        score = float(cv2.sumElems(saddle * saddle)[0] / max(cv2.sumElems(saddle)[0], 1e-9))
        maps.append((score, g, saddle, scale))
    return sorted(maps, key=lambda m: -m[0])


def _working(frame: np.ndarray, work_size: int) -> tuple[np.ndarray, float]:
    """The frame shrunk to ``work_size`` pixels on its longer side (never enlarged), and the scale."""
    scale = min(1.0, work_size / max(frame.shape[:2]))
    if scale < 1.0:
        return cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA), scale
    return frame, scale


def _features(
    g: np.ndarray, saddle: np.ndarray, scale: float, cfg: LocateConfig, ring_first: bool = False
) -> _Features:
    """Candidate X-corners: saddle peaks that pass the ring test, strongest first.

    ``ring_first``: the ring test looks at every peak before the strongest are kept, not
    at the strongest alone: a patterned cloth (gingham, stripes) can have thousands of
    saddles stronger than a dim board's corners, few of them X-corners. Only the last look
    does (see :func:`_plane_groups`): more candidates cost more lattices to grow.
    """
    points, strength = _peaks(saddle, cfg)
    if ring_first:
        ring = x_corner_evidence(g, points, cfg.ring_radius, cfg.min_contrast) > 0
        points, strength = points[ring], strength[ring]
    return _strongest(g, points, strength, scale, cfg)


def _peaks(saddle: np.ndarray, cfg: LocateConfig) -> tuple[np.ndarray, np.ndarray]:
    """Every local maximum of the saddle map: (N, 2) working pixels and their strengths."""
    window = np.ones((cfg.peak_window, cfg.peak_window), np.uint8)
    peaks = (saddle == cv2.dilate(saddle, window)) & (saddle > 0)
    ys, xs = np.nonzero(peaks)
    return np.stack([xs, ys], axis=1).astype(np.float32), saddle[ys, xs]


def _strongest(
    g: np.ndarray, points: np.ndarray, strength: np.ndarray, scale: float, cfg: LocateConfig
) -> _Features:
    """The strongest ``max_candidates`` of the peaks that pass the ring test, strongest first."""
    if len(strength) > cfg.max_candidates:
        keep = np.argpartition(-strength, cfg.max_candidates)[: cfg.max_candidates]
        points, strength = points[keep], strength[keep]
    ok = x_corner_evidence(g, points, cfg.ring_radius, cfg.min_contrast) > 0
    top = strength[ok].max() if ok.any() else 0.0
    ok &= strength > cfg.min_strength * top
    order = np.argsort(-strength[ok])
    return _Features(g, points[ok][order], scale)


def _fit(lattice: np.ndarray, pixels: np.ndarray) -> np.ndarray | None:
    """Least-squares lattice -> pixel homography (affine while too few points)."""
    if len(lattice) >= HOMOGRAPHY_POINTS:
        h, _ = cv2.findHomography(lattice.astype(np.float32), pixels.astype(np.float32), 0)
        return h
    a, _ = cv2.estimateAffine2D(
        lattice.astype(np.float32), pixels.astype(np.float32), method=cv2.LMEDS
    )
    return None if a is None else np.vstack([a, [0, 0, 1]])


def quadrants(
    gray: np.ndarray, h: np.ndarray, nodes: np.ndarray, offset: float = QUADRANT_OFFSET
) -> tuple[np.ndarray, np.ndarray]:
    """Signed X-corner contrast at lattice nodes, and how unlike each other the paired quadrants are.

    The contrast, (+,+) and (-,-) quadrants minus the other two, alternates in sign from
    one corner of a checkerboard to the next, which tells a true grid from a lattice of
    every other corner or of half-square steps. The spread ``|a - b| + |c - d|`` is small
    at a true corner (both bright quadrants are the same square colour) and at least
    the contrast itself where two quadrants are frame, tape, table or a piece's rim
    (triangle inequality). The quadrants are sampled close to the corner so that discs on
    the square centres do not reach them.
    """
    v = sample(gray, project(h, _around(nodes, offset).reshape(-1, 2))).reshape(-1, 4)
    return _contrast_and_spread(v)


def _around(nodes: np.ndarray, offset: float = QUADRANT_OFFSET) -> np.ndarray:
    """(N, 4, 2) board points of the quadrants of each node: (+,+), (-,-), (+,-), (-,+)."""
    d = np.array(
        [[offset, offset], [-offset, -offset], [offset, -offset], [-offset, offset]], np.float32
    )
    return nodes[:, None, :] + d[None]


def _contrast_and_spread(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """From (N, 4) quadrant values (see :func:`_around`): the signed X-corner contrast and
    how unlike each other the paired quadrants are."""
    return v[:, 0] + v[:, 1] - v[:, 2] - v[:, 3], np.abs(v[:, 0] - v[:, 1]) + np.abs(
        v[:, 2] - v[:, 3]
    )


def paired(signed: np.ndarray, spread: np.ndarray, tolerance: float) -> np.ndarray:
    """Where the paired quadrants match: their spread is under ``tolerance`` times the
    contrast. The tolerance is looser while a lattice grows (a guess to confirm) than for a
    window's corners or a refined corner (what the board's outline must never pass)."""
    matched: np.ndarray = spread < tolerance * np.abs(signed)
    return matched


def _grow(
    feat: _Features, lattice: np.ndarray, members: np.ndarray, cfg: LocateConfig, max_span: int = 12
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Grow a lattice ring by ring from a start; return (lattice indices, point indices, homography).

    A node is taken when a detected point lies near its prediction and the polarity there
    alternates with the node's parity like the rest of the lattice.
    """
    points = feat.points
    h = _fit(lattice, points[members])
    for it in range(2 * max_span):
        if h is None:
            return None
        # One ring at a time while the fit rests on a few points, then two.
        reach = 1 if it < 2 else 2
        lo, hi = lattice.min(axis=0) - reach, lattice.max(axis=0) + reach
        hi = np.minimum(hi, lo + max_span)
        ii, jj = np.meshgrid(np.arange(lo[0], hi[0] + 1), np.arange(lo[1], hi[1] + 1))
        grid = np.stack([ii.ravel(), jj.ravel()], axis=1).astype(np.float32)
        pred = project(h, grid)
        with np.errstate(invalid="ignore"):  # a degenerate fit: non-finite steps match nothing
            step = np.minimum(
                np.linalg.norm(project(h, grid + [1, 0]) - pred, axis=1),
                np.linalg.norm(project(h, grid + [0, 1]) - pred, axis=1),
            )
        dist = np.sqrt(
            (pred[:, None, 0] - points[None, :, 0]) ** 2
            + (pred[:, None, 1] - points[None, :, 1]) ** 2
        )
        nearest = dist.argmin(axis=1)
        near = dist[np.arange(len(grid)), nearest]
        ok = near < cfg.match_step * step
        signed, spread = quadrants(feat.gray, h, grid)
        signed *= np.where((grid.sum(axis=1) % 2) == 0, 1.0, -1.0)
        ok &= (np.abs(signed) >= cfg.min_contrast) & paired(signed, spread, cfg.grow_pairing)
        if not ok.any():
            return None
        ok &= np.sign(signed) == np.sign(signed[ok].sum())
        # One detected point answers for one grid node only: the closest claimant keeps it.
        claim = np.full(len(points), np.inf)
        np.minimum.at(claim, nearest[ok], near[ok])
        ok &= near <= claim[nearest]
        new_lattice, new_members = grid[ok], nearest[ok]
        if len(new_members) < LINE_EVIDENCE:
            return None
        if len(new_members) == len(members) and np.array_equal(
            np.sort(new_members), np.sort(members)
        ):
            break
        lattice, members = new_lattice, new_members
        h = _fit(lattice, points[members])
    return None if h is None else (lattice, members, h)


def _grow_seed(
    feat: _Features, seed: int, first: int, second: int, cfg: LocateConfig
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Grow from a seed square, then try the lattices twice as dense, or the sheared ones.

    When some of the seed's neighbours are hidden its nearest ones may be two squares
    away or diagonal. Two squares away, the grown lattice holds only every other corner;
    each index-2 re-indexing is grown again. Diagonal, the lattice is sheared (see
    :func:`_one_half`); each unshearing is grown again. The one explaining most points is
    kept.
    """
    best = _grow(
        feat, np.array([[0, 0], [1, 0], [0, 1]], np.float32), np.array([seed, first, second]), cfg
    )
    if best is None or len(best[1]) < HOMOGRAPHY_POINTS:
        return best
    lattice, members, _ = best
    half = _one_half(lattice)
    if half is None and _quality(lattice, cfg) >= cfg.good_lattice:
        return best
    for indexed in _denser(lattice) if half is None else _unsheared(lattice)[1:] + _unsheared(half):
        grown = _grow(feat, indexed, members, cfg)
        if grown is not None and _quality(grown[0], cfg) > _quality(best[0], cfg):
            best = grown
    return best


def _denser(lattice: np.ndarray) -> tuple[np.ndarray, ...]:
    """The three lattices of which ``lattice`` holds every other node (index 2)."""
    i, j = lattice[:, 0], lattice[:, 1]
    return np.stack([i + j, i - j], axis=1), np.stack([2 * i, j], axis=1), np.stack([i, 2 * j], axis=1)


def _one_half(lattice: np.ndarray) -> np.ndarray | None:
    """The lattice re-indexed on its own nodes, where they all lie on one half of it (every
    other column, every other row, or one colour of its own checkerboard); else None.

    Why: grown along a square's side and its diagonal, a lattice is sheared, and at half
    of its nodes its quadrants (sampled along its own axes) fall on two squares of one
    colour and two edges: they pass for an X-corner of the wrong polarity, so those nodes
    drop out and the rest grow on, all on one half (a board's corners fill every node of
    a lattice indexed along its sides). Such a lattice is the board's up to a shear; or,
    where a denser re-indexing grew it with steps of half a diagonal, the half it fills is
    (:func:`_grow_seed` unshears both).
    """
    i, j = lattice[:, 0].astype(int), lattice[:, 1].astype(int)
    if np.all(j % 2 == j[0] % 2):
        return np.stack([i, (j - j[0] % 2) // 2], axis=1).astype(np.float32)
    if np.all(i % 2 == i[0] % 2):
        return np.stack([(i - i[0] % 2) // 2, j], axis=1).astype(np.float32)
    odd = (i[0] + j[0]) % 2
    if np.all((i + j) % 2 == odd):
        return np.stack([(i + j - odd) // 2, (i - j - odd) // 2], axis=1).astype(np.float32)
    return None


def _unsheared(lattice: np.ndarray) -> tuple[np.ndarray, ...]:
    """The lattice and its four shears by one node, one of which runs along the squares' sides."""
    i, j = lattice[:, 0], lattice[:, 1]
    return (lattice, np.stack([i + j, j], axis=1), np.stack([i - j, j], axis=1),
            np.stack([i, j + i], axis=1), np.stack([i, j - i], axis=1))


def _seed_neighbours(points: np.ndarray, seed: int, cfg: LocateConfig) -> tuple[int, int] | None:
    """The two nearest neighbours of a seed along different grid directions."""
    d = points - points[seed]
    dist = np.linalg.norm(d, axis=1)
    dist[seed] = np.inf
    order = np.argsort(dist)[:6]
    first = order[0]
    if not np.isfinite(dist[first]):
        return None
    for other in order[1:]:
        cos = abs(np.dot(d[first], d[other])) / (dist[first] * dist[other])
        ratio = dist[other] / dist[first]
        if cos < cfg.seed_max_cos and 1 / cfg.seed_step_ratio < ratio < cfg.seed_step_ratio:
            return int(first), int(other)
    return None


def _quality(lattice: np.ndarray, cfg: LocateConfig) -> float:
    """Points explained, discounted when they are spread thin over a large span.

    A wrong lattice (steps of a square and a half, say) can pick up many stray points
    over a span far larger than a board; a true one is dense.
    """
    span = lattice.max(axis=0) - lattice.min(axis=0) + 1
    density = len(lattice) / float(span[0] * span[1])
    return len(lattice) * min(1.0, density / cfg.dense_share)


def _best_lattice(
    feat: _Features, cfg: LocateConfig
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    best, best_quality = None, 0.0
    used = np.zeros(len(feat.points), bool)
    for seed in range(min(cfg.max_seeds, len(feat.points))):
        if used[seed]:
            continue
        pair = _seed_neighbours(feat.points, seed, cfg)
        if pair is None:
            continue
        grown = _grow_seed(feat, seed, *pair, cfg)
        if grown is None:
            continue
        quality = _quality(grown[0], cfg)
        if quality >= cfg.claim_quality and quality == len(grown[0]):
            used[grown[1]] = True
        if quality > best_quality:
            best, best_quality = grown, quality
        if best_quality >= cfg.good_lattice:
            break
    return best


def _evidence_grid(
    feat: _Features, h: np.ndarray, lo: np.ndarray, hi: np.ndarray, cfg: LocateConfig
) -> np.ndarray:
    """Checkerboard-corner evidence at every lattice node in [lo, hi] (indexed [j, i]).

    Besides the ring test, the paired quadrants must match (see :func:`quadrants`), so the
    board's outline, where two quadrants are frame, tape or table, never passes for an
    inner corner.
    """
    ii, jj = np.meshgrid(np.arange(lo[0], hi[0] + 1), np.arange(lo[1], hi[1] + 1))
    nodes = np.stack([ii.ravel(), jj.ravel()], axis=1).astype(np.float32)
    ring = x_corner_evidence(feat.gray, project(h, nodes), cfg.ring_radius, cfg.min_contrast)
    signed, spread = quadrants(feat.gray, h, nodes)
    evidence: np.ndarray = ring * paired(signed, spread, cfg.window_pairing)
    return evidence.reshape(ii.shape)


def _grid_run(ev: np.ndarray, axis: int) -> tuple[int, int]:
    """Longest run of lattice lines (along ``axis`` of ``ev``) that hold corner evidence."""
    lines = ev.sum(axis=1 - axis) >= LINE_EVIDENCE
    best, start = (0, 0), None
    for k, on in enumerate(np.append(lines, False)):
        if on and start is None:
            start = k
        elif not on and start is not None:
            best = max(best, (k - start, start))
            start = None
    return best[1], best[0]


def _cell_lines(
    feat: _Features, h: np.ndarray, runs: list[tuple[int, int]], lo: np.ndarray, cfg: LocateConfig
) -> list[tuple[int, int] | None]:
    """Along each lattice axis, the first line of squares that shows the checkerboard and the
    span to the last one; None where no line does.

    Why: on a board with an outer ring of squares the men of the first and last rows can
    hide two whole lines of corners at one end (seen from low down they lean over them),
    and the corners alone then cannot tell the ring from the playing area. The ring's own
    squares carry no men and still alternate. A line of squares (between two lattice
    lines) shows the checkerboard when most of its neighbouring squares differ by half the
    board's contrast, each the way its colour says; a frame, tape or a shaded table does
    not, and a row with men need not (the span runs from the first line that does to the
    last). ``runs``: for each axis (i, j) the start (an ``ev`` index, from ``lo``) and
    length of the lines of corner evidence; the squares on both sides of them are counted.
    """
    (si, ni), (sj, nj) = runs
    if ni < LINE_EVIDENCE or nj < LINE_EVIDENCE:
        return [None, None]
    # Square (a, b) spans lattice [a, a+1] x [b, b+1]; squares up to four lines beyond the
    # corner lines each way are looked at, those beside the corner lines are counted.
    ca, na = lo[0] + si - 1, ni + 1
    cb, nb = lo[1] + sj - 1, nj + 1
    a0, b0 = ca - 3, cb - 3
    aa, bb = np.meshgrid(np.arange(a0, ca + na + 3), np.arange(b0, cb + nb + 3))  # [b, a]
    value = _square_values(feat.gray, h, aa, bb)
    even = ((aa + bb) % 2) == 0
    along_a = (aa >= ca) & (aa < ca + na)
    along_b = (bb >= cb) & (bb < cb + nb)
    board = along_a & along_b  # squares beside confirmed corners: the board's two levels
    level_even = float(np.median(value[board & even]))
    level_odd = float(np.median(value[board & ~even]))
    contrast = abs(level_even - level_odd)
    if contrast < cfg.min_square_contrast:
        return [None, None]
    # Signed so that a square brighter than its neighbour where its colour should be is > 0.
    signed = value * np.where(even, 1.0, -1.0) * np.sign(level_even - level_odd)
    return [
        _line_span(signed.T, along_b.T, a0, contrast, cfg),
        _line_span(signed, along_a, b0, contrast, cfg),
    ]


#: Where a square's value is read, in board units from its corner: the centre and four
#: points around it (their median is the square's, whatever stands on part of it).
_SQUARE_SAMPLES = np.array([[0.5, 0.5], [0.3, 0.5], [0.7, 0.5], [0.5, 0.3], [0.5, 0.7]], np.float32)


def _square_values(gray: np.ndarray, h: np.ndarray, aa: np.ndarray, bb: np.ndarray) -> np.ndarray:
    """The grey level of each square (aa, bb) of the lattice (spanning [a, a+1] x [b, b+1])."""
    d = _SQUARE_SAMPLES
    squares = np.stack([aa.ravel(), bb.ravel()], axis=1).astype(np.float32)
    values = sample(gray, project(h, (squares[:, None, :] + d[None]).reshape(-1, 2)))
    value: np.ndarray = np.median(values.reshape(-1, len(d)), axis=1).reshape(aa.shape)
    return value


def continues_past(gray: np.ndarray, h: np.ndarray, cfg: LocateConfig) -> bool:
    """Whether the window's checkerboard goes on, in its own phase, two lines past two of
    its four sides: a patch of a checked cloth, not a board. ``h``: board coordinates (the
    window's outline from 0 to 8) to the pixels of ``gray``.

    Why: a gingham seen low blurs past a patch, its corners fade out of the lattice there
    and the patch's outline looks like a board's; where the cloth is larger than the
    lattice, the window settles in its corner, by the cloth's own edge or fold. A board
    ends within two lines of its outline on every side: at its frame, tape or the table; a
    ring of squares outside the playing area is one line wide; a larger board (10x10)
    masked to 8x8 has tape over the line beyond its outline. Asked at the working
    resolution and again at the frame's: a cloth's far checks, a few pixels wide, blur to
    one grey on the working image, where no squares show and nothing can be told.
    """
    lines = np.arange(-2, BOARD_LINES + 2)
    aa, bb = np.meshgrid(lines, lines)  # [b, a]
    value = _square_values(gray, h, aa, bb)
    even = ((aa + bb) % 2) == 0
    board = np.zeros(aa.shape, bool)
    board[2:-2, 2:-2] = True
    level_even = float(np.median(value[board & even]))
    level_odd = float(np.median(value[board & ~even]))
    contrast = abs(level_even - level_odd)
    if contrast < cfg.min_square_contrast:
        return False
    signed = value * np.where(even, 1.0, -1.0) * np.sign(level_even - level_odd)
    across = np.zeros(len(lines), bool)
    across[2:-2] = True

    def goes_on(rows: np.ndarray) -> bool:
        counted = np.broadcast_to(across, rows.shape)
        return _line_span(rows, counted, 0, contrast, cfg) == (0, len(rows))

    sides = (signed[:2], signed[-2:], signed.T[:2], signed.T[-2:])
    return sum(goes_on(rows) for rows in sides) >= CLOTH_SIDES


def _line_span(
    signed: np.ndarray, counted: np.ndarray, first: int, contrast: float, cfg: LocateConfig
) -> tuple[int, int] | None:
    """First index and span of the lines (rows of ``signed``) whose counted squares alternate."""
    # Neighbouring squares along a line: one is +value, the other -value, so their sum is
    # the difference between the brighter-expected and the darker-expected one.
    steps = signed[:, 1:] + signed[:, :-1]
    pairs = counted[:, 1:] & counted[:, :-1]
    alternate = ((steps >= cfg.alternating_step * contrast) & pairs).sum(axis=1)
    shows = (pairs.sum(axis=1) >= LINE_EVIDENCE) & (alternate >= cfg.alternating_share * pairs.sum(axis=1))
    on = np.flatnonzero(shows)
    if len(on) == 0:
        return None
    return first + int(on[0]), int(on[-1] - on[0] + 1)


def _choose_window(
    feat: _Features, lattice: np.ndarray, h: np.ndarray, cfg: LocateConfig, frame: np.ndarray
) -> tuple[np.ndarray, float]:
    """Lattice index of inner corner (1, 1) of the best 8x8 window, and its lead over the
    runner-up (a small lead means the window may be off by a row).

    A grid of 9 x 9 inner corners is a 10x10 board (or an 8x8 one with a ring of squares
    outside the playing area): its central 8x8 is taken, as on a board masked with tape.
    Where men hide the ring's corners one way (the far men of the start, seen from low
    down), the ring's squares settle that way (see :func:`_cell_lines`). Otherwise the
    window is where the 7x7 inner corners are and the board's outline is not; where that
    is a close call (men hide whole lines of corners), the squares and what surrounds them
    may settle it (see :func:`_settled_by_surroundings`).
    """
    lmin, lmax = lattice.min(axis=0).astype(int), lattice.max(axis=0).astype(int)
    lo, hi = lmin - 4, lmax + 4
    ev = _evidence_grid(feat, h, lo, hi, cfg)
    # Summed-area table: the evidence of any rectangle of nodes in O(1).
    sat = np.pad(ev.cumsum(0).cumsum(1), ((1, 0), (1, 0)))

    def box(i0: np.ndarray, j0: np.ndarray, n: int) -> np.ndarray:
        total: np.ndarray = sat[j0 + n, i0 + n] - sat[j0, i0 + n] - sat[j0 + n, i0] + sat[j0, i0]
        return total

    grid_i, grid_j = np.meshgrid(np.arange(lmin[0] - 3, lmax[0] - 2), np.arange(lmin[1] - 3, lmax[1] - 2))
    oi, oj = grid_i.ravel(), grid_j.ravel()
    i0, j0 = oi - lo[0], oj - lo[1]
    inner = box(i0, j0, 7)
    outline = box(i0 - 1, j0 - 1, 9) - inner
    score = inner - cfg.outline_weight * outline
    runs = [_grid_run(ev, axis) for axis in (1, 0)]  # along i (columns of ev), along j
    ring = [length == 9 for _, length in runs]
    centre = [lo[axis] + start + 1 for axis, (start, _) in enumerate(runs)]
    if sum(ring) == 1:
        # Nine lines of corners one way: the ring's squares are not taped over (tape would
        # break their corners), so the other way has a ring too, whose corners men may hide;
        # its squares show where it is.
        other = 1 - ring.index(True)
        span = _cell_lines(feat, h, runs, lo, cfg)[other]
        if span is not None and span[1] == 10:
            ring[other], centre[other] = True, span[0] + 2  # the ring's squares, then row 0's
    if all(ring):
        centred = (oi == centre[0]) & (oj == centre[1])
        if centred.any():
            return np.array(centre, np.float32), cfg.sure_lead
    order = np.argsort(-score)
    k = int(order[0])
    margin = float(score[k] - score[order[1]]) if len(order) > 1 else float(score[k])
    if margin < cfg.sure_lead:
        # A close call: the squares may settle it among the windows the corners cannot tell
        # apart, never against a window the corners rule out (a taped ring's squares beyond
        # the tape alternate too).
        spans = _cell_lines(feat, h, runs, lo, cfg)
        settled = _settled_by_surroundings(frame, feat, h, spans, cfg)
        if settled is None:
            settled = _settled_by_rows(frame, feat, h, spans, cfg)
        close = score > score[k] - cfg.sure_lead
        if settled is not None and np.any(close & (oi == settled[0]) & (oj == settled[1])):
            return settled, cfg.sure_lead
    return np.array([oi[k], oj[k]], np.float32), margin


def _settled_by_surroundings(
    frame: np.ndarray, feat: _Features, h: np.ndarray, spans: list[tuple[int, int] | None],
    cfg: LocateConfig,
) -> np.ndarray | None:
    """Lattice index of inner corner (1, 1) where the squares settle the window, else None.

    Why: seen from low down at the start, the men of the home rows hide whole lines of
    corners at both ends, and several windows hold the same corners. Eight lines of
    squares showing the checkerboard one way (see :func:`_cell_lines`) place the board that
    way; the other way, where the men's rows do not alternate, the window is the one whose
    two outside lines look most like the lines outside the placed way: a board's
    surroundings (its frame, the table) are alike on its four sides, a row of men is not
    (compared in colour, at full resolution: a frame and dark men can be one grey).
    """
    span_i, span_j = spans
    if span_i is None or span_j is None:
        return None
    placed = [length == BOARD_LINES for _, length in (span_i, span_j)]
    if all(placed):
        return np.array([span_i[0] + 1, span_j[0] + 1], np.float32)
    if not any(placed):
        return None
    p = placed.index(True)
    (start_p, _), (start_q, length_q) = (span_i, span_j) if p == 0 else (span_j, span_i)
    if length_q > BOARD_LINES:
        return None
    to_frame = np.diag([1 / feat.scale, 1 / feat.scale, 1.0]) @ h

    def line(axis: int, index: int, across: np.ndarray) -> np.ndarray:
        """The median colour of the squares of line ``index`` along ``axis``, over ``across``."""
        squares = np.zeros((len(across), 2), np.float32)
        squares[:, axis], squares[:, 1 - axis] = index, across
        at = project(to_frame, (squares[:, None, :] + _SQUARE_SAMPLES[None]).reshape(-1, 2))
        planes = [sample(channel(frame, c), at) for c in ((0,) if frame.ndim == 2 else (1, 2, 3))]
        colours = np.stack(planes, axis=1).reshape(len(across), len(_SQUARE_SAMPLES), -1)
        median: np.ndarray = np.median(np.median(colours, axis=1), axis=0)
        return median

    along_q = np.arange(start_q, start_q + length_q)
    outside = (line(p, start_p - 1, along_q) + line(p, start_p + BOARD_LINES, along_q)) / 2
    along_p = np.arange(start_p, start_p + BOARD_LINES)
    starts = range(int(start_q) + int(length_q) - BOARD_LINES, int(start_q) + 1)
    unlike = np.array([np.abs(line(1 - p, c - 1, along_p) - outside).sum()
                       + np.abs(line(1 - p, c + BOARD_LINES, along_p) - outside).sum() for c in starts])
    order = np.argsort(unlike)
    if len(order) > 1 and unlike[order[1]] < cfg.unlike_ratio * unlike[order[0]] + cfg.min_square_contrast:
        return None
    origin = np.zeros(2, np.float32)
    origin[p], origin[1 - p] = start_p + 1, starts[order[0]] + 1
    return origin


def _settled_by_rows(
    frame: np.ndarray, feat: _Features, h: np.ndarray, spans: list[tuple[int, int] | None],
    cfg: LocateConfig,
) -> np.ndarray | None:
    """Lattice index of inner corner (1, 1) where the lines of squares across the men's rows
    settle the window, else None.

    Why: at the start the men hide the corners of their rows, and where the board's
    surroundings differ from side to side (a lamp lights one side of the frame, a phone
    lies on another) :func:`_settled_by_surroundings` cannot tell the windows apart: kingplay
    70088's board, in view from the first frame, was found only once a ply had been made,
    and its set-up was never seen. A row of men still alternates, man and empty square,
    while the frame or the table past the board's last row is one colour, at most shaded
    across. So each line of squares across the unplaced way is weighed by how much its
    neighbouring squares zigzag in colour (a shading's gradient does not), against the
    lines the checkerboard already placed; the window is the one run of eight such lines,
    with a line clearly still on either side of it. Where men are the colour of the empty
    squares beside them (white men beside white squares), their rows do not zigzag and no
    run of eight shows. A line that straddles the board's edge and the table, seen from
    low down, zigzags a little, so a run must end at lines clearly still (kingplay 70005:
    dark men on light squares made the board's last row one colour, and a run ending at
    the straddling line was a window a row off). A window a row off is never guessed.
    """
    span_i, span_j = spans
    if span_i is None or span_j is None:
        return None
    placed = [length == BOARD_LINES for _, length in (span_i, span_j)]
    if placed.count(True) != 1:
        return None
    p = placed.index(True)
    (start_p, _), (start_q, length_q) = (span_i, span_j) if p == 0 else (span_j, span_i)
    if length_q >= BOARD_LINES:
        return None
    to_frame = np.diag([1 / feat.scale, 1 / feat.scale, 1.0]) @ h
    first = int(start_q) + int(length_q) - BOARD_LINES - 1  # the line before the first window
    lines = np.arange(first, int(start_q) + BOARD_LINES + 1)
    squares = np.zeros((len(lines), BOARD_LINES, 2), np.float32)
    squares[..., 1 - p] = lines[:, None]
    squares[..., p] = np.arange(start_p, start_p + BOARD_LINES)[None, :]
    at = project(to_frame, (squares.reshape(-1, 1, 2) + _SQUARE_SAMPLES[None]).reshape(-1, 2))
    planes = [sample(channel(frame, c), at) for c in ((0,) if frame.ndim == 2 else (1, 2, 3))]
    colours = np.median(np.stack(planes, axis=1).reshape(len(lines), BOARD_LINES, len(_SQUARE_SAMPLES), -1),
                        axis=2)
    zigzag = np.abs(colours[:, :-2] - 2 * colours[:, 1:-1] + colours[:, 2:]).sum(axis=2).mean(axis=1) / 2
    known = (lines >= start_q) & (lines < start_q + length_q)
    share = zigzag / max(float(np.median(zigzag[known])), 1e-9)
    shows, still = share >= ROW_ZIGZAG, share < ROW_STILL
    windows = [c for c in range(len(lines) - BOARD_LINES - 1)
               if shows[c + 1:c + 1 + BOARD_LINES].all() and still[c] and still[c + 1 + BOARD_LINES]]
    if len(windows) != 1:
        return None
    origin = np.zeros(2, np.float32)
    # The window's first line is the one past the still line; its inner corner (1, 1) ends it.
    origin[p], origin[1 - p] = start_p + 1, lines[windows[0]] + 2
    return origin


#: Luminance weights of B, G, R.
_LUMA = np.array([0.114, 0.587, 0.299])
#: The share of a colour difference that may be brightness while it is still "all colour".
_COLOUR_ONLY_LUMA = 0.15


def colour_only(axis: np.ndarray) -> bool:
    """Whether the difference ``axis`` (B, G, R) between the two square colours is almost
    all colour and hardly brightness (red and green squares)."""
    return abs(float(axis @ _LUMA)) < _COLOUR_ONLY_LUMA * float(np.abs(axis).sum())


def board_plane(frame: np.ndarray, h_board: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """The board's region as one float plane along the colour axis from dark to light squares.

    Why: the sub-pixel step needs the strongest square contrast. Grey loses it on red and
    green boards, and a single colour plane of a JPEG frame is blocky (chroma is stored at
    half resolution); the projection on the axis between the two square colours uses all
    three planes. Returns the plane, its top-left offset in the frame, and its scale
    (frame pixels per plane pixel: 2 when the contrast is all colour, see below).
    """
    h, w = frame.shape[:2]
    outline = project(h_board, np.array([[-1, -1], [9, -1], [9, 9], [-1, 9]], np.float32))
    outline = np.nan_to_num(outline, nan=0.0, posinf=0.0, neginf=0.0)
    x0, y0 = np.clip(np.floor(outline.min(axis=0)).astype(int), 0, [w - 1, h - 1])
    x1, y1 = np.clip(np.ceil(outline.max(axis=0)).astype(int) + 1, 1, [w, h])
    crop = frame[y0:y1, x0:x1]
    offset = np.array([x0, y0], np.float32)
    if crop.ndim == 2:
        return crop.astype(np.float32), offset, 1.0
    pts = project(h_board, _around(INNER_CORNERS).reshape(-1, 2)) - offset
    q = np.stack([sample(crop[..., c], pts) for c in range(3)], axis=1).reshape(49, 4, 3)
    sign = np.where(INNER_CORNERS.sum(axis=1) % 2 == 0, 1.0, -1.0)[:, None]
    axis = ((q[:, 0] + q[:, 1] - q[:, 2] - q[:, 3]) * sign).sum(axis=0)
    norm = np.abs(axis).sum()
    if norm == 0:
        return cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32), offset, 1.0
    plane = cv2.transform(crop.astype(np.float32), (axis / norm).reshape(1, 3).astype(np.float32))
    plane -= plane.min()
    if colour_only(axis) and _square_side(h_board) * QUADRANT_OFFSET / 2 >= MIN_QUADRANT_PX:
        # The squares differ in colour, hardly in brightness (red and green): that contrast
        # lives in JPEG's chroma, stored at half resolution; measure it there. Not on squares
        # so small that the quadrants, sampled there, would fall on the corner's own pixel:
        # then every one of them is noise (a far board at 480x270).
        return cv2.resize(plane, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA), offset, 2.0
    return plane, offset, 1.0


def _square_side(h_board: np.ndarray) -> float:
    """The shorter side of the middle square of the board in pixels (seen from low down,
    squares are flat)."""
    middle = project(h_board, np.array([[4, 4], [5, 4], [4, 5]], np.float32))
    return float(min(np.linalg.norm(middle[1] - middle[0]), np.linalg.norm(middle[2] - middle[0])))


#: When ``cv2.cornerSubPix`` stops: after 20 steps, or a step under 0.03 pixels.
_SUBPIX_STOP = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_MAX_ITER, 20, 0.03)


def _refine(
    frame: np.ndarray,
    h_board: np.ndarray,
    tried: np.ndarray,
    cfg: LocateConfig,
    coarse: bool = False,
    lens: Lens | None = None,
) -> tuple[np.ndarray, int] | None:
    """Sub-pixel inner corners at full resolution and a robust board -> image homography.

    ``coarse`` adds a first pass with a wide window, for a guess that may be a quarter of a
    square off (a bumped board); the final pass uses a window of a fifth of a square, small
    enough that the rims of pieces next to a corner do not pull it, wide enough to average
    out the JPEG blocks of the colour planes. Tolerances follow each corner's own square
    size along its shorter side: seen from low down, squares are much flatter than wide.
    """
    if tried.sum() < HOMOGRAPHY_POINTS:
        return None
    plane, offset, factor = board_plane(frame, h_board)
    src = INNER_CORNERS[tried]
    at = project(h_board, src)
    step = np.minimum(
        np.linalg.norm(project(h_board, src + [1, 0]) - at, axis=1),
        np.linalg.norm(project(h_board, src + [0, 1]) - at, axis=1),
    )
    typical = float(np.median(step))

    def to_plane(p: np.ndarray) -> np.ndarray:  # frame pixels -> plane pixels (centres kept)
        moved: np.ndarray = (p - offset + 0.5) / factor - 0.5
        return moved.astype(np.float32)

    # A window guessed partly off the picture (or off the board's crop) has corners there
    # that no window of the sub-pixel search may start from.
    inside = np.all((to_plane(at) >= 0) & (to_plane(at) < [plane.shape[1], plane.shape[0]]), axis=1)
    if inside.sum() < HOMOGRAPHY_POINTS:
        return None
    src, at, step = src[inside], at[inside], step[inside]
    guess = to_plane(at).reshape(-1, 1, 2)
    refined: np.ndarray = guess.copy()
    for frac in (cfg.coarse_window, cfg.fine_window) if coarse else (cfg.fine_window,):
        half = int(np.clip(round(frac * typical / factor), *cfg.window_px))
        refined = cv2.cornerSubPix(plane, refined, (half, half), (-1, -1), _SUBPIX_STOP)
    refined = refined.reshape(-1, 2)
    moved = np.linalg.norm(refined - guess.reshape(-1, 2), axis=1) * factor
    # A corner a man leans over (seen from low down) is pulled off; its quadrants no longer
    # pair up, so it is left out of the fit.
    around = project(h_board, _around(src).reshape(-1, 2)).reshape(-1, 4, 2)
    q = sample(plane, refined[:, None, :] + (around - at[:, None, :]) / factor)
    pairs = paired(*_contrast_and_spread(q), cfg.refine_pairing)
    radius = np.maximum(cfg.min_ring_px, cfg.refine_ring * step / factor)
    ring = x_corner_evidence(plane, refined, radius, cfg.min_contrast)
    keep = (moved < cfg.max_snap * step) & pairs & (ring > 0)
    refined = (refined + 0.5) * factor - 0.5 + offset
    if keep.sum() < HOMOGRAPHY_POINTS:
        return None
    board, image = src[keep], refined[keep]
    if lens is not None:
        image = lens.undistort_points(image).astype(np.float32)
    h, mask = cv2.findHomography(board, image, cv2.RANSAC, max(cfg.min_ransac_px, cfg.ransac_step * typical))
    if h is None:
        return None
    inlier = mask.ravel() > 0
    if lens is not None:
        # Straight lines in the ideal image: the outline is where the inner corners' own
        # homography puts it, nothing to extrapolate but the plane.
        return lens.distort_points(project(h, BOARD_CORNERS)).astype(np.float32), int(inlier.sum())
    size = (frame.shape[1], frame.shape[0])
    return _outer_corners(board[inlier], image[inlier], h, size, cfg), int(inlier.sum())


#: The bends tried on a grid before the parabola, and the fixed-point steps that invert one.
_RADIAL_STEPS = 9
_RADIAL_INVERSION_STEPS = 10


def _radial(points: np.ndarray, k: float, centre: np.ndarray, norm: float) -> np.ndarray:
    """One-parameter radial model: ``c + (p - c)(1 + k r^2)``, r in units of ``norm``."""
    d = points - centre
    bent: np.ndarray = centre + d * (1 + k * (d * d).sum(axis=1, keepdims=True) / norm**2)
    return bent


def _outer_corners(
    board: np.ndarray, image: np.ndarray, h_global: np.ndarray, size: tuple[int, int],
    cfg: LocateConfig,
) -> np.ndarray:
    """The four outer corners, extrapolated with lens distortion taken into account.

    Webcams bend straight lines (barrel distortion); one homography through the bent grid
    misplaces the outer corners by a few pixels. With enough inner corners, a radial term
    about the image centre is fitted with the homography (its strength from a coarse grid
    and a parabola, the homography solved linearly for each), and the corners are mapped
    back through it.
    """
    if len(board) < cfg.radial_corners:
        return project(h_global, BOARD_CORNERS)
    centre = np.array([size[0] / 2, size[1] / 2], np.float32)
    norm = float(np.hypot(*size) / 2)

    def residual(k: float) -> tuple[float, np.ndarray | None]:
        h, _ = cv2.findHomography(board, _radial(image, k, centre, norm).astype(np.float32), 0)
        if h is None:
            return np.inf, None
        return float(np.square(project(h, board) - _radial(image, k, centre, norm)).sum()), h

    ks = np.linspace(*cfg.radial_range, _RADIAL_STEPS)
    errors = np.array([residual(k)[0] for k in ks])
    best = int(np.clip(np.argmin(errors), 1, len(ks) - 2))
    # Vertex of the parabola through the best grid point and its neighbours.
    e0, e1, e2 = errors[best - 1 : best + 2]
    curvature = e0 - 2 * e1 + e2
    step = ks[1] - ks[0]
    k = ks[best] + (
        0.5 * step * (e0 - e2) / curvature if np.isfinite(curvature) and curvature > 0 else 0.0
    )
    k = float(np.clip(k, ks[0], ks[-1]))
    _, h = residual(k)
    if h is None:
        return project(h_global, BOARD_CORNERS)
    undistorted = project(h, BOARD_CORNERS)
    distorted = undistorted.copy()
    for _ in range(_RADIAL_INVERSION_STEPS):  # invert the model by fixed-point iteration
        d = distorted - centre
        distorted = centre + (undistorted - centre) / (
            1 + k * (d * d).sum(axis=1, keepdims=True) / norm**2
        )
    return distorted.astype(np.float32)


def _ordered(corners: np.ndarray, confidence: float, method: str) -> BoardLocation:
    """Corners in the documented order: clockwise, starting nearest the image's top-left."""
    if not clockwise(corners):
        corners = corners[[0, 3, 2, 1]]
    start = int(np.argmin(corners.sum(axis=1)))
    corners = np.roll(corners, -start, axis=0)
    return BoardLocation(corners, homography_from_corners(corners), confidence, method)


def refine_location(
    frame: np.ndarray,
    hint: BoardLocation,
    cfg: LocateConfig = LocateConfig(),
    lens: Lens | None = None,
) -> BoardLocation | None:
    """Re-fit a known board after a small move: snap each inner corner, refit, keep the order.

    Cheaper than :func:`locate_board` and keeps the hint's corner order, so the numbering
    found from the pieces survives a small bump. ``lens``: as for :func:`locate_board`.
    """
    tried = np.ones(len(INNER_CORNERS), bool)
    fitted = _refine(frame, hint.homography, tried, cfg, coarse=True, lens=lens)
    if fitted is None:
        return None
    corners, inliers = fitted
    confidence = inliers / len(INNER_CORNERS)
    if inliers < cfg.min_inner or confidence < cfg.min_confidence:
        return None
    return BoardLocation(corners, homography_from_corners(corners), confidence, "tracked")


def locate_board(
    frame: np.ndarray,
    hint: BoardLocation | None = None,
    cfg: LocateConfig = LocateConfig(),
    lens: Lens | None = None,
) -> BoardLocation | None:
    """Find the 8x8 board in a BGR or grey frame of any size; None when no grid is seen.

    With a ``hint`` (the last known location) a cheap refit near it is tried first and the
    hint's corner order is kept; otherwise the corners start nearest the image's top-left
    and go clockwise (the numbering is settled later from the pieces). With the camera's
    calibrated ``lens`` the outer corners are placed through it rather than through a bend
    guessed from this frame (the corners are still the camera's pixels).

    A hall has boards side by side, and the grid grown first may be the next table's. The
    board found is painted over and the frame searched again (:func:`_masked`): a board
    wholly in view beats one cut by the frame's edge, and of two wholly in view (the second
    sure, or as sure as the first) the one nearer the frame's centre is taken, since a
    camera is aimed at its own board (kingplay
    70106: the next table's board, nearer the camera and larger, lay whole at the frame's
    bottom edge, and the game's own was never followed).
    """
    if hint is not None:
        near = refine_location(frame, hint, cfg, lens)
        if near is not None and near.confidence >= cfg.hint_confidence:
            return near
    found = _search(frame, cfg, lens)
    if found is None:
        return None
    if not in_frame(found, frame):
        other = _search(_masked(frame, found), cfg, lens)
        return other if other is not None and in_frame(other, frame) else found
    # A second board wholly in view is the same set's: the first colour planes show it, and
    # the search's fallbacks (for boards hard to see) are spared on every frame with one board.
    # It is weighed when it is sure, or no less sure than the first: which of two dim boards
    # the search happens to grow first says nothing of which is the camera's (kingplay 70168:
    # the next table's board, found first at 0.24, was followed to the end, and the game's
    # own, found beside it at 0.31 and nearer the centre, was never read).
    other = _search(_masked(frame, found), cfg, lens, thorough=False)
    weighed = min(cfg.good_confidence, found.confidence)
    if other is None or not in_frame(other, frame) or other.confidence < weighed:
        return found  # no other board, or one too unsure to weigh against the first
    return min((found, other), key=lambda board: _off_centre(board, frame))


def _off_centre(found: BoardLocation, frame: np.ndarray) -> float:
    """How far the board's centre lies from the frame's, in pixels."""
    height, width = frame.shape[:2]
    return float(np.hypot(*(found.corners.mean(axis=0) - (width / 2, height / 2))))


def in_frame(found: BoardLocation, frame: np.ndarray) -> bool:
    """Whether every corner of the board lies inside the frame."""
    height, width = frame.shape[:2]
    x, y = found.corners[:, 0], found.corners[:, 1]
    return bool((x >= 0).all() and (y >= 0).all() and (x < width).all() and (y < height).all())


def _masked(frame: np.ndarray, found: BoardLocation) -> np.ndarray:
    """The frame with the board ``found`` (and a square around it) painted over in the
    frame's median colour: the search again then finds another board or none.

    Why: a hall has boards side by side, and the finder takes the first good grid it grows
    (:func:`locate_board` chooses between the two; kingplay 70061, 70069: the game never
    started on the neighbour's board cut by the frame's edge)."""
    outline = project(found.homography, np.array([[-1, -1], [9, -1], [9, 9], [-1, 9]], np.float64))
    painted = frame.copy()
    median = np.median(frame.reshape(-1, *frame.shape[2:]), axis=0)
    cv2.fillPoly(painted, [np.round(outline).astype(np.int32).reshape(-1, 1, 2)], np.atleast_1d(median).tolist())
    return painted


def _search(frame: np.ndarray, cfg: LocateConfig, lens: Lens | None, thorough: bool = True) -> BoardLocation | None:
    """The board found among the frame's colour planes, group by group, or beside a cloth
    (:func:`_plane_groups`, :func:`_beside_a_cloth`); None when no grid is seen. Not
    ``thorough``: the first group only."""
    best = None
    for planes, ring_first in _plane_groups(frame, cfg):
        for _, g, saddle, scale in planes:
            found = _locate_in(frame, _features(g, saddle, scale, cfg, ring_first), cfg, lens)
            if found is not None and best is not None and _torn(best, found, cfg):
                return None
            if found is not None and (best is None or found.confidence > best.confidence):
                best = found
            if best is not None and best.confidence >= cfg.good_confidence:
                return best
        if best is not None or not thorough:
            return best
    return _beside_a_cloth(frame, cfg, lens)


def _torn(one: BoardLocation, other: BoardLocation, cfg: LocateConfig) -> bool:
    """Whether two colour planes placed the board apart (a corner half a square or more
    off) and neither is ``plane_lead`` times as sure as the other.

    Why: on a paper board with no frame lying on a check of its own colours and size, the
    cloth's checks meet the board's edge and make one more line of corners; a plane where a
    glare washes out the board's far line took the cloth's line, another plane the board's
    (bench.boards_found --more, seed 143). Where the planes disagree and neither is sure,
    the finder cannot tell which is the board: a miss, never a board a line off.
    """
    square = float(np.linalg.norm(one.corners - np.roll(one.corners, 1, axis=0), axis=1).mean()) / BOARD_LINES
    apart = corner_error(one.corners, other.corners) >= 0.5 * square
    surer, less = sorted((one.confidence, other.confidence), reverse=True)
    return bool(apart and surer < cfg.plane_lead * less)


def _plane_groups(
    frame: np.ndarray, cfg: LocateConfig
) -> Iterator[tuple[list[tuple[float, np.ndarray, np.ndarray, float]], bool]]:
    """The colour planes to search, group by group, until one group shows a board, each
    with whether its candidates pass the ring test before the strongest are kept.

    The planes with the strongest saddles usually show the grid; when pieces or a table
    outshine it there, the next plane gets a try. Where neither shows a board, the other
    planes do (a bright, noisy table can outshine a red and black board in two planes of
    four: found in the third), then the colour-opponent planes (a small, noisy red and green
    board whose men hide its grid in every other plane, see :func:`chroma`), and then a
    small, far board gets a second look at twice the resolution, and a third there with
    every saddle put to the ring test: a board on a patterned cloth (see :func:`_features`).
    """
    maps = _channel_maps(frame, cfg.work_size, cfg)
    yield maps[: cfg.planes_tried], False
    yield maps[cfg.planes_tried :], False
    yield _channel_maps(frame, cfg.work_size, cfg, colour=True), False
    if max(frame.shape[:2]) > cfg.work_size:
        finer = _channel_maps(frame, 2 * cfg.work_size, cfg)[:1]
        yield finer, False
        yield finer, True


def _beside_a_cloth(frame: np.ndarray, cfg: LocateConfig, lens: Lens | None) -> BoardLocation | None:
    """The board looked for again among the corners whose two colours are not the commonest
    corners' two; None where no colour is that common, or no board is among the rest.

    Why: a checked cloth of strong contrast (a gingham, white and its colour) has thousands
    of X-corners stronger than a dim board's in every colour plane, so the board's are never
    among the strongest candidates, and what grows from those is the cloth's, or nothing.
    A cloth's corners all lie between its two colours, a board's between its own two (red
    and black): a corner's colour axis, from its dark sectors' colour to its bright ones',
    tells them apart where brightness does not, and a dim room or a glare scales or adds to
    both colours alike. Where most of the strongest corners share one axis, they are a
    texture's (a board has 49 inner corners); the corners off that axis are searched as
    before, then off the next commonest, plane by plane (a dim red and black board shows
    few corners in grey). A board in the cloth's own colours stays lost.
    """
    if frame.ndim == 2:
        return None
    small, scale = _working(frame, cfg.work_size)
    colour = cv2.GaussianBlur(small.astype(np.float32), (0, 0), cfg.blur_sigma)
    for _, g, saddle, _ in _channel_maps(frame, cfg.work_size, cfg):
        found = _off_the_commonest_colours(frame, g, saddle, colour, scale, cfg, lens)
        if found is not None:
            return found
    return None


def _off_the_commonest_colours(
    frame: np.ndarray, g: np.ndarray, saddle: np.ndarray, colour: np.ndarray, scale: float,
    cfg: LocateConfig, lens: Lens | None
) -> BoardLocation | None:
    """The board among one plane's X-corners off the commonest colour axis, then off the
    next commonest (see :func:`_beside_a_cloth`); None where no axis is that common."""
    points, strength = _peaks(saddle, cfg)
    ring = x_corner_evidence(g, points, cfg.ring_radius, cfg.min_contrast) > 0
    points, strength = points[ring], strength[ring]
    axes = _colour_axes(colour, g, points, cfg.ring_radius)
    texture = np.zeros((0, 2), np.float32)
    for _ in range(cfg.cloth_colours):
        if len(points) < cfg.min_inner:
            return None
        strongest = np.argsort(-strength)[: cfg.max_candidates]
        common = np.median(axes[strongest], axis=0)
        near = axes @ common > np.cos(np.radians(cfg.cloth_angle)) * np.linalg.norm(common)
        if near[strongest].mean() < cfg.cloth_share:
            return None
        texture = np.concatenate([texture, points[near] / scale])
        points, strength, axes = points[~near], strength[~near], axes[~near]
        found = _locate_in(frame, _strongest(g, points, strength, scale, cfg), cfg, lens)
        if found is not None:
            return None if _takes_in(found, texture) else found
    return None


def _takes_in(found: BoardLocation, texture: np.ndarray) -> bool:
    """Whether the board's outer line of squares on one side holds a line's evidence of the
    cloth's corners (frame pixels): a window a line off, past the board's edge onto the
    cloth where men hide the board's last line of corners. A miss, never a board a line off;
    a stray corner of the cloth's colours (a rim, a glare) is one, not a line."""
    u, v = project(np.linalg.inv(found.homography), texture).T
    inside = (np.minimum(u, v) > OUTLINE_MARGIN) & (np.maximum(u, v) < BOARD_LINES - OUTLINE_MARGIN)
    sides = (u < 1, u > BOARD_LINES - 1, v < 1, v > BOARD_LINES - 1)
    return max(int(np.count_nonzero(inside & side)) for side in sides) >= LINE_EVIDENCE


def _colour_axes(
    colour: np.ndarray, gray: np.ndarray, points: np.ndarray, radius: float
) -> np.ndarray:
    """(N, 3) unit B, G, R axis of each X-corner: its bright sectors' mean colour on the ring
    test's circle less its dark sectors' (bright and dark as grey sees them)."""
    at = points[:, None, :] + _ring_offsets()[None] * radius
    grey = sample(gray, at)
    bright = (grey > (grey.min(axis=1, keepdims=True) + grey.max(axis=1, keepdims=True)) / 2)[..., None]
    colours = np.stack([sample(colour[..., c], at) for c in range(3)], axis=-1)
    axis = (colours * bright).sum(axis=1) / np.maximum(bright.sum(axis=1), 1) - (
        colours * ~bright
    ).sum(axis=1) / np.maximum((~bright).sum(axis=1), 1)
    unit: np.ndarray = axis / np.maximum(np.linalg.norm(axis, axis=1, keepdims=True), 1e-9)
    return unit


def _locate_in(
    frame: np.ndarray, feat: _Features, cfg: LocateConfig, lens: Lens | None = None
) -> BoardLocation | None:
    """The board from one plane's candidate corners, or None."""
    if len(feat.points) < cfg.min_inner:
        return None
    found = _best_lattice(feat, cfg)
    if found is None or len(found[1]) < cfg.min_inner:
        return None
    lattice, _, h_lattice = found
    origin, margin = _choose_window(feat, lattice, h_lattice, cfg, frame)
    # Board coordinates (u, v) -> lattice (i, j) = origin + (u, v) - 1, then to full-res pixels.
    to_lattice = np.array([[1, 0, origin[0] - 1], [0, 1, origin[1] - 1], [0, 0, 1]], np.float64)
    if continues_past(feat.gray, h_lattice @ to_lattice, cfg):
        return None
    to_full = np.diag([1 / feat.scale, 1 / feat.scale, 1.0])
    h_board = to_full @ h_lattice @ to_lattice
    visible = (
        x_corner_evidence(
            feat.gray,
            project(h_lattice @ to_lattice, INNER_CORNERS),
            cfg.ring_radius,
            cfg.min_contrast,
        )
        > 0
    )
    fitted = _refine(frame, h_board, visible, cfg, lens=lens)
    if fitted is None:
        return None
    corners, inliers = fitted
    confidence = inliers / len(INNER_CORNERS) * min(1.0, margin / cfg.sure_lead)
    if inliers < cfg.min_inner or confidence < cfg.min_confidence:
        return None
    if continues_past(_gray(frame), homography_from_corners(corners), cfg):
        return None
    return _ordered(corners, confidence, "grid")


def locate_aruco(
    frame: np.ndarray,
    ids: tuple[int, int, int, int] = (0, 1, 2, 3),
    dictionary: int = cv2.aruco.DICT_4X4_50,
) -> BoardLocation | None:
    """The board from four ArUco markers, marker ``ids[k]`` at board corner ``k``.

    Convention: each marker sits just outside its board corner; the marker's own corner
    nearest the centre of the four markers is taken as the board corner.
    """
    detector = cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(dictionary), cv2.aruco.DetectorParameters()
    )
    marker_corners, marker_ids, _ = detector.detectMarkers(_gray(frame))
    if marker_ids is None:
        return None
    found = {int(i): c.reshape(4, 2) for i, c in zip(marker_ids.ravel(), marker_corners)}
    if not all(i in found for i in ids):
        return None
    centre = np.mean([found[i].mean(axis=0) for i in ids], axis=0)
    corners = np.array(
        [found[i][np.argmin(np.linalg.norm(found[i] - centre, axis=1))] for i in ids], np.float32
    )
    return location_from_corners(corners, 1.0, "aruco")
