"""The referee: explain a change between two positions, as an arbiter would.

:func:`explain` compares the position before a turn with the board as observed (only the
pieces count; the observed side to move is ignored) and says what happened: a legal move,
a capture chain still in progress or stopped early, a plain move made while a capture was
compulsory, two plies at once, a takeback, a crowning not yet done, a move by the wrong
side, or an illegal change with a reason a referee understands.

Tolerances model what players really do over the board: the captured men are lifted
after the capturing piece lands, and the opponent stacks the crowning man a few seconds
after it arrives. A candidate that only differs from the board by such pending steps is a
match, reported with what is still pending.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Sequence

from .move import Move
from .position import Piece, Position
from .rules import Colour, Rules
from .squares import row_col


class Verdict(enum.Enum):
    UNCHANGED = "unchanged"
    MOVE = "move"  # one legal move explains the board (``candidates`` has one entry)
    AMBIGUOUS = "ambiguous"  # several legal moves give the same board
    PARTIAL_CHAIN = "partial chain"  # the capturing piece stands on an inner landing
    MISSED_CAPTURE = "missed capture"  # a plain move while a capture was compulsory
    TWO_PLIES = "two plies"  # a move and the reply, seen at once
    TAKEBACK = "takeback"  # the board is back at an earlier position
    WRONG_SIDE = "wrong side"  # a legal move of the side not to move
    ILLEGAL = "illegal"  # nothing legal explains it


@dataclass(frozen=True, slots=True)
class Pending:
    """Steps of a move still to be done on the board."""

    removals: frozenset[int] = frozenset()  # captured pieces not lifted yet
    crownings: frozenset[int] = frozenset()  # new kings not stacked yet

    def __bool__(self) -> bool:
        return bool(self.removals or self.crownings)


@dataclass(frozen=True, slots=True)
class Explanation:
    """What a change on the board means.

    ``candidates`` holds the move sequences that explain it (one move each, two for
    TWO_PLIES, the full legal chains for PARTIAL_CHAIN); ``missed`` the captures that were
    compulsory when a plain move was made; ``plies_back`` the depth of a takeback.
    """

    verdict: Verdict
    reason: str
    candidates: tuple[tuple[Move, ...], ...] = ()
    pending: Pending = field(default_factory=Pending)
    missed: tuple[Move, ...] = ()
    plies_back: int = 0
    landed_on: int | None = None  # PARTIAL_CHAIN: where the capturing piece stands now

    @property
    def move(self) -> Move | None:
        """The single move of an unambiguous MOVE verdict."""
        if self.verdict is Verdict.MOVE:
            return self.candidates[0][0]
        return None


Board = tuple[int, int, int]  # (dark, light, kings): a position without its side to move


def board_of(position: Position) -> Board:
    return position.dark, position.light, position.kings


def explain(
    before: Position,
    observed: Position,
    rules: Rules | None = None,
    earlier: Sequence[Position] = (),
) -> Explanation:
    """Explain the change from ``before`` (side to move: ``before.turn``) to ``observed``.

    ``earlier`` lists the game's positions before ``before``, oldest first, so that a
    return to one of them is recognised as a takeback.

    >>> start = Position.start()
    >>> explain(start, start.play(start.legal_moves()[0])).reason
    'dark played 25-21'
    """
    rules = rules or Rules()
    seen = board_of(observed)
    side = before.turn
    name = side.value
    if seen == board_of(before):
        return Explanation(Verdict.UNCHANGED, "no change")

    legal = before.legal_moves(rules)
    exact, tolerant = _matches(before, legal, observed)
    if exact or tolerant:
        found = exact or tolerant
        moves = tuple((m,) for m, _ in found)
        pending = found[0][1]
        if len(found) > 1:
            listed = ", ".join(str(m) for m, _ in found)
            return Explanation(Verdict.AMBIGUOUS, f"{name} played one of {listed}", moves, pending)
        move = found[0][0]
        return Explanation(Verdict.MOVE, f"{name} played {move}{_pending_text(pending)}", moves, pending)

    for back, position in enumerate(reversed(earlier), start=1):
        if board_of(position) == seen:
            return Explanation(Verdict.TAKEBACK, f"the board is back as it was {back} ply(s) ago",
                               plies_back=back)

    partial = _partial_chains(before, legal, observed)
    if partial:
        return partial

    if before.has_capture():
        plain = [(m, p) for m, p in _matches_any(before, before.plain_moves(), observed)]
        if plain:
            move, pending = plain[0]
            missed = tuple(legal)
            listed = ", ".join(str(m) for m in missed)
            return Explanation(
                Verdict.MISSED_CAPTURE,
                f"{name} played {move} while a capture was compulsory ({listed})",
                ((move,),), pending, missed,
            )

    pairs = []
    for first in legal:
        middle = before.play(first)
        for reply, pending in _matches_any(middle, middle.legal_moves(rules), observed,
                                           crowned_before=first):
            pairs.append(((first, reply), pending))
    if pairs:
        listed = ", ".join(f"{a} {b}" for (a, b), _ in pairs)
        return Explanation(Verdict.TWO_PLIES, f"two plies at once: {listed}",
                           tuple(p for p, _ in pairs), pairs[0][1])

    other = before.with_turn(side.opponent)
    wrong = _matches_any(other, other.legal_moves(rules), observed)
    if wrong:
        move, pending = wrong[0]
        moved_last = bool(earlier) and earlier[-1].turn is side.opponent
        verb = "moved twice" if moved_last else "moved out of turn"
        return Explanation(Verdict.WRONG_SIDE, f"{side.opponent.value} {verb} ({move})",
                           ((move,),), pending)

    return Explanation(Verdict.ILLEGAL, describe_change(before, observed))


# ---------------------------------------------------------------- matching


def _matches(before: Position, moves: list[Move], observed: Position):
    """Split the moves that explain ``observed`` into exact and tolerant matches."""
    exact, tolerant = [], []
    for move, pending in _matches_any(before, moves, observed):
        (tolerant if pending else exact).append((move, pending))
    return exact, tolerant


def _matches_any(before: Position, moves: list[Move], observed: Position,
                 crowned_before: Move | None = None) -> list[tuple[Move, Pending]]:
    out = []
    for move in moves:
        crown_squares = {move.end} if move.crowns else set()
        if crowned_before is not None and crowned_before.crowns:
            crown_squares.add(crowned_before.end)
        pending = _pending(before, before.play(move), observed, set(move.captured), crown_squares)
        if pending is not None:
            out.append((move, pending))
    return out


def _pending(before: Position, expected: Position, observed: Position,
             removable: set[int], crown_squares: set[int]) -> Pending | None:
    """What is still to be done if ``observed`` is ``expected`` in progress; None if not."""
    removals, crownings = set(), set()
    for square in _differing_squares(board_of(expected), board_of(observed)):
        seen = observed.piece_at(square)
        want = expected.piece_at(square)
        if square in removable and want is None and seen is not None and seen == before.piece_at(square):
            removals.add(square)
        elif (square in crown_squares and want is not None and want.is_king and seen is not None
              and not seen.is_king and seen.colour is want.colour):
            crownings.add(square)
        else:
            return None
    return Pending(frozenset(removals), frozenset(crownings))


def _partial_chains(before: Position, legal: list[Move], observed: Position) -> Explanation | None:
    """The capturing piece on an inner landing of a legal chain (shown one jump at a time)."""
    found: dict[tuple[int, ...], list[Move]] = {}
    pendings: dict[tuple[int, ...], Pending] = {}
    mover = before.piece_at(legal[0].start) if legal else None
    for move in legal:
        for j in range(1, len(move.path) - 1):
            prefix = move.path[: j + 1]
            if prefix in found:
                found[prefix].append(move)
                continue
            pieces = before.pieces()
            piece = pieces.pop(move.start)
            for square in move.captured[:j]:
                pieces.pop(square)
            pieces[move.path[j]] = piece
            expected = Position.from_pieces(pieces, before.turn)
            pending = _pending(before, expected, observed, set(move.captured[:j]), set())
            if pending is not None:
                found[prefix] = [move]
                pendings[prefix] = pending
    if not found or mover is None:
        return None
    prefix = max(found, key=len)
    chains = tuple((m,) for m in found[prefix])
    shown = "x".join(map(str, prefix))
    rest = ", ".join(str(m) for (m,) in chains)
    return Explanation(
        Verdict.PARTIAL_CHAIN,
        f"{before.turn.value} capture chain not finished: {shown} must go on ({rest})",
        chains, pendings[prefix], landed_on=prefix[-1],
    )


def _differing_squares(a: Board, b: Board) -> list[int]:
    from .squares import squares_of

    return squares_of((a[0] ^ b[0]) | (a[1] ^ b[1]) | (a[2] ^ b[2]))


def _pending_text(pending: Pending) -> str:
    parts = []
    if pending.removals:
        parts.append("captured pieces still on " + ", ".join(map(str, sorted(pending.removals))))
    if pending.crownings:
        parts.append("not crowned yet on " + ", ".join(map(str, sorted(pending.crownings))))
    return f" ({'; '.join(parts)})" if parts else ""


# ---------------------------------------------------------------- describing illegal changes


def _piece_name(piece: Piece) -> str:
    return f"{piece.colour.value} {'king' if piece.is_king else 'man'}"


def describe_change(before: Position, observed: Position) -> str:
    """A referee's sentence for a change no legal move explains."""
    old, new = before.pieces(), observed.pieces()
    gone = {s: p for s, p in old.items() if new.get(s) != p}
    came = {s: p for s, p in new.items() if old.get(s) != p}
    movers = [(a, b) for a, pa in gone.items() for b, pb in came.items()
              if pa.colour is pb.colour and (pa == pb or (not pa.is_king and pb.is_king))]
    if len(came) == 1 and len(movers) == 1:
        start, end = movers[0]
        piece = gone[start]
        taken = [s for s, p in gone.items() if s != start and p.colour is not piece.colour]
        others = [s for s in gone if s != start and s not in taken]
        if not others:
            return _describe_step(before, piece, start, end, taken)
    parts = []
    for square, piece in sorted(gone.items()):
        if square not in came:
            parts.append(f"{_piece_name(piece)} removed from {square}")
    for square, piece in sorted(came.items()):
        if square in gone:
            parts.append(f"{_piece_name(gone[square])} on {square} became a {_piece_name(piece)}")
        else:
            parts.append(f"{_piece_name(piece)} appeared on {square}")
    return "; ".join(parts) or "illegal change"


def _describe_step(before: Position, piece: Piece, start: int, end: int, taken: list[int]) -> str:
    colour = piece.colour
    text = f"{start}{'x' if taken else '-'}{end}"
    if colour is not before.turn:
        return f"{colour.value} moved out of turn ({text})"
    (r0, c0), (r1, c1) = row_col(start), row_col(end)
    dr, dc = r1 - r0, c1 - c0
    forward = -1 if colour is Colour.DARK else 1
    if abs(dr) != abs(dc):
        return f"{_piece_name(piece)} left its diagonal ({text})"
    between = _squares_between(start, end)
    if not piece.is_king:
        if dr * forward < 0:
            return f"man moved backwards ({text})"
        if not taken and abs(dr) > 1:
            return f"man moved more than one square ({text})"
    own = [s for s in between if before.piece_at(s) and before.piece_at(s).colour is colour]
    if own:
        return f"{_piece_name(piece)} jumped over its own piece on {own[0]} ({text})"
    enemies = [s for s in between if before.piece_at(s)]
    stray = [s for s in taken if s not in between]
    if stray:
        return f"{_piece_name(piece)} played {text}; piece removed from {stray[0]} was not jumped"
    if len(enemies) > 1 and set(taken) == set(enemies):
        return f"{_piece_name(piece)} took {enemies[0]} and {enemies[1]} in one jump ({text})"
    if piece.is_king and taken and enemies and between.index(enemies[-1]) != len(between) - 1:
        return f"king must land right behind the captured piece on {enemies[-1]} ({text})"
    if enemies and not taken:
        return f"{_piece_name(piece)} jumped {enemies[0]} without taking it ({text})"
    return f"{text} is not a legal move"


def _squares_between(start: int, end: int) -> list[int]:
    from .squares import square_at

    (r0, c0), (r1, c1) = row_col(start), row_col(end)
    steps = abs(r1 - r0)
    dr, dc = (r1 - r0) // max(steps, 1), (c1 - c0) // max(steps, 1)
    out = []
    for k in range(1, steps):
        square = square_at(r0 + k * dr, c0 + k * dc)
        if square is not None:
            out.append(square)
    return out
