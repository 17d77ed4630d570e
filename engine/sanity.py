"""Positions no game can reach: refused with the reason, never analysed as if legal.

A FEN typed by hand, or the board an irregular ply left, can hold what the rules never
allow: a man on the row where it would have been crowned, more pieces than a side starts
with. The search and the endgame tables assume none of that, so a position is checked here
before it is searched.

>>> impossibility(Position.from_fen("B:W29,30,31,5:B1,2,3,24"), Rules())
'a dark man on 1, the row where it would have been crowned'
>>> impossibility(Position.start(Rules()), Rules()) is None
True
"""

from __future__ import annotations

from .position import Position
from .rules import Colour, Rules
from .squares import BIT, BOTTOM_ROW, TOP_ROW


def impossibility(position: Position, rules: Rules) -> str | None:
    """Why no game under ``rules`` reaches ``position``; None when one may."""
    pieces = position.pieces()
    for colour, crowning_row in ((Colour.DARK, TOP_ROW), (Colour.LIGHT, BOTTOM_ROW)):
        side = [square for square, piece in pieces.items() if piece.colour is colour]
        if len(side) > rules.men_per_side:
            return (f"{colour.value} has {len(side)} pieces, more than the {rules.men_per_side} "
                    f"men a side starts with")
        for square in sorted(side):
            if BIT[square] & crowning_row and not pieces[square].is_king:
                return f"a {colour.value} man on {square}, the row where it would have been crowned"
    return None


def game_over(position: Position) -> str | None:
    """Why there is nothing to search: the side to move has no piece left."""
    turn = position.turn
    if not any(piece.colour is turn for piece in position.pieces().values()):
        return f"the game is over: {turn.value} has no pieces"
    return None


def no_start(position: Position, rules: Rules) -> str | None:
    """Why no game can start from ``position`` (a FEN the referee typed, a board the camera
    read): no game reaches it, or it would be over before it began; None when one can.

    >>> no_start(Position.from_fen("W:W29:B14"), Rules())
    'no game reaches W:W29:B14: a light man on 29, the row where it would have been crowned'
    >>> no_start(Position.from_fen("B:W22,25:B29"), Rules())
    'dark has no move: the game would be over before it began'
    """
    why = impossibility(position, rules)
    if why is not None:
        return f"no game reaches {position.fen()}: {why}"
    over = game_over(position)
    if over is None and not position.legal_moves(rules):
        over = f"{position.turn.value} has no move: the game would be over before it began"
    return over
