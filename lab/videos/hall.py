"""What a playing hall puts in view that a clean render does not: a player's arm resting on
the board's edge, a scoresheet on the table beside the board.

Why: a camera over a real game sees more than the board and the hand that moves. A player
leans on the table between moves, a sleeve over the edge squares for seconds, lifted only
to play; a scoresheet's ruled lines lie beside the board, a grid of their own for a finder
that looks for one. Both are drawn in board units (x = col + 0.5, y = row + 0.5 of the
board's dark-side frame, dark side at y = 8), from a generator of their own, so a video
that asks for neither renders as it always did.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from lab.render import Hand, Renderer

#: Board units between the scoresheet's ruled lines (a line of the score is about 7 mm on
#: a 5 cm square).
RULED = 0.3


def resting_arm(rng: np.random.Generator, skin: tuple[int, int, int],
                sleeve: tuple[int, int, int]) -> Hand:
    """A forearm lying across one player's edge of the board: the hand up to a square in,
    over the edge squares, the sleeve toward the player."""
    dark = bool(rng.random() < 0.5)
    reach = float(rng.uniform(0.3, 1.2))  # squares in from the board's edge
    tip = (float(rng.uniform(1.0, 7.0)), 8.0 - reach if dark else reach)
    angle = math.pi / 2 if dark else -math.pi / 2
    return Hand(tip=tip, angle=angle + float(rng.uniform(-0.5, 0.5)),
                height=float(rng.uniform(0.05, 0.2)), width=float(rng.uniform(1.1, 1.5)),
                skin=skin, sleeve=sleeve)


def board_margin(renderer: Renderer) -> float:
    """Board units from the playing area's edge to the board's outer edge."""
    board = renderer.scene.board
    return board.border_width + (1.0 if board.border == "outer" else 0.0)


def board_to_image(renderer: Renderer, points: np.ndarray, centre: np.ndarray,
              turn: float) -> np.ndarray:
    """Board-plane ``points`` turned by ``turn`` about ``centre``, in the background's
    pixels times 16 (cv2's 4 fractional bits)."""
    rotation = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
    board = (np.asarray(points, float) - centre) @ rotation.T + centre
    pixels = cv2.perspectiveTransform(board.reshape(-1, 1, 2),
                                      renderer.scene.camera.board_homography()).reshape(-1, 2)
    return np.asarray(pixels * 16, np.int32)


def lay_scoresheet(renderer: Renderer, rng: np.random.Generator) -> None:
    """Draw a scoresheet into ``renderer``'s table: paper on the table beside the board,
    off the players' sides, ruled in lines with a column line and a boxed header, turned a
    little, in part out of view where the camera frames the board closely."""
    margin = board_margin(renderer)
    width, height = float(rng.uniform(2.5, 3.5)), float(rng.uniform(3.5, 5.0))
    left = bool(rng.random() < 0.5)
    gap = margin + float(rng.uniform(0.2, 1.0))
    x0 = -gap - width if left else 8.0 + gap
    y0 = float(rng.uniform(-0.5, 8.5 - height))
    turn = math.radians(float(rng.uniform(-12, 12)))
    centre = np.array([x0 + width / 2, y0 + height / 2])

    def to_image(points: np.ndarray) -> np.ndarray:
        return board_to_image(renderer, points, centre, turn)

    def line(a: tuple[float, float], b: tuple[float, float], ink: tuple[int, int, int]) -> None:
        p = to_image(np.array([a, b]))
        cv2.line(renderer.background, tuple(map(int, p[0])), tuple(map(int, p[1])), ink,
                 max(1, int(round(renderer.pps / 40))), cv2.LINE_AA, 4)

    paper = tuple(int(v) for v in rng.integers(215, 250, 3))
    ink = tuple(int(v) for v in rng.integers(40, 140, 3))
    x1, y1 = x0 + width, y0 + height
    outline = to_image(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]))
    cv2.fillConvexPoly(renderer.background, outline, (paper[0], paper[1], paper[2]), cv2.LINE_AA, 4)
    ruling = (ink[0], ink[1], ink[2])
    header = y0 + 0.8
    for y in np.arange(header, y1 - 0.1, RULED):
        line((x0 + 0.15, float(y)), (x1 - 0.15, float(y)), ruling)
    for x in (x0 + 0.15, x0 + width / 2, x1 - 0.15):
        line((x, y0 + 0.15), (x, y1 - 0.15), ruling)
    line((x0 + 0.15, y0 + 0.15), (x1 - 0.15, y0 + 0.15), ruling)

