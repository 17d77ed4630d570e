"""A position as a small SVG diagram, for pages that must open offline (a review report).

The squares sit where the engine's grid puts them (:func:`engine.squares.row_col`, square 1
top left), as the rectified pictures beside them show the board.
"""

from __future__ import annotations

from makhos.engine import Colour
from makhos.engine.position import Piece, Position
from makhos.engine.squares import row_col

_FILL = {Piece.DARK_MAN: "#3a2a1e", Piece.DARK_KING: "#3a2a1e",
         Piece.LIGHT_MAN: "#f2e6c9", Piece.LIGHT_KING: "#f2e6c9"}


def letters(position: Position) -> str:
    """One letter per square 1-32: ``.`` empty, else the piece's (``d``, ``D``, ``l``, ``L``).

    >>> letters(Position.from_fen("B:W1:BK32"))
    'l..............................D'
    """
    return "".join(piece.value if (piece := position.piece_at(s)) else "." for s in range(1, 33))


def diagram(position: Position, size: int = 240, marked: tuple[int, ...] = ()) -> str:
    """The SVG of ``position``; ``marked`` squares (a ply's path) are outlined."""
    cell = size / 8
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
             f'viewBox="0 0 {size} {size}" class="diagram" data-position="{letters(position)}">',
             f'<rect width="{size}" height="{size}" fill="#e8d5b0"/>']
    for square in range(1, 33):
        row, col = row_col(square)
        x, y = col * cell, row * cell
        parts.append(f'<rect x="{x:g}" y="{y:g}" width="{cell:g}" height="{cell:g}" fill="#8b5a2b"'
                     + (' stroke="#ffd23f" stroke-width="3"' if square in marked else "") + "/>")
        piece = position.piece_at(square)
        if piece is None:
            continue
        cx, cy, r = x + cell / 2, y + cell / 2, cell * 0.38
        edge = "#f2e6c9" if piece.colour is Colour.DARK else "#3a2a1e"
        parts.append(f'<circle cx="{cx:g}" cy="{cy:g}" r="{r:g}" fill="{_FILL[piece]}" '
                     f'stroke="{edge}" stroke-width="1.5"/>')
        if piece.is_king:
            parts.append(f'<circle cx="{cx:g}" cy="{cy:g}" r="{r * 0.55:g}" fill="none" '
                         f'stroke="#d4a017" stroke-width="3"/>')
    parts.append("</svg>")
    return "".join(parts)
