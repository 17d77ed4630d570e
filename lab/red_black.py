"""The classic red and black paper board, rendered hostile: the board kind a finder that
looks at brightness alone loses.

Red squares and black squares, men of red and of black standing on the black squares, so
that every red man stands beside red squares: across a corner where a red man stands, two
of the four quadrants are red and the grid is all in the colour. The camera is low and
oblique, the room dim, and a glare may sit on the board (``lab.render`` draws the rest of
the nuisances: paper texture, a lens, noise, blur, JPEG). ``surroundings`` adds what a
kitchen table adds: a frame of the board's own red or black (or of wood), and a patterned
cloth under it (gingham, itself a checkerboard, or stripes), seen in the same perspective.
Two more, each on its own: a buffalo check of the board's own red and black under it, and
sunlight through a window across it.
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from .render.palettes import BoardPalette, PieceSet, bgr
from .render.renderer import RenderedFrame, Renderer, random_position
from .render.scene import BGR, Scene, sample_scene

#: The reds of printed boards, from a deep red (little brighter than the black) to a bright one.
DEEP_RED, BRIGHT_RED = np.array(bgr("#7E1A18")), np.array(bgr("#C83A30"))
BLACK_SQUARES = bgr("#1C1C1E")
RED_MEN, BLACK_MEN = bgr("#C0282D"), bgr("#161616")
#: A wooden frame's brown, and the cloths' colours: a red, a blue, a green, a black.
WOOD = bgr("#6B4424")
CLOTHS = (bgr("#B8282A"), bgr("#2A4E9A"), bgr("#2F7A3A"), bgr("#202020"))
CLOTH_LIGHT = bgr("#E8E4DC")


def red_black_scene(seed: int, hostile: bool = True, surroundings: bool = False) -> Scene:
    """A red and black paper board, its red drawn between a deep and a bright one; ``hostile``:
    seen from 28-45 degrees above the table, in a dim room (a third to two thirds of the
    light), with a glare on most of them; ``surroundings``: framed in its own red, its own
    black or wood (drawn from their own generator: the rest of the scene is as without)."""
    rng = np.random.default_rng([seed, 42])
    red = tuple(int(v) for v in DEEP_RED + rng.uniform() * (BRIGHT_RED - DEEP_RED))
    scene = sample_scene(rng, elevation=(28.0, 45.0) if hostile else (50.0, 90.0),
                         size=(1280, 720), played="dark")
    board = dataclasses.replace(scene.board, palette=BoardPalette(
        "red-black-paper", (red[0], red[1], red[2]), BLACK_SQUARES, "paper"))
    pieces = dataclasses.replace(scene.pieces, pieces=PieceSet("red-black", RED_MEN, BLACK_MEN))
    lighting = scene.lighting
    if hostile:
        dim = float(rng.uniform(0.35, 0.7))
        lighting = dataclasses.replace(
            lighting, ambient=float(rng.uniform(0.2, 0.45)), white_balance=(dim, dim, dim * 1.1),
            glare=float(rng.uniform(80.0, 180.0)) if rng.random() < 0.7 else 0.0,
            glare_size=float(rng.uniform(0.06, 0.16)))
    if surroundings:
        around = np.random.default_rng([seed, 44])
        colour: BGR = (board.palette.light, BLACK_SQUARES, WOOD)[int(around.integers(3))]
        board = dataclasses.replace(board, border="frame", tape_colour=None,
                                    border_width=float(around.uniform(0.2, 1.2)),
                                    frame_colour=colour)
    return dataclasses.replace(scene, board=board, pieces=pieces, lighting=lighting)


def red_black_frame(seed: int, hostile: bool = True, surroundings: bool = False,
                    own_check: bool = False, window_light: bool = False) -> RenderedFrame:
    """One frame of :func:`red_black_scene`, its men drawn at random (about 60 % of squares),
    on a patterned cloth where ``surroundings`` (on four in five); ``own_check``: on every
    board, a check of the board's own red and black instead (see :func:`lay_own_check`);
    ``window_light``: sunlight through a window across the board (see :func:`let_in_sun`)."""
    scene = red_black_scene(seed, hostile, surroundings)
    renderer = Renderer(scene)
    cloth = np.random.default_rng([seed, 45])
    if own_check:
        lay_own_check(renderer, np.random.default_rng([seed, 46]))
    elif surroundings and cloth.random() < 0.8:
        lay_cloth(renderer, cloth)
    if window_light:
        let_in_sun(renderer, np.random.default_rng([seed, 47]))
    rng = np.random.default_rng([seed, 43])
    return renderer.render(random_position(rng, 0.6), seed=seed)


def let_in_sun(renderer: Renderer, rng: np.random.Generator) -> None:
    """Let sunlight in through a window: a patch of the table 1.8-3 times as bright as the
    dim room, its edge crossing the board between a quarter and three quarters of the way,
    turned at random, its penumbra 0.05-0.2 of a square, crossed by the shadows of the
    window's bars (0.2-0.5 of a square wide, every 2-4 squares). Why: at a venue by a window
    half the board is lit and half is not; the corners on the edge and under the bars have
    one side lit and the other not, and the lit squares clip to white."""
    camera = renderer.scene.camera
    w, h = camera.size
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    x, y, z = np.linalg.inv(camera.board_homography()) @ np.stack(
        [xs.ravel(), ys.ravel(), np.ones(w * h, np.float32)])
    z = np.where(z > 1e-6, z, 1e-6)  # above the horizon: far away, past the window's patch
    angle = rng.uniform(0, 2 * np.pi)
    across = (x / z - 4) * np.cos(angle) + (y / z - 4) * np.sin(angle)  # squares from the centre
    along = (y / z - 4) * np.cos(angle) - (x / z - 4) * np.sin(angle)
    edge, penumbra = rng.uniform(-2.0, 2.0), rng.uniform(0.05, 0.2)
    lit = np.clip((across - edge) / penumbra + 0.5, 0, 1)
    bar_every, bar_width = rng.uniform(2.0, 4.0), rng.uniform(0.2, 0.5)
    bars = np.abs((along - rng.uniform(0, bar_every)) % bar_every - bar_every / 2)
    lit *= np.clip((bars - bar_width / 2) / penumbra + 0.5, 0, 1)
    gain = 1 + (rng.uniform(1.8, 3.0) - 1) * lit.reshape(h, w).astype(np.float32)
    renderer.gain = renderer.gain * gain[..., None]


def lay_own_check(renderer: Renderer, rng: np.random.Generator) -> None:
    """Lay a buffalo check under the board: a gingham of the board's own red and its black
    squares' black, its checks the size of the board's squares (0.7-1.4 of one), turned at
    random. Why: the flannel check of a picnic or a kitchen is red and black; its corners
    lie between the board's two colours, so nothing in a corner's colours tells the two
    apart, and only the board's own structure can."""
    lay_cloth(renderer, rng, colours=(renderer.scene.board.palette.light, BLACK_SQUARES),
              periods=(0.7, 1.4), gingham=1.0)


def lay_cloth(renderer: Renderer, rng: np.random.Generator,
              colours: tuple[BGR, BGR] | None = None,
              periods: tuple[float, float] = (0.3, 1.5), gingham: float = 0.6) -> None:
    """Lay a patterned cloth on the table around the board: gingham (two crossing sets of
    stripes, three shades: a checkerboard of its own; on ``gingham`` of cloths) or stripes,
    its period drawn from ``periods`` (of a square), turned at random, drawn on the table's
    plane so perspective shrinks it as it does the board. ``colours``: its light and its
    colour (default: white and one of :data:`CLOTHS`)."""
    camera = renderer.scene.camera
    w, h = camera.size
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    to_table = np.linalg.inv(camera.board_homography())
    pixels = np.stack([xs.ravel(), ys.ravel(), np.ones(w * h, np.float32)])
    x, y, z = to_table @ pixels
    ahead = z > 1e-6  # above the horizon the plane is behind the camera: no cloth there
    z = np.where(ahead, z, 1.0)
    angle, period = rng.uniform(0, np.pi), rng.uniform(*periods)
    u = (x / z * np.cos(angle) + y / z * np.sin(angle)) / period
    v = (y / z * np.cos(angle) - x / z * np.sin(angle)) / period
    weave = (u % 1 < 0.5).astype(np.float32)
    if rng.random() < gingham:  # gingham: the crossing set too, the crossings darkest
        weave = (weave + (v % 1 < 0.5)) / 2
    if colours is None:
        colour = np.asarray(CLOTHS[int(rng.integers(len(CLOTHS)))], np.float32)
        light = np.asarray(CLOTH_LIGHT, np.float32)
    else:
        light, colour = np.asarray(colours[0], np.float32), np.asarray(colours[1], np.float32)
    cloth = light + weave[:, None] * (colour - light)
    cloth = cloth.reshape(h, w, 3)
    # The board and its frame keep what the renderer drew.
    style = renderer.scene.board
    margin = style.border_width + (1.0 if style.border == "outer" else 0.0)
    outline = np.array([[-margin, -margin], [8 + margin, -margin], [8 + margin, 8 + margin],
                        [-margin, 8 + margin]], np.float64)
    image = cv2.perspectiveTransform(outline[None], camera.board_homography())[0]
    board = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(board, np.round(image).astype(np.int32), 255)
    keep = (board > 0) | ~ahead.reshape(h, w)
    cloth = cv2.GaussianBlur(cloth, (0, 0), 0.7)  # the weave's threads, not a printer's edges
    renderer.background = np.where(keep[..., None], renderer.background,
                                   np.clip(cloth, 0, 255).astype(np.uint8))
