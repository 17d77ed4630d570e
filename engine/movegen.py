"""Legal move generation on bitboards: the exact rules, and the hot path of perft.

Everything here works on plain ints in the ghost-bit layout of :mod:`engine.squares`:
``mine`` and ``theirs`` are the pieces of the side to move and of its opponent, ``kings``
the kings of both, and ``up`` says whether the side to move plays toward square 1 (dark).

A generated move is a :data:`RawMove` ``(origin_index, landing_indices, captured_mask)``;
:mod:`engine.position` turns it into a :class:`engine.move.Move`.
"""

from __future__ import annotations

from .squares import BOARD_MASK, BOTTOM_ROW, TOP_ROW

RawMove = tuple[int, tuple[int, ...], int]

_KING_STEPS = (-4, -5, 4, 5)


def _popcount(x: int) -> int:
    return x.bit_count()


def _forward_steps(up: bool) -> tuple[int, int]:
    return (-4, -5) if up else (4, 5)


def _shift(board: int, step: int) -> int:
    return (board << step if step > 0 else board >> -step) & BOARD_MASK


def crown_row(up: bool) -> int:
    """The row where a man of the side moving ``up`` (or down) is crowned."""
    return TOP_ROW if up else BOTTOM_ROW


# ---------------------------------------------------------------- capture existence


def has_capture(mine: int, theirs: int, kings: int, up: bool) -> bool:
    """Whether the side to move has any capture (captures are compulsory)."""
    empty = BOARD_MASK & ~(mine | theirs)
    men = mine & ~kings
    for step in _forward_steps(up):
        if _shift(_shift(men, step) & theirs, step) & empty:
            return True
    my_kings = mine & kings
    if my_kings:
        for step in _KING_STEPS:
            ray = _shift(my_kings, step)
            hits = 0
            while ray:
                hits |= ray & theirs
                ray = _shift(ray & empty, step)
            if _shift(hits, step) & empty:
                return True
    return False


# ---------------------------------------------------------------- plain moves


def quiet_moves(mine: int, theirs: int, kings: int, up: bool) -> list[RawMove]:
    """Every non-capturing move: men one step forward, kings any distance."""
    empty = BOARD_MASK & ~(mine | theirs)
    moves: list[RawMove] = []
    men = mine & ~kings
    for step in _forward_steps(up):
        targets = _shift(men, step) & empty
        while targets:
            low = targets & -targets
            to = low.bit_length() - 1
            moves.append((to - step, (to,), 0))
            targets ^= low
    my_kings = mine & kings
    while my_kings:
        low = my_kings & -my_kings
        origin = low.bit_length() - 1
        for step in _KING_STEPS:
            to = origin + step
            while 0 <= to < 35 and (empty >> to) & 1:
                moves.append((origin, (to,), 0))
                to += step
        my_kings ^= low
    return moves


def count_quiet_moves(mine: int, theirs: int, kings: int, up: bool) -> int:
    """The number of non-capturing moves, counted on whole bitboards (for perft)."""
    empty = BOARD_MASK & ~(mine | theirs)
    men = mine & ~kings
    count = 0
    for step in _forward_steps(up):
        count += _popcount(_shift(men, step) & empty)
    my_kings = mine & kings
    if my_kings:
        for step in _KING_STEPS:
            ray = _shift(my_kings, step) & empty
            while ray:
                count += _popcount(ray)
                ray = _shift(ray, step) & empty
    return count


# ---------------------------------------------------------------- captures


def captures(mine: int, theirs: int, kings: int, up: bool, immediate: bool) -> list[RawMove]:
    """Every complete capture chain, one entry per distinct path of landings.

    A chain must be played to its end, so only maximal chains are moves; which chain to
    play is free (no rule to take the most pieces). ``immediate`` selects the
    captured-removal setting: lift each jumped piece at once instead of at the end.
    """
    moves: list[RawMove] = []
    men = mine & ~kings
    forward = _forward_steps(up)
    crown = crown_row(up)
    occupied = mine | theirs
    empty = BOARD_MASK & ~occupied
    jumpers = 0
    for step in forward:
        landings = _shift(_shift(men, step) & theirs, step) & empty
        jumpers |= _shift(landings, -2 * step)
    while jumpers:
        low = jumpers & -jumpers
        origin = low.bit_length() - 1
        _man_chains(origin, origin, (), 0, occupied & ~low, theirs, forward, crown, moves)
        jumpers ^= low
    my_kings = mine & kings
    while my_kings:
        low = my_kings & -my_kings
        origin = low.bit_length() - 1
        _king_chains(origin, origin, (), 0, (mine | theirs) & ~low, theirs, immediate, moves)
        my_kings ^= low
    return moves


def _man_chains(origin, at, landings, captured, occupied, theirs, forward, crown, out) -> None:
    extended = False
    if not (crown >> at) & 1:
        for step in forward:
            over = at + step
            land = over + step
            if (
                0 <= land < 35
                and (theirs >> over) & 1
                and not (captured >> over) & 1
                and (BOARD_MASK >> land) & 1
                and not (occupied >> land) & 1
            ):
                extended = True
                _man_chains(origin, land, landings + (land,), captured | (1 << over),
                            occupied, theirs, forward, crown, out)
    if not extended and landings:
        out.append((origin, landings, captured))


def _king_chains(origin, at, landings, captured, occupied, theirs, immediate, out) -> None:
    extended = False
    for step in _KING_STEPS:
        over = at + step
        while 0 <= over < 35 and (BOARD_MASK >> over) & 1 and not (occupied >> over) & 1:
            over += step
        if not (0 <= over < 35) or not (theirs >> over) & 1 or (captured >> over) & 1:
            continue
        land = over + step  # a king lands immediately behind the piece it takes
        if not (0 <= land < 35) or not (BOARD_MASK >> land) & 1 or (occupied >> land) & 1:
            continue
        extended = True
        bit = 1 << over
        _king_chains(origin, land, landings + (land,), captured | bit,
                     occupied & ~bit if immediate else occupied, theirs, immediate, out)
    if not extended and landings:
        out.append((origin, landings, captured))


def legal_moves(mine: int, theirs: int, kings: int, up: bool, immediate: bool) -> list[RawMove]:
    """All legal moves: the capture chains if any capture exists, else the plain moves."""
    if has_capture(mine, theirs, kings, up):
        return captures(mine, theirs, kings, up, immediate)
    return quiet_moves(mine, theirs, kings, up)


def apply(mine: int, theirs: int, kings: int, up: bool, move: RawMove) -> tuple[int, int, int]:
    """The (mine, theirs, kings) boards after a move; a man ending on the far row is crowned."""
    origin, landings, captured = move
    src = 1 << origin
    dst = 1 << landings[-1]
    mine = mine ^ src ^ dst
    theirs &= ~captured
    if kings & src:
        kings = (kings & ~captured) ^ src ^ dst
    else:
        kings &= ~captured
        if dst & crown_row(up):
            kings |= dst
    return mine, theirs, kings


# ---------------------------------------------------------------- effects (for search)

#: A move as the change it makes, for searches that never need its path:
#: ``(moved, captured, king_toggle)``. ``moved`` has the origin and destination bits of the
#: mover (xor: a king chain that ends where it began moves nothing), ``captured`` the jumped
#: pieces, and ``king_toggle`` what to xor into the kings after the captured are cleared:
#: ``moved`` for a king, the destination for a man that crowns, else 0. See :func:`play_effect`.
Effect = tuple[int, int, int]


def legal_effects(mine: int, theirs: int, kings: int, up: bool, immediate: bool) -> list[Effect]:
    """Every legal move as an :data:`Effect`, capture chains with the same result once.

    Two chains that take the same pieces and end on the same square lead to the same
    position, so a search need not tell them apart (a recorder does: use :func:`legal_moves`).
    """
    if has_capture(mine, theirs, kings, up):
        seen: dict[Effect, None] = {}
        for origin, landings, captured in captures(mine, theirs, kings, up, immediate):
            src, dst = 1 << origin, 1 << landings[-1]
            if kings & src:
                toggle = src ^ dst
            else:
                toggle = dst if dst & crown_row(up) else 0
            seen[(src ^ dst, captured, toggle)] = None
        return list(seen)
    empty = BOARD_MASK & ~(mine | theirs)
    effects: list[Effect] = []
    crown = crown_row(up)
    men = mine & ~kings
    for step in _forward_steps(up):
        targets = _shift(men, step) & empty
        while targets:
            dst = targets & -targets
            src = dst >> step if step > 0 else dst << -step
            effects.append((src | dst, 0, dst & crown))
            targets ^= dst
    my_kings = mine & kings
    while my_kings:
        src = my_kings & -my_kings
        for step in _KING_STEPS:
            ray = _shift(src, step) & empty
            while ray:
                effects.append((src | ray, 0, src | ray))
                ray = _shift(ray, step) & empty
        my_kings ^= src
    return effects


def play_effect(mine: int, theirs: int, kings: int, effect: Effect) -> tuple[int, int, int]:
    """The (mine, theirs, kings) boards after an :data:`Effect`; the same as :func:`apply`."""
    moved, captured, toggle = effect
    return mine ^ moved, theirs ^ captured, (kings & ~captured) ^ toggle
