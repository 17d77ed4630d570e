"""The window along the men's rows, settled by the rows themselves where the board's
surroundings differ from side to side (kingplay 70088: a lamp lit one side of the frame,
and the set-up's board, in view from the first frame, was found only once a ply was made).

Drawn from straight above, one pixel a working pixel: lattice node (i, j) is the board's
inner corner (i, j), so the window's inner corner (1, 1) is lattice (1, 1)."""

import cv2
import numpy as np
import pytest

from makhos.vision.locate import LocateConfig, _Features, _settled_by_rows, _settled_by_surroundings

PX = 24  # pixels a square
PAD = 3 * PX  # the frame and the table around the squares
LIGHT, DARK = np.array([200, 215, 225]), np.array([60, 120, 70])
FRAME_COLOUR, TABLE = np.array([50, 80, 80]), np.array([70, 130, 200])
CFG = LocateConfig()


def _board(men: tuple[np.ndarray, np.ndarray], lamp: bool) -> np.ndarray:
    """Eight by eight squares, two rows of men a side on the light squares, as in kingplay
    70088 (``men``: the colours of rows 0-1 and of rows 6-7), a frame of half a square, the
    table beyond; ``lamp``
    lights the picture more and more to the right."""
    size = 8 * PX + 2 * PAD
    image = np.empty((size, size, 3), np.float64)
    image[:] = TABLE
    half = PX // 2
    image[PAD - half:PAD + 8 * PX + half, PAD - half:PAD + 8 * PX + half] = FRAME_COLOUR
    for row in range(8):
        for col in range(8):
            y, x = PAD + row * PX, PAD + col * PX
            image[y:y + PX, x:x + PX] = DARK if (row + col) % 2 else LIGHT
            if (row + col) % 2 == 0 and row in (0, 1, 6, 7):
                colour = men[0] if row < 2 else men[1]
                cv2.circle(image, (x + half, y + half), int(PX * 0.4), colour.tolist(), -1, cv2.LINE_AA)
    if lamp:  # brighter and brighter to the right
        image = image * np.linspace(1.0, 2.0, size)[None, :, None]
    return np.clip(image, 0, 255).astype(np.uint8)


def _settle(image: np.ndarray, by) -> np.ndarray | None:
    """The window ``by`` settles, the men's rows running across the picture (the columns
    are all placed: lines of squares 0-7; the rows only where empty: 2-5)."""
    h = np.array([[PX, 0, PAD], [0, PX, PAD], [0, 0, 1]], np.float64)
    feat = _Features(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32), np.zeros((0, 2), np.float32), 1.0)
    return by(image, feat, h, [(0, 8), (2, 4)], CFG)


def test_the_men_rows_settle_the_window_where_a_lamp_lights_one_side():
    image = _board((np.array([170, 200, 210]), np.array([25, 25, 30])), lamp=True)
    assert _settle(image, _settled_by_surroundings) is None  # the lit side is unlike the others
    assert _settle(image, _settled_by_rows).tolist() == [1, 1]


@pytest.mark.parametrize("lamp", [False, True])
def test_men_the_colour_of_the_squares_beside_them_settle_nothing(lamp):
    """Kingplay 70005: dark men as dark as the empty squares between them. Their rows do
    not zigzag, no run of eight lines shows, and no window is guessed."""
    image = _board((np.array([170, 200, 210]), DARK), lamp=lamp)
    assert _settle(image, _settled_by_rows) is None


def test_a_window_a_row_off_is_never_settled():
    """Lines of squares past the board that zigzag too (a ring of squares, another board
    beside) make a run longer than eight: no window."""
    image = _board((np.array([170, 200, 210]), np.array([25, 25, 30])), lamp=False)
    y = PAD + 8 * PX
    for col in range(8):  # a ninth row of squares past the dark men
        x = PAD + col * PX
        image[y:y + PX, x:x + PX] = DARK if (8 + col) % 2 else LIGHT
    assert _settle(image, _settled_by_rows) is None


def test_a_line_past_the_board_that_zigzags_a_little_settles_nothing():
    """Kingplay 70005: a line straddling the board's edge and the table, seen from low down,
    zigzags a little; a run of eight ending there was a window a row off. A window is
    settled only with a line clearly still on either side."""
    image = _board((np.array([170, 200, 210]), np.array([25, 25, 30])), lamp=True)
    assert _settle(image, _settled_by_rows).tolist() == [1, 1]
    y = PAD + 8 * PX
    for col in range(8):  # the line past the dark men: the table, every other square a shade off
        x = PAD + col * PX
        image[y:y + PX, x:x + PX] = TABLE + (16 if col % 2 else 0)
    assert _settle(image, _settled_by_rows) is None
