"""Render camera frames of a scene with any position and an optional hand.

``Renderer(scene)`` draws what never changes (table, board, light field, lens maps, sensor
noise) once; ``render(pieces, hand, seed)`` then costs only the pieces, shadows, hand and
the image effects, so a game video of hundreds of frames is cheap.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

import cv2
import numpy as np

from makhos.vision.rectify import played_cells

from .scene import Scene, bgr
from .textures import TEXTURE_PPS, board_texture, smooth_noise, table_texture

SEGMENTS = 28  # polygon sides of a rendered disc


@dataclass(frozen=True)
class Hand:
    """A hand reaching over the board: fingertips at ``tip`` (board units: square (row, col)
    has its centre at (col + 0.5, row + 0.5)) held ``height`` squares above the board, the arm
    coming from ``angle`` (radians, direction in the board plane from the tip to the elbow)."""

    tip: tuple[float, float]
    angle: float
    height: float
    width: float  # squares, across the palm
    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int]


@dataclass(frozen=True)
class RenderedFrame:
    """One rendered frame and its ground truth.

    ``corners``: outer corners of the 8x8 playing area in image pixels (distorted image),
    in the board's own frame: top-left (row 0, col 0), top-right (row 0, col 7),
    bottom-right (row 7, col 7), bottom-left (row 7, col 0). The rectified board of
    ``vision.rectify`` puts row 0 at the top, so these four fix the numbering.
    ``squares``: 32 labels in square order 1..32: '.' empty, 'd'/'D' dark man/king,
    'l'/'L' light man/king. ``grid``: the same in the board's own frame, 8 strings of
    8 characters, '-' on squares not in play; played squares are where row + col is odd
    when ``played`` is 'dark' and even when it is 'light' (see ``vision.rectify.played_cells``).
    """

    image: np.ndarray
    corners: np.ndarray
    squares: tuple[str, ...]
    grid: tuple[str, ...]
    played: str
    hand_mask: np.ndarray | None
    hand_over_board: bool
    hand_squares: frozenset[int]


#: One disc of a piece: centre x, y (in squares), bottom and top height, light side or
#: not, radius.
Disc = tuple[float, float, float, float, bool, float]


def _label(value: object) -> str:
    return str(getattr(value, "value", value))


def random_position(rng: np.random.Generator, occupancy: float | None = None,
                    king_share: float | None = None) -> dict[int, str]:
    """A random assignment of pieces to squares (not necessarily reachable in a game):
    the classifier must read any board, and kings are made common so it sees many."""
    occupancy = rng.uniform(0.1, 0.8) if occupancy is None else occupancy
    king_share = rng.uniform(0.0, 0.6) if king_share is None else king_share
    out = {}
    for square in range(1, 33):
        if rng.random() < occupancy:
            king = rng.random() < king_share
            light = rng.random() < 0.5
            out[square] = ("L" if king else "l") if light else ("D" if king else "d")
    return out


def sample_hand(rng: np.random.Generator) -> Hand:
    """A hand over a random point of the board, arm from a random side."""
    tone = rng.uniform(0, 1)
    skin = np.array([80, 120, 180]) * (1 - tone) + np.array([150, 185, 230]) * tone
    return Hand(tip=(float(rng.uniform(0.5, 7.5)), float(rng.uniform(0.5, 7.5))),
                angle=float(rng.uniform(0, 2 * np.pi)), height=float(rng.uniform(0.3, 2.0)),
                width=float(rng.uniform(0.9, 1.4)), skin=bgr(skin),
                sleeve=bgr(rng.integers(20, 230, 3)))


def _nudge(stack: list[Disc], offset: tuple[float, float] | None) -> list[Disc]:
    """``stack`` moved by ``offset`` (squares; None: where it stands)."""
    if offset is None:
        return stack
    dx, dy = offset
    return [(x + dx, y + dy, z0, z1, light, radius) for x, y, z0, z1, light, radius in stack]


class Renderer:
    """Renders frames of one scene; build once, call ``render`` per frame."""

    def __init__(self, scene: Scene) -> None:
        self.scene = scene
        cam = scene.camera
        w, h = cam.size
        self._centre = cam.centre
        # Pixels per square near the board centre: scales line widths and blurs.
        p = cam.project_ideal(np.array([[3.5, 4.0, 0], [4.5, 4.0, 0], [4, 3.5, 0], [4, 4.5, 0]]))
        self.pps = float(np.sqrt(np.linalg.norm(p[1] - p[0]) * np.linalg.norm(p[3] - p[2])))

        tex, margin = board_texture(scene.board)
        s = 1.0 / TEXTURE_PPS
        tex_to_board = np.array([[s, 0, 0.5 * s - margin], [0, s, 0.5 * s - margin], [0, 0, 1]])
        background = table_texture(scene.table, scene.table_seed, (w, h))
        cv2.warpPerspective(tex, cam.board_homography() @ tex_to_board, (w, h), dst=background,
                            flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_TRANSPARENT)
        self.background = background

        light = scene.lighting
        rng = np.random.default_rng(light.field_seed)
        field = 1 + light.uneven * smooth_noise(rng, (h, w), 3)
        self.gain = (field[..., None] * np.asarray(light.white_balance, np.float32)).astype(np.float32)
        # The glare is smooth: compute it on a coarse grid and upsample.
        yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
        gx, gy = light.glare_at[0] * w, light.glare_at[1] * h
        sigma = light.glare_size * w
        glare = light.glare * np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * sigma**2))
        glare = cv2.resize(glare.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
        self.glare = cv2.merge([glare, glare, glare])
        self.map_x, self.map_y = cam.undistort_maps()
        self.noise = rng.standard_normal((h + 32, w + 32, 3), dtype=np.float32)
        corners = np.array([[0, 0, 0], [8, 0, 0], [8, 8, 0], [0, 8, 0]], float)
        self.corners = cam.project(corners).astype(np.float32)
        self._cells = played_cells(scene.played)

    # ------------------------------------------------------------------ frame

    def render(self, pieces: Mapping[int, object] | None = None, hand: Hand | None = None,
               seed: int = 0, nudged: Mapping[int, tuple[float, float]] | None = None
               ) -> RenderedFrame:
        """Render ``pieces`` (square -> 'd', 'D', 'l', 'L' or an engine ``Piece``).

        ``seed`` drives the per-frame randomness (piece placement jitter, noise offset), so a
        frame is reproducible from (scene, pieces, hand, seed). ``nudged``: square -> offset
        (squares) of a piece put down off its square's centre, beyond the jitter.
        """
        scene, cam = self.scene, self.scene.camera
        w, h = cam.size
        rng = np.random.default_rng(seed)
        labels = {sq: _label(v) for sq, v in (pieces or {}).items()}
        cylinders = self._cylinders(labels, rng, nudged or {})

        img: np.ndarray = self.background.copy()
        self._shadows(img, cylinders, hand)
        self._draw_cylinders(img, cylinders)
        hand_mask: np.ndarray | None = None
        if hand is not None:
            hand_mask = np.zeros((h, w), np.uint8)
            self._draw_hand(img, hand_mask, hand)

        f = img.astype(np.float32)
        cv2.multiply(f, self.gain, dst=f)
        cv2.add(f, self.glare, dst=f)
        img = np.clip(f, 0, 255).astype(np.uint8)
        img = cv2.remap(img, self.map_x, self.map_y, cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_REPLICATE)
        fx = scene.effects
        if fx.blur > 0.05:
            img = cv2.GaussianBlur(img, (0, 0), fx.blur)
        if fx.noise > 0.05:
            dy, dx = rng.integers(0, 32, 2)
            f = img.astype(np.float32)
            cv2.scaleAdd(self.noise[dy:dy + h, dx:dx + w], fx.noise, f, dst=f)
            img = np.clip(f, 0, 255).astype(np.uint8)
        if fx.jpeg_quality is not None:
            ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, fx.jpeg_quality])
            decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
            assert decoded is not None  # a JPEG just encoded decodes
            img = decoded

        over, covered = False, frozenset[int]()
        if hand_mask is not None:
            hand_mask = cv2.remap(hand_mask, self.map_x, self.map_y, cv2.INTER_NEAREST)
            over, covered = self._covered(hand_mask)
        squares = tuple(labels.get(sq, ".") for sq in range(1, 33))
        grid = [["-"] * 8 for _ in range(8)]
        for sq, (r, c) in enumerate(self._cells, start=1):
            grid[r][c] = squares[sq - 1]
        return RenderedFrame(image=img, corners=self.corners.copy(), squares=squares,
                             grid=tuple("".join(row) for row in grid), played=scene.played,
                             hand_mask=hand_mask, hand_over_board=over, hand_squares=covered)

    # ------------------------------------------------------------- geometry

    def _cylinders(self, labels: dict[int, str], rng: np.random.Generator,
                   nudged: Mapping[int, tuple[float, float]]) -> list[Disc]:
        """(x, y, z_bottom, z_top, light?, radius) of every disc to draw, in drawing order.

        A man is one cylinder, with a smaller raised boss on top when the set has one (as
        turned wooden men do: seen from above it looks like a small disc on a large one,
        which the classifier must not take for a king). A king is two stacked men, the top
        one offset; the top man hides the lower one's boss.
        """
        stacks = [_nudge(self._stack(sq, label, rng), nudged.get(sq))
                  for sq, label in labels.items()]
        # Painter's order: stacks farthest from the camera's foot first, each bottom to top.
        cx, cy = self._centre[0], self._centre[1]
        stacks.sort(key=lambda parts: -np.hypot(parts[0][0] - cx, parts[0][1] - cy))
        return [part for parts in stacks for part in parts]

    def _stack(self, square: int, label: str, rng: np.random.Generator) -> list[Disc]:
        """The discs of one square's piece, bottom to top: the man on the board, the top man
        of a king, the boss."""
        style = self.scene.pieces
        r, c = self._cells[square - 1]
        x = c + 0.5 + rng.uniform(-style.jitter, style.jitter)
        y = r + 0.5 + rng.uniform(-style.jitter, style.jitter)
        light = label in "lL"
        top = style.height
        parts: list[Disc] = [(x, y, 0.0, style.height, light, style.radius)]
        if label in "DL":
            a = rng.uniform(0, 2 * np.pi)
            d = rng.uniform(*style.king_offset)
            x, y = x + d * np.cos(a), y + d * np.sin(a)
            top = 2 * style.height * rng.uniform(0.98, 1.02)
            parts.append((x, y, style.height, top, light, style.radius))
        if style.boss_height > 0:
            parts.append((x, y, top, top + style.boss_height, light,
                          style.radius * style.boss_radius))
        return parts

    def draw_discs(self, image: np.ndarray, discs: list[Disc]) -> None:
        """Draw ``discs`` (men off the board: on the table, on the next table's board) into
        ``image`` (the table, before light and lens), farthest from the camera first."""
        cx, cy = self._centre[0], self._centre[1]
        order = sorted(range(len(discs)), key=lambda k: (-np.hypot(discs[k][0] - cx, discs[k][1] - cy),
                                                         discs[k][2]))
        self._draw_cylinders(image, [discs[k] for k in order])

    def _circle(self, x: float, y: float, z: float, radius: float) -> np.ndarray:
        a = np.linspace(0, 2 * np.pi, SEGMENTS, endpoint=False)
        return np.stack([x + radius * np.cos(a), y + radius * np.sin(a),
                         np.full(SEGMENTS, -z)], axis=1)

    def _shadows(self, img: np.ndarray, cylinders: list[Disc], hand: Hand | None) -> None:
        light = self.scene.lighting
        if light.shadow_strength <= 0:
            return
        cam = self.scene.camera
        w, h = cam.size
        mask: np.ndarray = np.zeros((h // 2, w // 2), np.uint8)
        cot = 1 / np.tan(light.elevation)
        shift = -cot * np.array([np.cos(light.azimuth), np.sin(light.azimuth), 0.0])
        for x, y, z0, z1, _, radius in cylinders:
            pts = np.concatenate([self._circle(x, y, 0, radius) + z0 * shift,
                                  self._circle(x, y, 0, radius) + z1 * shift])
            pix = cam.project_ideal(pts) * 0.5
            cv2.fillConvexPoly(mask, cv2.convexHull((pix * 16).astype(np.int32)), 255,
                               cv2.LINE_AA, 4)
        if hand is not None:
            outline, _ = self._hand_outline(hand)
            heights = -outline[:, 2:3]
            flat = outline.copy()
            flat[:, 2] = 0
            flat += heights * shift
            pix = cam.project_ideal(flat) * 0.5
            cv2.fillPoly(mask, [(pix * 16).astype(np.int32)], 160, cv2.LINE_AA, 4)
        sigma = max(0.5, light.shadow_blur * self.pps / 2)
        mask = cv2.GaussianBlur(mask, (0, 0), sigma)
        factor = 1 - light.shadow_strength * cv2.resize(mask, (w, h)).astype(np.float32) / 255
        img[:] = (img * factor[..., None]).astype(np.uint8)

    def _draw_cylinders(self, img: np.ndarray, cylinders: list[Disc]) -> None:
        scene = self.scene
        style, light = scene.pieces, scene.lighting
        cam = scene.camera
        L = light.direction
        top_shade = light.ambient + (1 - light.ambient) * max(0.0, -L[2])
        angles = np.linspace(0, 2 * np.pi, SEGMENTS, endpoint=False)
        normals = np.stack([np.cos(angles + np.pi / SEGMENTS), np.sin(angles + np.pi / SEGMENTS)],
                           axis=1)
        side_shade = light.ambient + (1 - light.ambient) * np.clip(normals @ L[:2], 0, None)
        line = max(1, int(round(self.pps / 40)))
        for x, y, z0, z1, is_light, radius in cylinders:
            colour = np.asarray(style.pieces.light if is_light else style.pieces.dark, float)
            bottom = self._circle(x, y, z0, radius)
            top = self._circle(x, y, z1, radius)
            pix = cam.project_ideal(np.concatenate([bottom, top]))
            pb, pt = (pix[:SEGMENTS] * 16).astype(np.int32), (pix[SEGMENTS:] * 16).astype(np.int32)
            face = np.clip(colour * top_shade, 0, 255)
            if z0 > 0:
                # Contact shadow of a stacked man on the one below: the dark crescent that
                # tells a king from a man when seen from straight above.
                under = self._circle(x, y, z0, radius * 1.06)
                pu = (cam.project_ideal(under) * 16).astype(np.int32)
                cv2.fillConvexPoly(img, pu, tuple(face * 0.45), cv2.LINE_AA, 4)
            mid = (bottom + np.roll(bottom, -1, axis=0)) / 2
            facing = np.einsum("ij,ij->i", normals, self._centre[:2] - mid[:, :2]) > 0
            # The side wall in three bands: rounded (chamfered) edges at the bottom and top
            # catch less light, so a stack shows a dark groove where two men meet.
            band = style.chamfer * (z1 - z0)
            lo = (cam.project_ideal(self._circle(x, y, z0 + band, radius)) * 16).astype(np.int32)
            hi = (cam.project_ideal(self._circle(x, y, z1 - band, radius)) * 16).astype(np.int32)
            for k in np.nonzero(facing)[0]:
                k1 = (k + 1) % SEGMENTS
                side = colour * side_shade[k] * 0.85
                for (a, b), shade in (((pb, lo), style.chamfer_shade), ((lo, hi), 1.0),
                                      ((hi, pt), style.chamfer_shade * 1.1)):
                    cv2.fillConvexPoly(img, np.array([a[k], a[k1], b[k1], b[k]]),
                                       tuple(np.clip(side * shade, 0, 255)), cv2.LINE_8, 4)
            front = pb[np.concatenate([facing, facing[:1]]).nonzero()[0] % SEGMENTS]
            if len(front) > 1:  # the seam where the man meets the board or the man below
                cv2.polylines(img, [front], False, tuple(face * 0.4), line, cv2.LINE_AA, 4)
            cv2.fillConvexPoly(img, pt, tuple(face), cv2.LINE_AA, 4)
            rim = self._circle(x, y, z1, radius * 0.88)
            pr = (cam.project_ideal(rim) * 16).astype(np.int32)
            cv2.polylines(img, [pr], True, tuple(np.clip(face * (1 + style.bevel), 0, 255)),
                          line, cv2.LINE_AA, 4)
            for ring in style.rings:
                pr = (cam.project_ideal(self._circle(x, y, z1, radius * ring)) * 16)
                cv2.polylines(img, [pr.astype(np.int32)], True, tuple(face * 0.72), line,
                              cv2.LINE_AA, 4)
            cv2.polylines(img, [pt], True, tuple(face * 0.6), 1, cv2.LINE_AA, 4)

    def _hand_outline(self, hand: Hand) -> tuple[np.ndarray, int]:
        """3-D outline of hand and forearm; the second value is where the sleeve starts."""
        s = np.array([0, 0.35, 0.8, 1.6, 2.4, 3.2, 5.0, 8.0, 14.0, 24.0])
        width = hand.width * np.array([0.55, 0.95, 1.1, 1.0, 0.72, 0.8, 0.95, 1.1, 1.3, 1.5])
        d = np.array([np.cos(hand.angle), np.sin(hand.angle)])
        n = np.array([-d[1], d[0]])
        centre = np.asarray(hand.tip) + s[:, None] * d
        z = hand.height + s * 0.35
        left = np.column_stack([centre + width[:, None] / 2 * n, -z])
        right = np.column_stack([centre - width[:, None] / 2 * n, -z])
        return np.concatenate([left, right[::-1]]), 5

    def _draw_hand(self, img: np.ndarray, mask: np.ndarray, hand: Hand) -> None:
        cam = self.scene.camera
        outline, sleeve_from = self._hand_outline(hand)
        # Keep only points in front of the camera (the forearm can reach behind it).
        cam_z = outline @ cam.R[2] + cam.t[2]
        outline = outline[cam_z > 0.5]
        if len(outline) < 3:
            return
        pix = (cam.project_ideal(outline) * 16).astype(np.int32)
        cv2.fillPoly(img, [pix], hand.skin, cv2.LINE_AA, 4)
        cv2.fillPoly(mask, [pix], 255, cv2.LINE_8, 4)
        n_side = len(outline) // 2
        if n_side > sleeve_from:
            sleeve = np.concatenate([pix[sleeve_from:n_side], pix[n_side:len(pix) - sleeve_from]])
            cv2.fillPoly(img, [sleeve], hand.sleeve, cv2.LINE_AA, 4)
        d = np.array([np.cos(hand.angle), np.sin(hand.angle)])
        n = np.array([-d[1], d[0]])
        for k in (-1, 0, 1):  # gaps between fingers
            a = np.asarray(hand.tip) + k * hand.width * 0.22 * n
            seg = np.array([[*a, -hand.height], [*(a + 0.6 * d), -hand.height - 0.2]])
            if np.all(seg @ cam.R[2] + cam.t[2] > 0.5):
                p = (cam.project_ideal(seg) * 16).astype(np.int32)
                cv2.line(img, tuple(p[0]), tuple(p[1]),
                         tuple(int(v * 0.7) for v in hand.skin), 1, cv2.LINE_AA, 4)

    def _covered(self, hand_mask: np.ndarray) -> tuple[bool, frozenset[int]]:
        """Whether the hand is over the playing area, and which played squares it touches."""
        pps = 8
        dst = np.array([[0, 0], [8 * pps, 0], [8 * pps, 8 * pps], [0, 8 * pps]], np.float32)
        H = cv2.getPerspectiveTransform(self.corners, dst)
        top = cv2.warpPerspective(hand_mask, H, (8 * pps, 8 * pps), flags=cv2.INTER_NEAREST)
        cells = top.reshape(8, pps, 8, pps).max(axis=(1, 3)) > 0
        covered = frozenset(sq for sq, (r, c) in enumerate(self._cells, start=1) if cells[r, c])
        return bool(cells.any()), covered
