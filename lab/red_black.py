"""The classic red and black paper board, rendered hostile: the board kind a finder that
looks at brightness alone loses.

Red squares and black squares, men of red and of black standing on the black squares, so
that every red man stands beside red squares: across a corner where a red man stands, two
of the four quadrants are red and the grid is all in the colour. The camera is low and
oblique, the room dim, and a glare may sit on the board (``lab.render`` draws the rest of
the nuisances: paper texture, a lens, noise, blur, JPEG).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from .render.palettes import BoardPalette, PieceSet, bgr
from .render.renderer import RenderedFrame, Renderer, random_position
from .render.scene import Scene, sample_scene

#: The reds of printed boards, from a deep red (little brighter than the black) to a bright one.
DEEP_RED, BRIGHT_RED = np.array(bgr("#7E1A18")), np.array(bgr("#C83A30"))
BLACK_SQUARES = bgr("#1C1C1E")
RED_MEN, BLACK_MEN = bgr("#C0282D"), bgr("#161616")


def red_black_scene(seed: int, hostile: bool = True) -> Scene:
    """A red and black paper board, its red drawn between a deep and a bright one; ``hostile``:
    seen from 28-45 degrees above the table, in a dim room (a third to two thirds of the
    light), with a glare on most of them."""
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
    return dataclasses.replace(scene, board=board, pieces=pieces, lighting=lighting)


def red_black_frame(seed: int, hostile: bool = True) -> RenderedFrame:
    """One frame of :func:`red_black_scene`, its men drawn at random (about 60 % of squares)."""
    scene = red_black_scene(seed, hostile)
    rng = np.random.default_rng([seed, 43])
    return Renderer(scene).render(random_position(rng, 0.6), seed=seed)
