"""The 32 played squares, their numbering and the bit layout used by the bitboards.

Numbering follows PDN: squares 1-4 on the row farthest from the dark side (which sits
on 25-32 and, by default, moves first), left to right as the dark player sees the board;
square 29 is dark's left ("single") corner.

Geometry: ``row`` 0 is the far row (squares 1-4) and ``col`` 0 is dark's left edge, so
square 29 is at (7, 0) and the played squares are those with ``row + col`` odd.

Bitboards use a 35-bit layout with a "ghost" bit after every second row (bits 8, 17 and
26). With the ghosts in place every diagonal step is a shift by 4 or 5 bits and a step off
the board lands on a ghost or outside the mask, so move generation needs no edge masks.
"""

from __future__ import annotations

from typing import Final

SQUARES: Final[tuple[int, ...]] = tuple(range(1, 33))


def _bit_index(square: int) -> int:
    row, i = divmod(square - 1, 4)
    return 9 * (row // 2) + 4 * (row % 2) + i


#: Bit index of each square, indexed by square number (index 0 unused).
BIT_INDEX: Final[tuple[int, ...]] = (-1,) + tuple(_bit_index(s) for s in SQUARES)
#: Single-bit mask of each square, indexed by square number (index 0 unused).
BIT: Final[tuple[int, ...]] = (0,) + tuple(1 << _bit_index(s) for s in SQUARES)
#: All 32 played squares as a bitboard.
BOARD_MASK: Final[int] = sum(BIT[1:])
#: Square number of each bit index (0 for ghost bits).
SQUARE_OF_INDEX: Final[dict[int, int]] = {_bit_index(s): s for s in SQUARES}

#: Rows 1-4 and 29-32 as bitboards: where light and dark men are crowned.
TOP_ROW: Final[int] = BIT[1] | BIT[2] | BIT[3] | BIT[4]
BOTTOM_ROW: Final[int] = BIT[29] | BIT[30] | BIT[31] | BIT[32]


def row_col(square: int) -> tuple[int, int]:
    """Return (row, col) of a square on the 8x8 grid seen from the dark side.

    >>> row_col(1), row_col(29), row_col(32)
    ((0, 1), (7, 0), (7, 6))
    """
    if not 1 <= square <= 32:
        raise ValueError(f"no square {square}: squares are numbered 1-32")
    row, i = divmod(square - 1, 4)
    return row, 2 * i + (1 if row % 2 == 0 else 0)


def square_at(row: int, col: int) -> int | None:
    """Return the square number at (row, col), or None for an unplayed square.

    >>> square_at(7, 0), square_at(0, 0)
    (29, None)
    """
    if not (0 <= row < 8 and 0 <= col < 8) or (row + col) % 2 == 0:
        return None
    return 4 * row + col // 2 + 1


def squares_of(bitboard: int) -> list[int]:
    """The squares set in a bitboard, in increasing order."""
    out = []
    while bitboard:
        low = bitboard & -bitboard
        out.append(SQUARE_OF_INDEX[low.bit_length() - 1])
        bitboard ^= low
    out.sort()
    return out
