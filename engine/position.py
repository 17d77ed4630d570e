"""An immutable position: who stands where, and whose turn it is."""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Iterator

from . import movegen
from .move import Move
from .rules import CapturedRemoval, Colour, Rules
from .squares import BIT, BIT_INDEX, BOARD_MASK, SQUARE_OF_INDEX, squares_of


class Piece(enum.Enum):
    """What can stand on a square. A king is two men of one colour stacked."""

    DARK_MAN = "d"
    DARK_KING = "D"
    LIGHT_MAN = "l"
    LIGHT_KING = "L"

    @property
    def colour(self) -> Colour:
        return Colour.DARK if self in (Piece.DARK_MAN, Piece.DARK_KING) else Colour.LIGHT

    @property
    def is_king(self) -> bool:
        return self in (Piece.DARK_KING, Piece.LIGHT_KING)

    @classmethod
    def of(cls, colour: Colour, king: bool) -> "Piece":
        if colour is Colour.DARK:
            return cls.DARK_KING if king else cls.DARK_MAN
        return cls.LIGHT_KING if king else cls.LIGHT_MAN


# The side lists stop short of a closing "." so that "B:W1,2:B31,32." reads like PDN.
Board = tuple[int, int, int]  # (dark, light, kings): the pieces without the side to move


def place(board: Board, square: int, piece: Piece | None) -> Board:
    """The board with ``square`` holding ``piece`` (emptied for None)."""
    bit = BIT[square]
    dark, light, kings = board[0] & ~bit, board[1] & ~bit, board[2] & ~bit
    if piece is not None:
        if piece.colour is Colour.DARK:
            dark |= bit
        else:
            light |= bit
        if piece.is_king:
            kings |= bit
    return dark, light, kings


_FEN = re.compile(r"^\s*([BW])\s*((?::\s*[BW][^:.]*){0,2})\.?\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Position:
    """Pieces as bitboards (ghost-bit layout) and the side to move.

    >>> p = Position.from_fen("B:W1,2:BK18")
    >>> p.piece_at(18), p.turn
    (<Piece.DARK_KING: 'D'>, <Colour.DARK: 'dark'>)
    """

    dark: int
    light: int
    kings: int
    turn: Colour

    def __post_init__(self) -> None:
        if self.dark & self.light:
            raise ValueError("a square holds both a dark and a light piece")
        if (self.dark | self.light) & ~BOARD_MASK:
            raise ValueError("pieces off the played squares")
        if self.kings & ~(self.dark | self.light):
            raise ValueError("a king without a piece")

    # ------------------------------------------------------------ construction

    @classmethod
    def start(cls, rules: Rules | None = None) -> "Position":
        """The starting position of a rule set."""
        return cls.from_fen((rules or Rules()).start_fen())

    @classmethod
    def from_pieces(cls, pieces: dict[int, Piece], turn: Colour) -> "Position":
        """Build a position from a map of square to piece."""
        board: Board = (0, 0, 0)
        for square, piece in pieces.items():
            if not 1 <= square <= 32:
                raise ValueError(f"no square {square}: squares are numbered 1-32")
            board = place(board, square, piece)
        return cls(*board, turn)

    @classmethod
    def from_fen(cls, fen: str) -> "Position":
        """Parse a PDN FEN such as ``B:W1,2,K3:B25-28,32`` (ranges allowed).

        Raises ValueError with the reason for malformed input or a square given twice.
        """
        match = _FEN.match(fen)
        if not match:
            raise ValueError(f"malformed FEN {fen!r}: expected e.g. 'B:W1,2:B31,K32'")
        pieces: dict[int, Piece] = {}
        for part in filter(None, (p.strip() for p in match.group(2).split(":"))):
            colour = Colour.from_pdn(part[0])
            for token in filter(None, (t.strip() for t in part[1:].split(","))):
                king = token[:1].upper() == "K"
                body = token[1:] if king else token
                bounds = body.split("-")
                if len(bounds) > 2 or not all(b.strip().isdigit() for b in bounds):
                    raise ValueError(f"malformed FEN {fen!r}: bad square {token!r}")
                first, last = int(bounds[0]), int(bounds[-1])
                for square in range(first, last + 1):
                    if not 1 <= square <= 32:
                        raise ValueError(f"malformed FEN {fen!r}: no square {square}")
                    if square in pieces:
                        raise ValueError(f"malformed FEN {fen!r}: square {square} given twice")
                    pieces[square] = Piece.of(colour, king)
        return cls.from_pieces(pieces, Colour.from_pdn(match.group(1)))

    # ------------------------------------------------------------ queries

    def fen(self) -> str:
        """The PDN FEN, light pieces first: ``B:W1,2,K3:B25,26``."""

        def side(board: int) -> str:
            return ",".join(("K" if BIT[s] & self.kings else "") + str(s) for s in squares_of(board))

        return f"{self.turn.pdn}:W{side(self.light)}:B{side(self.dark)}"

    def piece_at(self, square: int) -> Piece | None:
        bit = BIT[square]
        if self.dark & bit:
            return Piece.of(Colour.DARK, bool(self.kings & bit))
        if self.light & bit:
            return Piece.of(Colour.LIGHT, bool(self.kings & bit))
        return None

    def pieces(self) -> dict[int, Piece]:
        """Map of occupied square to piece."""
        out = {}
        for square in squares_of(self.dark | self.light):
            piece = self.piece_at(square)
            assert piece is not None
            out[square] = piece
        return out

    def taken_by(self, after: "Position", start: int | None = None) -> tuple[int, ...]:
        """The squares of the opponent's pieces (of the side to move, or of the piece on
        ``start``: a move out of turn takes the other side's) that are gone in ``after``:
        what a change took, legal or not.

        >>> Position.from_fen("B:W1,18:B22").taken_by(Position.from_fen("W:W1:B15"))
        (18,)
        >>> Position.from_fen("W:W1,18:B22").taken_by(Position.from_fen("W:W1:B15"), 22)
        (18,)
        """
        mover = self.piece_at(start) if start is not None else None
        taker = self.turn if mover is None else mover.colour
        return tuple(sorted(s for s, p in self.pieces().items()
                            if p.colour is not taker and after.piece_at(s) is None))

    def pieces_of(self, colour: Colour) -> int:
        """The bitboard of one side's pieces."""
        return self.dark if colour is Colour.DARK else self.light

    def count(self, colour: Colour) -> int:
        return self.pieces_of(colour).bit_count()

    @property
    def board(self) -> Board:
        """The pieces without the side to move: what a camera can see."""
        return self.dark, self.light, self.kings

    def with_turn(self, turn: Colour) -> "Position":
        return Position(self.dark, self.light, self.kings, turn)

    # ------------------------------------------------------------ moves

    def _sides(self) -> tuple[int, int, bool]:
        if self.turn is Colour.DARK:
            return self.dark, self.light, True
        return self.light, self.dark, False

    def has_capture(self) -> bool:
        mine, theirs, up = self._sides()
        return movegen.has_capture(mine, theirs, self.kings, up)

    def legal_moves(self, rules: Rules | None = None) -> list[Move]:
        """Every legal move of the side to move, in a stable order."""
        mine, theirs, up = self._sides()
        immediate = (rules or Rules()).captured_removal is CapturedRemoval.IMMEDIATE
        raw = movegen.legal_moves(mine, theirs, self.kings, up, immediate)
        moves = [self._to_move(r, up) for r in raw]
        moves.sort(key=lambda m: (m.path, m.captured))
        return moves

    def plain_moves(self) -> list[Move]:
        """The non-capturing moves, legal or not (a referee names them when a capture was due)."""
        mine, theirs, up = self._sides()
        return [self._to_move(r, up) for r in movegen.quiet_moves(mine, theirs, self.kings, up)]

    def _to_move(self, raw: movegen.RawMove, up: bool) -> Move:
        origin, landings, captured = raw
        path = (SQUARE_OF_INDEX[origin],) + tuple(SQUARE_OF_INDEX[i] for i in landings)
        taken = tuple(_jumped(path[k], path[k + 1], captured) for k in range(len(path) - 1)) if captured else ()
        crowns = not (self.kings >> origin) & 1 and bool((1 << landings[-1]) & movegen.crown_row(up))
        return Move(path, taken, crowns)

    def play(self, move: Move) -> "Position":
        """The position after ``move`` (not checked for legality: see :meth:`legal_moves`)."""
        mine, theirs, up = self._sides()
        captured = 0
        for square in move.captured:
            captured |= BIT[square]
        raw = (BIT_INDEX[move.start], tuple(BIT_INDEX[s] for s in move.path[1:]), captured)
        mine, theirs, kings = movegen.apply(mine, theirs, self.kings, up, raw)
        if up:
            return Position(mine, theirs, kings, self.turn.opponent)
        return Position(theirs, mine, kings, self.turn.opponent)

    def __iter__(self) -> Iterator[tuple[int, Piece]]:
        return iter(self.pieces().items())

    def __str__(self) -> str:
        """An 8x8 diagram seen from the dark side (``.`` empty played square)."""
        rows = []
        for row in range(8):
            cells = []
            for col in range(8):
                if (row + col) % 2 == 0:
                    cells.append(" ")
                    continue
                piece = self.piece_at(4 * row + col // 2 + 1)
                cells.append(piece.value if piece else ".")
            rows.append(" ".join(cells))
        return "\n".join(rows)


def _jumped(frm: int, to: int, captured: int) -> int:
    """The piece taken on the jump from ``frm`` to ``to``: the one right before the landing.

    Every jump lands immediately behind the piece it takes, so that square, not the first
    captured square on the way, is the one: with immediate removal a king may fly back over
    a square it emptied earlier in the same chain (``18x11x25`` in ``B:BK18:W15,22``).
    """
    a, b = BIT_INDEX[frm], BIT_INDEX[to]
    step = next(s for s in (4, 5, -4, -5) if (b - a) % s == 0 and (b - a) // s > 0 and _on_ray(a, b, s))
    if (captured >> (b - step)) & 1:
        return SQUARE_OF_INDEX[b - step]
    raise ValueError(f"no captured piece right before {to} on the jump from {frm}")


def _on_ray(a: int, b: int, step: int) -> bool:
    i = a
    while i != b:
        i += step
        if not (0 <= i < 35 and (BOARD_MASK >> i) & 1):
            return False
    return True
