"""The light on the board, from the cells no piece is played on: a shadow or a lamp apart from
a move.

Why: the square reader is adapted to the light of the frames the game taught it. A person's
shadow falling over half the board, or a lamp switched off, darkens many squares at once,
and the reader, still in the old light, then reads men on empty squares and the other side
on men (kingplay 70012: 15 squares wrong from the moment a shadow fell). The board says what
the light did on its own: the cells of the colour not in play hold no piece, so their
brightness changes only with the light (a piece standing side-on hides a corner of the cell
behind it; a cell's median looks past that). A move changes a few of those cells at most; a
change of light changes many together.
"""

from __future__ import annotations

import cv2
import numpy as np

from .rectify import board_to_image, played_cells

#: Pixels per cell of the small picture of the board the light is measured on.
CELL_PX = 8
#: Added to grey levels before taking logs, so that dark cells do not make noisy ratios.
FLOOR = 8.0
#: How far (log of brightness, about 15 %) a cell's light must move to count as changed.
STEP = 0.15
#: How many of the 32 cells out of play must change alike for the board's light to have
#: changed: a man moved or a hand's wrist changes a few cells, a shadow or a lamp many.
CELLS = 8


def empty_cells(played: str) -> np.ndarray:
    """(32, 2) the (row, col) of the cells no piece is played on, in the board's own frame."""
    taken = {tuple(cell) for cell in played_cells(played)}
    return np.array([(r, c) for r in range(8) for c in range(8) if (r, c) not in taken])


def cell_light(image: np.ndarray, corners: np.ndarray, played: str) -> np.ndarray:
    """(32,) the log brightness of each cell out of play (:func:`empty_cells` order): the
    median grey of its inner half, on a small rectified picture of the board."""
    to_image = board_to_image(corners) @ np.diag([1.0 / CELL_PX, 1.0 / CELL_PX, 1.0])
    side = 8 * CELL_PX
    board = cv2.warpPerspective(image, to_image, (side, side), flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP)
    grey = board.astype(np.float32).mean(axis=2) if board.ndim == 3 else board.astype(np.float32)
    inner = slice(CELL_PX // 4, CELL_PX - CELL_PX // 4)
    cells = grey.reshape(8, CELL_PX, 8, CELL_PX)[:, inner, :, inner]
    medians = np.median(cells.transpose(0, 2, 1, 3).reshape(8, 8, -1), axis=2)
    rows, cols = empty_cells(played).T
    light: np.ndarray = np.log(medians[rows, cols] + FLOOR)
    return light


def light_changed(light: np.ndarray, reference: np.ndarray) -> bool:
    """Whether the board's light moved from ``reference`` to ``light`` (both
    :func:`cell_light`): at least :data:`CELLS` cells out of play brighter, or darker, by
    :data:`STEP` or more."""
    change = light - reference
    return max(int((change >= STEP).sum()), int((change <= -STEP).sum())) >= CELLS
