"""What stays fixed while a game is filmed: camera, board, piece set, lighting, image effects.

A ``Scene`` is plain data, sampled from a seeded generator by ``sample_scene``; rendering it
with different positions and hands (``lab.render.renderer.Renderer``) reuses everything
that does not change between frames.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import numpy as np

from .camera import Camera, look_at
from .palettes import BOARD_PALETTES, PIECE_SETS, BoardPalette, PieceSet, select

BGR = tuple[int, int, int]


@dataclass(frozen=True)
class BoardStyle:
    """Board look. ``border`` is 'none', 'frame' (solid frame) or 'outer' (a further ring of
    squares, as on a 10x10 board masked to 8x8, optionally under tape)."""

    palette: BoardPalette
    border: str
    border_width: float  # squares, beyond the playing area (or beyond the outer ring)
    frame_colour: BGR
    tape_colour: BGR | None  # tape over the outer ring, or None
    edge_line: BGR | None  # a thin line around the playing area, or None
    texture_seed: int


@dataclass(frozen=True)
class PieceStyle:
    """Men as cylinders: colours of the two sides, size, rings on the top face."""

    pieces: PieceSet
    radius: float  # squares
    height: float  # squares, one man
    rings: tuple[float, ...]  # radii of grooves on the top, as fractions of the radius
    bevel: float  # shade change of the outer rim of the top face (negative = darker)
    jitter: float  # random offset of a man from its square's centre, squares
    king_offset: tuple[float, float]  # range of the top man's offset in a king, squares
    chamfer: float  # height of the rounded band at each edge of a man's side, fraction
    chamfer_shade: float  # brightness of that band relative to the side wall
    boss_height: float  # raised centre on top of each man, squares (0 = flat men)
    boss_radius: float  # its radius, fraction of the man's


@dataclass(frozen=True)
class Lighting:
    """A main light (shading and shadows) and the image-wide light field."""

    azimuth: float  # radians, direction from the board toward the light
    elevation: float  # radians
    ambient: float
    shadow_strength: float  # 0..1, how much a shadow darkens the board
    shadow_blur: float  # squares, softness of shadows
    uneven: float  # amplitude of the smooth light field
    white_balance: tuple[float, float, float]  # per-channel gains, BGR
    glare: float  # peak added brightness of a glare spot (0 = none)
    glare_at: tuple[float, float]  # glare centre, fractions of image width and height
    glare_size: float  # fraction of image width
    field_seed: int

    @property
    def direction(self) -> np.ndarray:
        """Unit vector from a point on the board toward the light (world frame)."""
        ce = np.cos(self.elevation)
        return np.array([ce * np.cos(self.azimuth), ce * np.sin(self.azimuth),
                         -np.sin(self.elevation)])


@dataclass(frozen=True)
class Effects:
    """Sensor and compression: noise sigma (grey levels), blur sigma (pixels), JPEG quality."""

    noise: float
    blur: float
    jpeg_quality: int | None


@dataclass(frozen=True)
class Scene:
    """Everything needed to render frames of one board set-up."""

    camera: Camera
    board: BoardStyle
    pieces: PieceStyle
    lighting: Lighting
    effects: Effects
    played: str  # 'dark' or 'light': the colour of the squares in play
    table: BGR
    table_seed: int


def bgr(values: Any) -> BGR:
    """Three numbers (an array, a tuple) as a BGR colour of whole numbers."""
    blue, green, red = (int(v) for v in values)
    return blue, green, red


def _three(values: Any) -> tuple[float, float, float]:
    a, b, c = (float(v) for v in values)
    return a, b, c


def _jitter_colour(rng: np.random.Generator, colour: BGR, amount: float) -> BGR:
    return bgr(np.clip(np.asarray(colour, float) + rng.normal(0, amount, 3), 0, 255))


def random_piece_set(rng: np.random.Generator) -> PieceSet:
    """Two random colours with a clear lightness gap: teaches that 'light' is relative."""
    import cv2  # local: only the sampler needs colour conversion

    while True:
        lab = np.array([[[rng.uniform(10, 95) * 2.55, rng.uniform(90, 170), rng.uniform(90, 170)],
                         [rng.uniform(5, 90) * 2.55, rng.uniform(90, 170), rng.uniform(90, 170)]]],
                       np.uint8)
        if int(lab[0, 0, 0]) - int(lab[0, 1, 0]) >= 25 * 2.55:
            break
    light, dark = cv2.cvtColor(lab, cv2.COLOR_LAB2BGR)[0]
    return PieceSet("random", bgr(light), bgr(dark), wood=bool(rng.random() < 0.3))


def sample_camera(rng: np.random.Generator, size: tuple[int, int],
                  elevation: tuple[float, float], margin: float,
                  azimuth: float | None = None) -> Camera:
    """A camera that sees the whole playing area plus ``margin`` squares around it, from
    any side of the table unless ``azimuth`` (radians, a few degrees drawn around it) pins it."""
    w, h = size
    fov = np.radians(rng.uniform(45, 75))
    f = (w / 2) / np.tan(fov / 2) * rng.uniform(0.97, 1.03)
    K = np.array([[f, 0, w / 2 + rng.normal(0, w * 0.01)],
                  [0, f * rng.uniform(0.99, 1.01), h / 2 + rng.normal(0, h * 0.01)],
                  [0, 0, 1]])
    dist = np.array([rng.uniform(-0.25, 0.05), rng.uniform(0.0, 0.06), 0.0, 0.0, 0.0])
    elev = np.radians(rng.uniform(*elevation))
    azimuth = rng.uniform(0, 2 * np.pi) if azimuth is None else azimuth + np.radians(rng.normal(0, 5))
    roll = np.radians(rng.normal(0, 4))
    target = np.array([4 + rng.uniform(-0.8, 0.8), 4 + rng.uniform(-0.8, 0.8), 0.0])
    fill = rng.uniform(0.55, 1.0)  # board diagonal as a fraction of the image height
    distance = f * (8 + 2 * margin) * np.sqrt(2) / (fill * h)
    corners = np.array([[-margin, -margin, 0], [8 + margin, -margin, 0],
                        [8 + margin, 8 + margin, 0], [-margin, 8 + margin, 0]], float)
    for _ in range(40):
        R, t = look_at(elev, azimuth, roll, distance, target)
        camera = Camera(K, dist, R, t, (w, h))
        p = camera.project_ideal(corners)
        if (p[:, 0].min() > 2 and p[:, 1].min() > 2 and p[:, 0].max() < w - 3
                and p[:, 1].max() < h - 3):
            return camera
        distance *= 1.08
    return camera


def sample_scene(rng: np.random.Generator, *, held_out: bool | None = False,
                 board_palettes: tuple[str, ...] | None = None,
                 piece_sets: tuple[str, ...] | None = None,
                 random_colours: float = 0.0,
                 elevation: tuple[float, float] = (30.0, 90.0),
                 size: tuple[int, int] = (1280, 720),
                 played: str | None = None, azimuth: float | None = None) -> Scene:
    """Sample a scene.

    Palettes come from the training split (``held_out=False``), the held-out split (True),
    both (None) or an explicit list of names. ``random_colours`` is the probability of
    replacing the named piece set by two random colours (training only: it is what makes
    "light" mean "the lighter side" rather than a memorised colour).
    """
    boards = select(BOARD_PALETTES, held_out, board_palettes)
    board_palette = boards[rng.integers(len(boards))]
    sets = select(PIECE_SETS, held_out, piece_sets)
    piece_set = sets[rng.integers(len(sets))]
    if rng.random() < random_colours:
        piece_set = random_piece_set(rng)
    piece_set = PieceSet(piece_set.name, _jitter_colour(rng, piece_set.light, 6),
                         _jitter_colour(rng, piece_set.dark, 6), piece_set.wood,
                         piece_set.held_out)
    palette = BoardPalette(board_palette.name, _jitter_colour(rng, board_palette.light, 6),
                           _jitter_colour(rng, board_palette.dark, 6), board_palette.texture,
                           board_palette.held_out)

    border = str(rng.choice(["none", "frame", "outer"], p=[0.25, 0.45, 0.3]))
    board = BoardStyle(
        palette=palette,
        border=border,
        border_width=float(rng.uniform(0.15, 1.0)) if border != "none" else 0.0,
        frame_colour=_jitter_colour(rng, palette.dark if rng.random() < 0.5
                                    else (30, 60, 110), 25),
        tape_colour=(_jitter_colour(rng, (200, 140, 40), 25)
                     if border == "outer" and rng.random() < 0.6 else None),
        edge_line=(0, 0, 0) if rng.random() < 0.25 else None,
        texture_seed=int(rng.integers(2**31)),
    )
    radius = float(rng.uniform(0.33, 0.42))
    pieces = PieceStyle(
        pieces=piece_set,
        radius=radius,
        height=float(rng.uniform(0.12, 0.32)),
        rings=tuple(sorted(rng.uniform(0.3, 0.85, int(rng.integers(0, 4))).tolist())),
        bevel=float(rng.uniform(-0.25, 0.15)),
        jitter=float(rng.uniform(0.0, 0.08)),
        king_offset=(0.06, float(rng.uniform(0.09, 0.14))),
        chamfer=float(rng.uniform(0.08, 0.22)),
        chamfer_shade=float(rng.uniform(0.45, 0.8)),
        boss_height=float(rng.uniform(0.02, 0.07)) if rng.random() < 0.4 else 0.0,
        boss_radius=float(rng.uniform(0.45, 0.8)),
    )
    lighting = Lighting(
        azimuth=float(rng.uniform(0, 2 * np.pi)),
        elevation=float(np.radians(rng.uniform(35, 85))),
        ambient=float(rng.uniform(0.45, 0.75)),
        shadow_strength=float(rng.uniform(0.1, 0.55)),
        shadow_blur=float(rng.uniform(0.03, 0.25)),
        uneven=float(rng.uniform(0.0, 0.4)),
        white_balance=_three(rng.uniform(0.85, 1.15, 3)),
        glare=float(rng.uniform(40, 150)) if rng.random() < 0.35 else 0.0,
        glare_at=(float(rng.uniform(0.2, 0.8)), float(rng.uniform(0.2, 0.8))),
        glare_size=float(rng.uniform(0.04, 0.2)),
        field_seed=int(rng.integers(2**31)),
    )
    effects = Effects(
        noise=float(rng.uniform(0, 7)),
        blur=float(rng.uniform(0, 1.6)) if rng.random() < 0.7 else 0.0,
        jpeg_quality=int(rng.integers(35, 96)) if rng.random() < 0.7 else None,
    )
    margin = board.border_width + (1.0 if border == "outer" else 0.0)
    camera = sample_camera(rng, size, elevation, margin, azimuth)
    return Scene(
        camera=camera, board=board, pieces=pieces, lighting=lighting, effects=effects,
        played=played or str(rng.choice(["dark", "light"], p=[0.7, 0.3])),
        table=_jitter_colour(rng, bgr(rng.integers(40, 230, 3)), 10),
        table_seed=int(rng.integers(2**31)),
    )


def widened(scene: Scene, rng: np.random.Generator) -> Scene:
    """The scene with a piece set from the wider world that real photographs show.

    The named sets are turned plastic and wood men of ordinary size. Real sets also have
    discs as wide as the square (0.9 of it across), paper stickers and thin printed discs
    barely above the board, tall cylinders taller than a square is wide, and two sides of
    about the same lightness told apart by hue (green and red stickers, orange and blue
    3-D-printed men). Drawn from its own generator, so a split that draws none of them
    renders exactly as before.
    """
    pieces = scene.pieces
    shape = rng.choice(["wide", "thin", "tall"], p=[0.4, 0.35, 0.25])
    radius = float(rng.uniform(0.38, 0.47)) if shape != "tall" else float(rng.uniform(0.3, 0.44))
    height = {"wide": rng.uniform(0.06, 0.2), "thin": rng.uniform(0.008, 0.06),
              "tall": rng.uniform(0.35, 0.9)}[str(shape)]
    colours = pieces.pieces
    if rng.random() < 0.5:
        colours = hue_piece_set(rng)
    style = dataclasses.replace(
        pieces, pieces=colours, radius=radius, height=float(height),
        chamfer=float(rng.uniform(0.02, 0.1)) if shape == "thin" else pieces.chamfer,
        boss_height=0.0 if shape == "thin" else pieces.boss_height)
    return dataclasses.replace(scene, pieces=style)


def hue_piece_set(rng: np.random.Generator) -> PieceSet:
    """Two colours that differ by hue at least as much as by lightness (red and green, orange
    and blue, purple and teal); 'light' is still the lighter of the two, by however little."""
    import cv2  # local: only the sampler needs colour conversion

    while True:
        lightness = rng.uniform(30, 85) * 2.55
        gap = rng.uniform(0, 15) * 2.55
        angle = rng.uniform(0, 2 * np.pi)
        chroma = rng.uniform(25, 60)
        a, b = chroma * np.cos(angle), chroma * np.sin(angle)
        turn = angle + rng.uniform(0.6, 1.0) * np.pi
        c = rng.uniform(20, 60)
        lab = np.array([[[lightness + gap / 2, 128 + a, 128 + b],
                         [lightness - gap / 2, 128 + c * np.cos(turn), 128 + c * np.sin(turn)]]])
        if (lab >= 0).all() and (lab <= 255).all():
            break
    light, dark = (tuple(int(v) for v in c) for c in cv2.cvtColor(lab.astype(np.uint8),
                                                                    cv2.COLOR_LAB2BGR)[0])
    return PieceSet("hue", (light[0], light[1], light[2]), (dark[0], dark[1], dark[2]))
