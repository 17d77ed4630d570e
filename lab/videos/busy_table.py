"""What a busy hall puts on the table that a quiet one does not: men put down off-centre
and left there, the next table's board at the frame's edge and played on, a phone laid on
the board's edge, the captured men stacked beside the board.

Why: each is a thing real games show and the product had never met. A man leaning into the
next square is still on its square; a board beside the board is a second grid, with men
that move where no move of this game was made; a phone over the border changes the board's
outline; stacked men beside the board are pieces off the board. All are drawn in board units
(x = col + 0.5, y = row + 0.5 of the board's dark-side frame, dark side at y = 8), from a
generator of their own (``[seed, 4]``), so a video that asks for none of them renders as it
always did.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from makhos.vision.rectify import played_cells
from lab.render import Renderer
from lab.render.renderer import Disc
from lab.render.textures import TEXTURE_PPS, board_texture

from .hall import board_margin, board_to_image
from .nuisances import Nuisances
from .script import Board, Shot


def lay_phone(renderer: Renderer, rng: np.random.Generator) -> None:
    """Draw into ``renderer``'s table a phone laid on the board's edge: dark glass in a
    bezel, over the border and reaching at most a quarter of a square into the edge
    squares (and a little more at a corner, turned), its screen catching the lamp."""
    length, width = float(rng.uniform(2.6, 3.2)), float(rng.uniform(1.2, 1.5))
    edge = int(rng.integers(4))  # 0: far, 1: near (the dark player's), 2: left, 3: right
    along = float(rng.uniform(0.5, 7.5 - length))
    into = float(rng.uniform(0.0, 0.25))  # squares over the playing area
    inner = into if edge in (0, 2) else 8.0 - into
    outer = inner - width if edge in (0, 2) else inner + width
    near, far = min(inner, outer), max(inner, outer)
    if edge < 2:
        x0, x1, y0, y1 = along, along + length, near, far
    else:
        x0, x1, y0, y1 = near, far, along, along + length
    centre = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
    turn = math.radians(float(rng.uniform(-5, 5)))
    bezel = tuple(int(v) for v in rng.integers(10, 60, 3))
    glass = tuple(int(v) for v in rng.integers(15, 45, 3))
    inset = 0.08
    for (a, b, c, d), colour in (((x0, y0, x1, y1), bezel),
                                 ((x0 + inset, y0 + inset, x1 - inset, y1 - inset), glass)):
        outline = board_to_image(renderer, np.array([[a, b], [c, b], [c, d], [a, d]]), centre, turn)
        cv2.fillConvexPoly(renderer.background, outline, (colour[0], colour[1], colour[2]),
                           cv2.LINE_AA, 4)
    # The lamp's reflection on the glass: a pale streak across a corner of the screen.
    u = float(rng.uniform(0.2, 0.6))
    streak = np.array([[x0 + inset, y0 + inset + u * (y1 - y0) * 0.5],
                       [x0 + inset + u * (x1 - x0) * 0.5, y0 + inset], [x0 + inset, y0 + inset]])
    shine = int(rng.integers(90, 200))
    cv2.fillConvexPoly(renderer.background, board_to_image(renderer, streak, centre, turn),
                       (shine, shine, shine), cv2.LINE_AA, 4)


def _stack(x: float, y: float, count: int, light: bool, renderer: Renderer) -> list[Disc]:
    """``count`` men of one side stacked at (x, y) on the table, bottom to top."""
    style = renderer.scene.pieces
    return [(x, y, k * style.height, (k + 1) * style.height, light, style.radius)
            for k in range(count)]


def captured_stacks(renderer: Renderer, start: Board, board: Board, right: bool) -> list[Disc]:
    """The men taken so far (``start`` less ``board``), stacked by fours on the table beside
    the board, each side's captures at the capturer's end (the dark player sits at y = 8):
    a piece's shape off the board, growing as the game goes."""
    x = 8.0 + board_margin(renderer) + 0.6 if right else -board_margin(renderer) - 0.6
    discs: list[Disc] = []
    for light, y, step in ((True, 7.3, -0.85), (False, 0.7, 0.85)):
        taken = (sum(v in "lL" for v in start.values()) - sum(v in "lL" for v in board.values())
                 if light else
                 sum(v in "dD" for v in start.values()) - sum(v in "dD" for v in board.values()))
        for k in range(0, max(taken, 0), 4):
            discs += _stack(x, y + step * (k // 4), min(4, taken - k), light, renderer)
    return discs


class NextBoard:
    """The next table's board at the frame's edge: the same set, left, right or behind this
    board, started with eight men a side and played on now and then (a man moved to a free
    square beside it, or taken)."""

    def __init__(self, renderer: Renderer, rng: np.random.Generator, duration: float) -> None:
        self._renderer = renderer
        margin = board_margin(renderer)
        gap = 2 * margin + 8.0 + float(rng.uniform(0.8, 2.0))
        self.offset = [(-gap, 0.0), (gap, 0.0), (0.0, -gap)][int(rng.integers(3))]
        cells = played_cells(renderer.scene.played)
        self._cells = [(c + 0.5, r + 0.5) for r, c in cells]
        board: dict[int, bool] = {k: k < 8 for k in range(32) if k < 8 or k >= 24}
        self.boards = [dict(board)]
        self.times = [0.0]
        time = float(rng.uniform(2.0, 8.0))
        while time < duration:
            piece = sorted(board)[int(rng.integers(len(board)))]
            free = [k for k in range(32) if k not in board
                    and abs(self._cells[k][0] - self._cells[piece][0]) == 1
                    and abs(self._cells[k][1] - self._cells[piece][1]) == 1]
            if free and rng.random() < 0.8:
                board[free[int(rng.integers(len(free)))]] = board[piece]
            del board[piece]
            self.boards.append(dict(board))
            self.times.append(time)
            time += float(rng.uniform(3.0, 9.0))

    def lay_board(self) -> None:
        """Draw the board itself into the renderer's table (it never changes)."""
        renderer = self._renderer
        texture, margin = board_texture(renderer.scene.board)
        s = 1.0 / TEXTURE_PPS
        to_board = np.array([[s, 0, 0.5 * s - margin + self.offset[0]],
                             [0, s, 0.5 * s - margin + self.offset[1]], [0, 0, 1]])
        w, h = renderer.scene.camera.size
        cv2.warpPerspective(texture, renderer.scene.camera.board_homography() @ to_board, (w, h),
                            dst=renderer.background, flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_TRANSPARENT)

    def state(self, time: float) -> int:
        """Which of :attr:`boards` stands at ``time``."""
        return int(np.searchsorted(self.times, time, side="right")) - 1

    def men(self, state: int) -> list[Disc]:
        """The discs of the men of board ``state``."""
        style = self._renderer.scene.pieces
        return [(x + self.offset[0], y + self.offset[1], 0.0, style.height, light, style.radius)
                for k, light in self.boards[state].items() for x, y in [self._cells[k]]]


def nudges(shots: Sequence[Shot], chance: float, rng: np.random.Generator
           ) -> list[tuple[dict[int, tuple[float, float]], dict[int, tuple[float, float]]]]:
    """For each shot, the men standing off their square's centre on its ``board`` and on
    its ``after`` (board units): a man put down leaning into the next square (``chance``
    a move), now and then one nudged by a sleeve; each stays until it moves or is taken."""
    out = []
    standing: dict[int, tuple[float, float]] = {}
    previous: Board | None = None

    def update(board: Board) -> dict[int, tuple[float, float]]:
        nonlocal previous, standing
        if previous is not None and board != previous:
            standing = {sq: d for sq, d in standing.items() if board.get(sq) == previous.get(sq)}
            landed = [sq for sq in board if sq not in previous]
            for sq in landed:
                if rng.random() < chance:
                    standing[sq] = _lean(rng)
            resting = [sq for sq in board if sq not in landed and sq not in standing]
            if resting and rng.random() < chance / 3:
                standing[resting[int(rng.integers(len(resting)))]] = _lean(rng)
        previous = board
        return dict(standing)

    for shot in shots:
        before = update(shot.board)
        out.append((before, before if shot.after is None else update(shot.after)))
    return out


def _lean(rng: np.random.Generator) -> tuple[float, float]:
    """A man's offset toward a neighbouring square, 0.15-0.35 of a square."""
    angle = float(rng.uniform(0, 2 * np.pi))
    size = float(rng.uniform(0.15, 0.35))
    return size * math.cos(angle), size * math.sin(angle)


class BusyTable:
    """What a busy hall puts on ``renderer``'s table for one video of ``shots``, as the
    game goes: laid once (a phone, the next board), redrawn when it changes (the next
    board's men, the captured stacks), and the men standing off-centre per shot
    (:attr:`nudged`: for each shot, on its board and on its ``after``)."""

    def __init__(self, renderer: Renderer, shots: Sequence[Shot], nuisances: Nuisances,
                 duration: float) -> None:
        rng = np.random.default_rng([nuisances.seed, 4])
        self._renderer = renderer
        self._shots = shots
        if nuisances.phone:
            lay_phone(renderer, rng)
        self.next_board = NextBoard(renderer, rng, duration) if nuisances.second_board else None
        if self.next_board is not None:
            self.next_board.lay_board()
        self._captured_right = bool(rng.random() < 0.5) if nuisances.captured_beside else None
        self._table = renderer.background.copy()
        self._drawn: tuple[int, list[Disc]] | None = None
        self.nudged = nudges(shots, nuisances.nudged, rng) if nuisances.nudged > 0 else [
            ({}, {}) for _ in shots]

    def update(self, time: float, index: int) -> bool:
        """Redraw the table for ``time`` in shot ``index``; whether it changed (the pictures
        rendered before no longer show it)."""
        state = -1 if self.next_board is None else self.next_board.state(time)
        discs = [] if self.next_board is None else self.next_board.men(state)
        if self._captured_right is not None:
            discs += captured_stacks(self._renderer, self._shots[0].board,
                                     self._shots[index].board, self._captured_right)
        if self._drawn == (state, discs):
            return False
        self._drawn = (state, discs)
        self._renderer.background = self._table.copy()
        self._renderer.draw_discs(self._renderer.background, discs)
        return True
