"""Legal move generation on bitboards: the exact rules, and the hot path of perft.

Everything here works on plain ints in the ghost-bit layout of :mod:`engine.squares`:
``mine`` and ``theirs`` are the pieces of the side to move and of its opponent, ``kings``
the kings of both, and ``up`` says whether the side to move plays toward square 1 (dark).

A generated move is a :data:`RawMove` ``(origin_index, landing_indices, captured_mask)``;
:mod:`engine.position` turns it into a :class:`engine.move.Move`.
"""

from __future__ import annotations

from typing import Final

from .squares import BOARD_MASK, BOTTOM_ROW, TOP_ROW

RawMove = tuple[int, tuple[int, ...], int]

_KING_STEPS: Final = (-4, -5, 4, 5)


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
    """Whether the side to move has any capture (captures are compulsory).

    The shifts are written out (no :func:`_shift`): this is the hottest test of a search.
    ``theirs`` and ``empty`` lie on the board, so masking with them drops the ghost bits.
    """
    empty = BOARD_MASK & ~(mine | theirs)
    men = mine & ~kings
    if men:
        if up:
            if ((((men >> 4) & theirs) >> 4) | (((men >> 5) & theirs) >> 5)) & empty:
                return True
        elif ((((men << 4) & theirs) << 4) | (((men << 5) & theirs) << 5)) & empty:
            return True
    my_kings = mine & kings
    if my_kings:
        for step in (4, 5):
            ray = my_kings << step
            hits = ray & theirs
            ray &= empty
            while ray:
                ray <<= step
                hits |= ray & theirs
                ray &= empty
            if (hits << step) & empty:
                return True
            ray = my_kings >> step
            hits = ray & theirs
            ray &= empty
            while ray:
                ray >>= step
                hits |= ray & theirs
                ray &= empty
            if (hits >> step) & empty:
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


def _man_chains(origin: int, at: int, landings: tuple[int, ...], captured: int, occupied: int,
                theirs: int, forward: tuple[int, ...], crown: int, out: list[RawMove]) -> None:
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


def _king_chains(origin: int, at: int, landings: tuple[int, ...], captured: int, occupied: int,
                 theirs: int, immediate: bool, out: list[RawMove]) -> None:
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
    """Every legal move as an :data:`Effect`: the captures if any exists, else the plain moves."""
    if has_capture(mine, theirs, kings, up):
        return capture_effects(mine, theirs, kings, up, immediate)
    return plain_effects(mine, theirs, kings, up)


def capture_effects(mine: int, theirs: int, kings: int, up: bool, immediate: bool) -> list[Effect]:
    """Every complete capture chain as an :data:`Effect`, chains with the same result once.

    Two chains that take the same pieces and end on the same square lead to the same
    position, so a search need not tell them apart (a recorder does: see :func:`captures`).
    A man's single jump that cannot go on, by far the most common capture, is found on the
    bitboards; every other chain comes from :func:`captures`' walk.
    """
    effects: list[Effect] = []
    crown = crown_row(up)
    empty = BOARD_MASK & ~(mine | theirs)
    men = mine & ~kings
    chained = 0  # men with a jump that goes on: walked in full below
    for step in (4, 5) if men else ():
        lands = (((men >> step) & theirs) >> step if up else ((men << step) & theirs) << step) & empty
        while lands:
            land = lands & -lands
            lands ^= land
            over = land << step if up else land >> step
            src = over << step if up else over >> step
            if not land & crown:
                for again in (4, 5):
                    beyond = ((land >> again) & theirs) >> again if up else ((land << again) & theirs) << again
                    if beyond & (empty | src):
                        chained |= src
            effects.append((src | land, over, land & crown))
    if chained:
        effects = [e for e in effects if not e[0] & chained]
    my_kings = mine & kings
    if chained or my_kings:
        seen = dict.fromkeys(effects)
        occupied = mine | theirs
        while chained:
            low = chained & -chained
            chained ^= low
            origin = low.bit_length() - 1
            walked: list[RawMove] = []
            _man_chains(origin, origin, (), 0, occupied & ~low, theirs, _forward_steps(up), crown, walked)
            for _, landings, captured in walked:
                dst = 1 << landings[-1]
                seen[(low | dst, captured, dst & crown)] = None
        while my_kings:
            low = my_kings & -my_kings
            my_kings ^= low
            origin = low.bit_length() - 1
            walked = []
            _king_chains(origin, origin, (), 0, occupied & ~low, theirs, immediate, walked)
            for _, landings, captured in walked:
                moved = low ^ (1 << landings[-1])
                seen[(moved, captured, moved)] = None
        effects = list(seen)
    return effects


def plain_effects(mine: int, theirs: int, kings: int, up: bool) -> list[Effect]:
    """Every non-capturing move as an :data:`Effect` (legal only when no capture exists)."""
    empty = BOARD_MASK & ~(mine | theirs)
    effects: list[Effect] = []
    crown = crown_row(up)
    men = mine & ~kings
    if men:
        for step in (4, 5):
            if up:
                targets = (men >> step) & empty
                while targets:
                    dst = targets & -targets
                    effects.append(((dst << step) | dst, 0, dst & crown))
                    targets ^= dst
            else:
                targets = (men << step) & empty
                while targets:
                    dst = targets & -targets
                    effects.append(((dst >> step) | dst, 0, dst & crown))
                    targets ^= dst
    my_kings = mine & kings
    while my_kings:
        src = my_kings & -my_kings
        for step in (4, 5):
            ray = (src << step) & empty
            while ray:
                effects.append((src | ray, 0, src | ray))
                ray = (ray << step) & empty
            ray = (src >> step) & empty
            while ray:
                effects.append((src | ray, 0, src | ray))
                ray = (ray >> step) & empty
        my_kings ^= src
    return effects


def play_effect(mine: int, theirs: int, kings: int, effect: Effect) -> tuple[int, int, int]:
    """The (mine, theirs, kings) boards after an :data:`Effect`; the same as :func:`apply`."""
    moved, captured, toggle = effect
    return mine ^ moved, theirs ^ captured, (kings & ~captured) ^ toggle
