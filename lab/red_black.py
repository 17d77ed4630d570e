"""The classic red and black paper board, rendered hostile: the board kind a finder that
looks at brightness alone loses.

Red squares and black squares, men of red and of black standing on the black squares, so
that every red man stands beside red squares: across a corner where a red man stands, two
of the four quadrants are red and the grid is all in the colour. The camera is low and
oblique, the room dim, and a glare may sit on the board (``lab.render`` draws the rest of
the nuisances: paper texture, a lens, noise, blur, JPEG). ``surroundings`` adds what a
kitchen table adds: a frame of the board's own red or black (or of wood), and a patterned
cloth under it (gingham, itself a checkerboard, or stripes), seen in the same perspective.
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


def red_black_frame(seed: int, hostile: bool = True, surroundings: bool = False) -> RenderedFrame:
    """One frame of :func:`red_black_scene`, its men drawn at random (about 60 % of squares),
    on a patterned cloth where ``surroundings`` (on four in five)."""
    scene = red_black_scene(seed, hostile, surroundings)
    renderer = Renderer(scene)
    cloth = np.random.default_rng([seed, 45])
    if surroundings and cloth.random() < 0.8:
        lay_cloth(renderer, cloth)
    rng = np.random.default_rng([seed, 43])
    return renderer.render(random_position(rng, 0.6), seed=seed)


def lay_cloth(renderer: Renderer, rng: np.random.Generator) -> None:
    """Lay a patterned cloth on the table around the board: gingham (two crossing sets of
    stripes, three shades: a checkerboard of its own) or stripes, its period 0.3-1.5 of a
    square, turned at random, drawn on the table's plane so perspective shrinks it as it
    does the board."""
    camera = renderer.scene.camera
    w, h = camera.size
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    to_table = np.linalg.inv(camera.board_homography())
    pixels = np.stack([xs.ravel(), ys.ravel(), np.ones(w * h, np.float32)])
    x, y, z = to_table @ pixels
    ahead = z > 1e-6  # above the horizon the plane is behind the camera: no cloth there
    z = np.where(ahead, z, 1.0)
    angle, period = rng.uniform(0, np.pi), rng.uniform(0.3, 1.5)
    u = (x / z * np.cos(angle) + y / z * np.sin(angle)) / period
    v = (y / z * np.cos(angle) - x / z * np.sin(angle)) / period
    weave = (u % 1 < 0.5).astype(np.float32)
    if rng.random() < 0.6:  # gingham: the crossing set too, the crossings darkest
        weave = (weave + (v % 1 < 0.5)) / 2
    colour = np.asarray(CLOTHS[int(rng.integers(len(CLOTHS)))], np.float32)
    light = np.asarray(CLOTH_LIGHT, np.float32)
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
