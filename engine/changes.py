"""Explain a change between two positions, as a referee would.

:func:`explain` compares the position before a turn with the board as observed (only the
pieces count; the observed side to move is ignored) and says what happened: a legal move,
a capture chain still in progress or stopped early, a plain move made while a capture was
compulsory, two plies at once, a capture chain stopped early or a capture missed and the
reply played on from it, a takeback, a crowning not yet done, a move by the wrong side, or an illegal change
with a reason a referee understands.

Tolerances model what players really do over the board: the captured men are lifted
after the capturing piece lands, and the opponent stacks the crowning man a few seconds
after it arrives. A candidate that only differs from the board by such pending steps is a
match, reported with what is still pending.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import Sequence

from .move import Move
from .position import Board, Piece, Position, place
from .rules import Colour, Rules
from .squares import BIT, row_col, square_at


class Verdict(enum.Enum):
    UNCHANGED = "unchanged"
    MOVE = "move"  # one legal move explains the board (``candidates`` has one entry)
    AMBIGUOUS = "ambiguous"  # several legal moves give the same board
    PARTIAL_CHAIN = "partial chain"  # the capturing piece stands on an inner landing
    MISSED_CAPTURE = "missed capture"  # a plain move while a capture was compulsory
    TWO_PLIES = "two plies"  # a move and the reply, seen at once
    STOPPED_AND_REPLIED = "chain stopped, then the reply"  # a chain stopped early, then the
    # opponent's reply from where it stopped (``landed_on``: where it stopped)
    MISSED_AND_REPLIED = "capture missed, then the reply"  # a plain move while a capture was
    # compulsory, then the opponent's reply from the board it left
    MOVED_AND_MISSED = "a move, then a capture missed"  # a legal move, then the opponent's
    # plain reply while a capture was compulsory
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
    fault: Fault | None = None  # ILLEGAL: which rule of the catalogue the change broke

    @property
    def move(self) -> Move | None:
        """The single move of an unambiguous MOVE verdict."""
        if self.verdict is Verdict.MOVE:
            return self.candidates[0][0]
        return None


#: A chain with more captures than this has only its all-lifted and none-lifted variants
#: enumerated: the variants grow as 2**captures.
_MAX_REMOVAL_SUBSETS = 5


@dataclass(frozen=True, slots=True)
class Hypothesis:
    """One way the board may have changed, and the board it predicts.

    The tracker scores every hypothesis against the per-square probabilities of a camera
    reading; :func:`explain` looks for the ones whose board equals an exact observation.
    """

    verdict: Verdict
    moves: tuple[Move, ...]
    board: Board
    pending: Pending = Pending()
    plies_back: int = 0
    landed_on: int | None = None

    @property
    def shown(self) -> Move | None:
        """The last move as far as the board shows it, or the chain stopped early (the first
        move) up to where its piece stood."""
        if not self.moves:
            return None
        if self.landed_on is None:
            return self.moves[-1]
        move = self.moves[0]
        jumps = move.path.index(self.landed_on)
        return Move(move.path[: jumps + 1], move.captured[:jumps])

    @property
    def settled(self) -> Board:
        """The board once the pending steps are done (captured men lifted, kings stacked):
        the position an irregular change leaves, whatever the board still shows."""
        board = self.board
        for square in self.pending.removals:
            board = place(board, square, None)
        dark, light, kings = board
        for square in self.pending.crownings:
            kings |= BIT[square]
        return dark, light, kings


def hypotheses(before: Position, rules: Rules | None = None,
               earlier: Sequence[Position] = ()) -> list[Hypothesis]:
    """Every explanation worth considering for the next change, most natural first.

    Order of precedence: the board unchanged, a legal move done (then with steps still
    pending), a takeback, a chain in progress, a plain move that missed a capture, two
    plies, a chain stopped early and the reply to it, a capture missed and the reply to it, a
    move and a reply that missed a capture, a move by the wrong side. Illegal changes are what
    remains.
    """
    rules = rules or Rules()
    legal = before.legal_moves(rules)
    out = [Hypothesis(Verdict.UNCHANGED, (), before.board)]
    done = [h for m in legal for h in _with_pending(Verdict.MOVE, before, (m,))]
    out += sorted(done, key=lambda h: bool(h.pending))
    for back, position in enumerate(reversed(earlier), start=1):
        out.append(Hypothesis(Verdict.TAKEBACK, (), position.board, plies_back=back))
    out += _chain_prefixes(before, legal)
    if legal and legal[0].is_capture:
        out += [h for m in before.plain_moves() for h in _with_pending(Verdict.MISSED_CAPTURE, before, (m,))]
    for first in legal:
        middle = before.play(first)
        for reply in middle.legal_moves(rules):
            out += _with_pending(Verdict.TWO_PLIES, before, (first, reply), removals=False)
    out += _stopped_and_replied(before, legal, rules)
    if legal and legal[0].is_capture:
        out += _missed_and_replied(before, rules)
    out += _moved_and_missed(before, legal, rules)
    other = before.with_turn(before.turn.opponent)
    out += [h for m in _out_of_turn(other, rules) for h in _with_pending(Verdict.WRONG_SIDE, other, (m,))]
    return out


def irregular_plies(before: Position, rules: Rules | None = None) -> list[Hypothesis]:
    """The irregular plies of the catalogue that one side may make from ``before``, each
    done (its men lifted): a capture chain stopped on an inner landing, and a plain move
    while a capture was compulsory. A line of plies nobody saw may hold one of them
    (:func:`engine.gaps.irregular_gap_lines`), as a game under other rules does."""
    legal = before.legal_moves(rules or Rules())
    stopped = [h for h in _chain_prefixes(before, legal) if not h.pending]
    if not (legal and legal[0].is_capture):
        return stopped
    return stopped + [Hypothesis(Verdict.MISSED_CAPTURE, (m,), before.play(m).board)
                      for m in before.plain_moves()]


def _out_of_turn(other: Position, rules: Rules) -> list[Move]:
    """The moves of the side not to move (``other``, its turn given it): its legal moves,
    and its plain ones where it had a capture, since a capture is compulsory only in turn
    (a side that moves twice is at fault for that, not for the capture it passed by)."""
    legal = other.legal_moves(rules)
    return legal + other.plain_moves() if legal and legal[0].is_capture else legal


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
    seen = observed.board
    found = [h for h in hypotheses(before, rules, earlier) if h.board == seen]
    if not found:
        change = describe_change(before, observed, earlier[0] if earlier else before)
        return Explanation(Verdict.ILLEGAL, change.reason, fault=change.fault)
    return describe(before, [h for h in found if h.verdict is found[0].verdict
                             and bool(h.pending) == bool(found[0].pending)], earlier, rules)


def describe(before: Position, found: list[Hypothesis], earlier: Sequence[Position] = (),
             rules: Rules | None = None) -> Explanation:
    """The explanation of hypotheses of one verdict that all predict the same board."""
    first = found[0]
    side = before.turn.value
    candidates = tuple(h.moves for h in found)
    listed = ", ".join(" ".join(map(str, h.moves)) for h in found)
    verdict = first.verdict
    if verdict is Verdict.UNCHANGED:
        return Explanation(verdict, "no change")
    if verdict is Verdict.MOVE:
        if len(found) > 1:
            return Explanation(Verdict.AMBIGUOUS, f"{side} played one of {listed}", candidates,
                               first.pending)
        return Explanation(verdict, f"{side} played {listed}{_pending_text(first.pending)}",
                           candidates, first.pending)
    if verdict is Verdict.TAKEBACK:
        return Explanation(verdict, f"the board is back as it was {first.plies_back} ply(s) ago",
                           plies_back=first.plies_back)
    if verdict is Verdict.PARTIAL_CHAIN:
        shown = "x".join(map(str, _prefix_to(found[0].moves[0], first.landed_on)))
        return Explanation(verdict, f"{side} capture chain not finished: {shown} must go on "
                           f"({listed})", candidates, first.pending, landed_on=first.landed_on)
    if verdict is Verdict.MISSED_CAPTURE:
        missed = tuple(before.legal_moves(rules))
        return Explanation(verdict, f"{side} played {listed} while a capture was compulsory "
                           f"({', '.join(map(str, missed))})", candidates, first.pending, missed)
    if verdict is Verdict.TWO_PLIES:
        return Explanation(verdict, f"two plies at once: {listed}", candidates, first.pending)
    if verdict is Verdict.STOPPED_AND_REPLIED:
        chain, reply = first.moves
        return Explanation(verdict, f"{side} capture chain stopped at {first.shown} ({chain} was "
                           f"due), then {before.turn.opponent.value} played {reply}", candidates,
                           first.pending, landed_on=first.landed_on)
    if verdict is Verdict.MISSED_AND_REPLIED:
        missed = tuple(before.legal_moves(rules))
        plain, reply = first.moves
        return Explanation(verdict, f"{side} played {plain} while a capture was compulsory "
                           f"({', '.join(map(str, missed))}), then {before.turn.opponent.value} "
                           f"played {reply}", candidates, first.pending, missed)
    if verdict is Verdict.MOVED_AND_MISSED:
        move, plain = first.moves
        missed = tuple(before.play(move).legal_moves(rules))
        return Explanation(verdict, f"{side} played {move}, then {before.turn.opponent.value} played "
                           f"{plain} while a capture was compulsory ({', '.join(map(str, missed))})",
                           candidates, first.pending, missed)
    moved_last = bool(earlier) and earlier[-1].turn is before.turn.opponent
    verb = "moved twice" if moved_last else "moved out of turn"
    return Explanation(Verdict.WRONG_SIDE, f"{before.turn.opponent.value} {verb} ({listed})",
                       candidates, first.pending)


# ---------------------------------------------------------------- building hypotheses


def _with_pending(verdict: Verdict, before: Position, moves: tuple[Move, ...],
                  removals: bool = True) -> list[Hypothesis]:
    """A move sequence done, and the same with captured men not lifted or a king not stacked."""
    after = before
    for move in moves:
        after = after.play(move)
    last = moves[-1]
    crowned = {m.end for m in moves
               if m.crowns and (piece := after.piece_at(m.end)) is not None and piece.is_king}
    lifts: list[tuple[int, ...]] = [()]
    if removals and last.captured:
        taken = last.captured
        if len(taken) <= _MAX_REMOVAL_SUBSETS:
            lifts = [tuple(s for k, s in enumerate(taken) if mask >> k & 1)
                     for mask in range(1 << len(taken))]
        else:
            lifts = [(), taken]
    out = []
    kept: list[tuple[int, ...]] = [()] + ([tuple(crowned)] if crowned else [])
    for still in lifts:
        for uncrowned in kept:
            board = _overlay(after, {s: before.piece_at(s) for s in still},
                             {s: after.piece_at(s) for s in uncrowned})
            out.append(Hypothesis(verdict, moves, board, Pending(frozenset(still), frozenset(uncrowned))))
    return out


def _overlay(position: Position, restored: dict[int, Piece | None],
             uncrowned: dict[int, Piece | None]) -> Board:
    """A position's board with captured pieces put back and new kings shown as men."""
    board = position.board
    for square, piece in restored.items():
        board = place(board, square, piece)
    for square, king in uncrowned.items():
        if king is not None:
            board = place(board, square, Piece.of(king.colour, False))
    return board


def _stopped(before: Position, move: Move, jumps: int) -> Position:
    """The capturing piece on the inner landing after ``jumps`` jumps of ``move``, the men it
    jumped lifted; the same side still to move."""
    pieces = before.pieces()
    piece = pieces.pop(move.start)
    for square in move.captured[:jumps]:
        pieces.pop(square)
    pieces[move.path[jumps]] = piece
    return Position.from_pieces(pieces, before.turn)


def stopped_chain(before: Position, h: Hypothesis) -> Hypothesis:
    """The chain stopped early of a STOPPED_AND_REPLIED hypothesis, as the partial chain the
    board showed before the reply (its men lifted)."""
    assert h.landed_on is not None
    chain = h.moves[0]
    board = _stopped(before, chain, chain.path.index(h.landed_on)).board
    return Hypothesis(Verdict.PARTIAL_CHAIN, (chain,), board, landed_on=h.landed_on)


def missed_reply(h: Hypothesis) -> Hypothesis:
    """The reply of a MOVED_AND_MISSED hypothesis, from the board its first move left: the
    alert it raises."""
    return Hypothesis(Verdict.MISSED_CAPTURE, h.moves[1:], h.board)


def first_ply(before: Position, h: Hypothesis) -> Hypothesis:
    """The irregular first ply of a two-ply hypothesis (a chain stopped early, or a capture
    missed, then the reply), as the board showed it before the reply: the alert it raises."""
    if h.verdict is Verdict.STOPPED_AND_REPLIED:
        return stopped_chain(before, h)
    plain = h.moves[0]
    return Hypothesis(Verdict.MISSED_CAPTURE, (plain,), before.play(plain).board)


def _moved_and_missed(before: Position, legal: list[Move], rules: Rules) -> list[Hypothesis]:
    """Each legal move, then each plain reply of the opponent while the move left it a
    capture: a game under other rules ignores the capture just offered, and the reply may
    come before the camera sees the board settle (a sleeve over the board while both hands
    play), where two legal plies would explain the board only with a piece misread."""
    out = []
    for move in legal:
        middle = before.play(move)
        replies = middle.legal_moves(rules)
        if replies and replies[0].is_capture:
            out += [Hypothesis(Verdict.MOVED_AND_MISSED, (move, plain), middle.play(plain).board)
                    for plain in middle.plain_moves()]
    return out


def _missed_and_replied(before: Position, rules: Rules) -> list[Hypothesis]:
    """A plain move made while a capture was compulsory, then each reply of the opponent
    from the board it left: the reply may come before the camera sees the board settle."""
    out = []
    for plain in before.plain_moves():
        missed = before.play(plain)
        for reply in missed.legal_moves(rules):
            out += [replace(h, moves=(plain, reply)) for h in
                    _with_pending(Verdict.MISSED_AND_REPLIED, missed, (reply,))]
    return out


def _stopped_and_replied(before: Position, legal: list[Move], rules: Rules) -> list[Hypothesis]:
    """A chain stopped on an inner landing, its men lifted, then each reply of the opponent
    from there: two changes in a row that the camera may see as one (no pause between)."""
    out = []
    for move in legal:
        for jumps in range(1, len(move.path) - 1):
            stopped = _stopped(before, move, jumps).with_turn(before.turn.opponent)
            for reply in stopped.legal_moves(rules):
                out += [replace(h, moves=(move, reply), landed_on=move.path[jumps]) for h in
                        _with_pending(Verdict.STOPPED_AND_REPLIED, stopped, (reply,))]
    return out


def _chain_prefixes(before: Position, legal: list[Move]) -> list[Hypothesis]:
    """The capturing piece on an inner landing of a legal chain (shown one jump at a time)."""
    out = []
    for move in legal:
        for j in range(1, len(move.path) - 1):
            inner = _stopped(before, move, j)
            taken = move.captured[:j]
            variants = [()] if len(taken) > _MAX_REMOVAL_SUBSETS else [
                tuple(s for k, s in enumerate(taken) if mask >> k & 1) for mask in range(1 << len(taken))]
            for still in variants:
                board = _overlay(inner, {s: before.piece_at(s) for s in still}, {})
                out.append(Hypothesis(Verdict.PARTIAL_CHAIN, (move,), board,
                                      Pending(frozenset(still)), landed_on=move.path[j]))
    # Longer prefixes first: the piece further along the chain is the better story.
    out.sort(key=lambda h: -h.moves[0].path.index(h.landed_on))
    return out


def _prefix_to(move: Move, landed_on: int | None) -> tuple[int, ...]:
    return move.path[: move.path.index(landed_on) + 1] if landed_on in move.path else move.path


def _pending_text(pending: Pending) -> str:
    parts = []
    if pending.removals:
        parts.append("captured pieces still on " + ", ".join(map(str, sorted(pending.removals))))
    if pending.crownings:
        parts.append("not crowned yet on " + ", ".join(map(str, sorted(pending.crownings))))
    return f" ({'; '.join(parts)})" if parts else ""


# ---------------------------------------------------------------- describing illegal changes


class Fault(enum.Enum):
    """The catalogue of changes no legal move explains, each as a referee names it
    (docs/RULES.md, "Irregularities"). The verdicts that explain a change by moves
    (missed capture, partial chain, two plies, wrong side) complete the catalogue."""

    TOO_FAR = "too far"  # a man moved two or more squares without capturing
    SIDEWAYS = "sideways"  # a piece left its diagonals (a man along its row)
    BACKWARDS = "backwards"  # a man stepped backwards
    OWN_PIECE_JUMPED = "own piece jumped"  # a man or king jumped over its own piece
    FALSE_CAPTURE = "false capture"  # a piece taken that the move did not jump, or a wrong jump
    KING_BEYOND = "king beyond"  # a capturing king landed past the square behind its victim
    WRONG_SIDE = "wrong side"  # an illegal step by the side not to move
    PIECE_ADDED = "piece added"  # a piece (or a stacked man) appeared with no move
    PIECE_REMOVED = "piece removed"  # a piece (or a stacked man) left with no move
    IMPOSSIBLE = "impossible position"  # a board the rules cannot produce
    POSITION_CHANGED = "position changed"  # several pieces displaced: no single story


@dataclass(frozen=True, slots=True)
class Change:
    """A change no legal move explains: its fault, a referee's sentence, and for a step the
    side that made it and its path (``22-13``, ``18x11``)."""

    fault: Fault
    reason: str
    side: Colour | None = None
    move: str | None = None


def _piece_name(piece: Piece) -> str:
    return f"{piece.colour.value} {'king' if piece.is_king else 'man'}"


def describe_change(before: Position, observed: Position, setup: Position | None = None) -> Change:
    """What a change no legal move explains is, in a referee's words; ``setup`` is the
    game's start (a side never has more pieces than it began with).

    One piece moved is a step when every other piece gone is the opponent's, about its way
    (:func:`_about_its_way`) or, one at most, elsewhere (the wrong man lifted: a false
    capture). Pieces gone across the board beyond that are no one hand's step but the
    board changed: a reading that lost half a camp would otherwise be a step that "took"
    every piece it lost (kingplay 70098: five dark pieces read as gone beside a light
    king's 3-10, named a king that jumped its own man, and alerted at once as one hand's
    step).

    >>> describe_change(Position.from_fen("B:W1:B22"), Position.from_fen("W:W1:B13")).reason
    'dark man moved more than one square (22-13)'
    >>> describe_change(Position.from_fen("B:W1,5:B22"), Position.from_fen("B:W1:B22")).fault
    <Fault.PIECE_REMOVED: 'piece removed'>
    """
    old, new = before.pieces(), observed.pieces()
    gone = {s: p for s, p in old.items() if new.get(s) != p}
    came = {s: p for s, p in new.items() if old.get(s) != p}
    for colour in Colour:
        if setup is not None and observed.count(colour) > max(setup.count(colour), before.count(colour)):
            return Change(Fault.IMPOSSIBLE, f"{colour.value} has {observed.count(colour)} pieces, "
                          f"more than the {setup.count(colour)} it started with")
    movers = [(a, b) for a, pa in gone.items() for b, pb in came.items()
              if a != b and pa.colour is pb.colour and (pa == pb or (not pa.is_king and pb.is_king))]
    if len(came) == 1 and len(movers) == 1:
        start, end = movers[0]
        piece = gone[start]
        taken = [s for s, p in gone.items() if s != start and p.colour is not piece.colour]
        stray = [s for s in taken if not _about_its_way(s, start, end)]
        if all(s == start or s in taken for s in gone) and len(stray) <= 1:
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
    reason = "; ".join(parts)
    if len(parts) != 1:
        return Change(Fault.POSITION_CHANGED, reason)
    if not came:
        return Change(Fault.PIECE_REMOVED, reason)
    (square, piece), = came.items()
    if square in gone:  # a man stacked on a man, or lifted off a king; or another colour
        if gone[square].colour is not piece.colour:
            return Change(Fault.POSITION_CHANGED, reason)
        return Change(Fault.PIECE_ADDED if piece.is_king else Fault.PIECE_REMOVED, reason)
    if not piece.is_king and _own_back_row(square, piece.colour) and (
            setup is None or setup.piece_at(square) != piece):
        # A man never moves backwards: on its own back row it can only have stayed there.
        return Change(Fault.IMPOSSIBLE, f"{reason}, its own back row, where it cannot come back")
    return Change(Fault.PIECE_ADDED, reason)


def _about_its_way(square: int, start: int, end: int) -> bool:
    """Whether ``square`` lies within the rows and columns a step from ``start`` to ``end``
    spans, one square wider: where the men a capture chain seen only at its ends jumped
    lie (a chain turns at its landings, off the line from its start to its end)."""
    (r, c), (r0, c0), (r1, c1) = row_col(square), row_col(start), row_col(end)
    return min(r0, r1) - 1 <= r <= max(r0, r1) + 1 and min(c0, c1) - 1 <= c <= max(c0, c1) + 1


def _own_back_row(square: int, colour: Colour) -> bool:
    return row_col(square)[0] == (7 if colour is Colour.DARK else 0)


def _describe_step(before: Position, piece: Piece, start: int, end: int, taken: list[int]) -> Change:
    """One piece moved from ``start`` to ``end`` (perhaps taking ``taken``): which rule it broke."""
    colour = piece.colour
    text = f"{start}{'x' if taken else '-'}{end}"
    name = _piece_name(piece)
    fault, reason = _step_fault(before, piece, start, end, taken)
    if fault is None:
        if colour is not before.turn:
            fault, reason = Fault.WRONG_SIDE, "moved out of turn"
        else:
            fault, reason = (Fault.FALSE_CAPTURE if taken else Fault.TOO_FAR), "is not a legal move"
    elif colour is not before.turn:
        reason += ", out of turn"
    return Change(fault, f"{name} {reason} ({text})", colour, text)


def _step_fault(before: Position, piece: Piece, start: int, end: int,
                taken: list[int]) -> tuple[Fault | None, str]:
    colour = piece.colour
    (r0, c0), (r1, c1) = row_col(start), row_col(end)
    dr, dc = r1 - r0, c1 - c0
    forward = -1 if colour is Colour.DARK else 1
    if abs(dr) != abs(dc):
        return Fault.SIDEWAYS, "moved sideways" if dr == 0 else "left its diagonal"
    between = _squares_between(start, end)
    if not piece.is_king and dr * forward < 0:
        if taken:
            return Fault.FALSE_CAPTURE, "captured backwards (a man captures forward only)"
        return Fault.BACKWARDS, "moved backwards"
    own = [s for s in between if (p := before.piece_at(s)) is not None and p.colour is colour]
    if own:
        return Fault.OWN_PIECE_JUMPED, f"jumped over its own piece on {own[0]}"
    enemies = [s for s in between if before.piece_at(s)]
    if not piece.is_king and not taken and not enemies and abs(dr) > 1:
        return Fault.TOO_FAR, "moved more than one square"
    stray = [s for s in taken if s not in between]
    if stray:
        return Fault.FALSE_CAPTURE, f"took {stray[0]}, which it did not jump"
    if len(enemies) > 1 and set(taken) == set(enemies):
        return Fault.FALSE_CAPTURE, f"took {enemies[0]} and {enemies[1]} in one jump"
    if taken and enemies and between.index(enemies[-1]) != len(between) - 1:
        if piece.is_king:
            return Fault.KING_BEYOND, f"landed beyond the square right behind {enemies[-1]}"
        return Fault.FALSE_CAPTURE, f"jumped from too far to take {enemies[-1]}"
    if enemies and not taken:
        return Fault.FALSE_CAPTURE, f"jumped {enemies[0]} without taking it"
    return None, ""


def _squares_between(start: int, end: int) -> list[int]:
    (r0, c0), (r1, c1) = row_col(start), row_col(end)
    steps = abs(r1 - r0)
    dr, dc = (r1 - r0) // max(steps, 1), (c1 - c0) // max(steps, 1)
    out = []
    for k in range(1, steps):
        square = square_at(r0 + k * dr, c0 + k * dc)
        if square is not None:
            out.append(square)
    return out
