"""Build the endgame tables by retrograde analysis: ``python -m engine.endgame_build``.

Materials are solved in :func:`engine.endgame.materials` order, so that every position a
capture or a crowning leads to is already known. Within one material:

1. Every board is laid out as the squares of its pieces (one column per piece) and the
   plain moves of all boards are generated at once with numpy; each gives an edge to a
   board of the same material (a man step or a king move) or a known value (a crowning).
2. Boards where a capture is due take their value straight from the smaller tables: the
   rules' own :func:`engine.movegen.capture_effects` walks their chains, one board at a time.
3. Retrograde analysis by levels: level ``n`` settles every position whose end is ``n``
   plies away, a loss at even ``n`` (every move leads to a win settled earlier, the longest
   of them ``n - 1``) and a win at odd ``n`` (some move leads to a loss at ``n - 1``).
   Whatever is never settled is a draw.

Both captured-removal settings share step 1 and differ in steps 2 and 3.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from .endgame import (ALLOWED, BINOMIAL, ORDINAL, TABLES_ENV, EndgameTable, Material, best_of,
                      group_sizes, material_name, materials, slot_of, tables_folder)
from .movegen import capture_effects, play_effect
from .rules import CapturedRemoval
from .squares import BOARD_MASK, BOTTOM_ROW, TOP_ROW

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

OFF = 35  # the square index for "off the board"
_STEPS = (-4, -5, 4, 5)  # directions 0 and 1 lead toward square 1 (dark's forward)
_NEXT = np.full((36, 4), OFF, dtype=np.int64)
for _i in range(35):
    if BOARD_MASK >> _i & 1:
        for _d, _step in enumerate(_STEPS):
            if 0 <= _i + _step < 35 and BOARD_MASK >> (_i + _step) & 1:
                _NEXT[_i, _d] = _i + _step
_ORDINAL = np.array([list(o) + [-1] for o in ORDINAL], dtype=np.int64)
_BINOMIAL = np.array(BINOMIAL, dtype=np.int64)
_ALLOWED = [np.array(a, dtype=np.int64) for a in ALLOWED]
_CROWN = (np.array([bool(TOP_ROW >> i & 1) for i in range(36)]),  # dark crowns on 1-4
          np.array([bool(BOTTOM_ROW >> i & 1) for i in range(36)]))
_BITS = np.array([1 << i for i in range(35)] + [0], dtype=np.int64)


def _combinations(n: int, k: int) -> IntArray:
    """All k-subsets of range(n) as rows, row r being the subset of colex rank r."""
    out = np.zeros((BINOMIAL[n][k], k), dtype=np.int64)
    for subset in itertools.combinations(range(n), k):
        out[sum(BINOMIAL[o][i + 1] for i, o in enumerate(subset))] = subset
    return out


def _rank(ordinals: IntArray) -> IntArray:
    """The colex ranks of rows of ordinals (any order within a row)."""
    if ordinals.shape[1] == 0:
        return np.zeros(len(ordinals), dtype=np.int64)
    ordered = np.sort(ordinals, axis=1)
    return sum((_BINOMIAL[ordered[:, i], i + 1] for i in range(ordered.shape[1])),
               start=np.zeros(len(ordered), dtype=np.int64))


class _Layout:
    """One material's boards as piece squares: columns dark men, dark kings, light men, light kings."""

    def __init__(self, material: Material) -> None:
        self.material = material
        self.sizes = group_sizes(material)
        self.total = int(np.prod(self.sizes))
        self.multiplier = [int(np.prod(self.sizes[g + 1:])) for g in range(4)]
        self.columns = []
        start = 0
        for g in range(4):
            self.columns.append(list(range(start, start + material[g])))
            start += material[g]
        slot = np.arange(self.total, dtype=np.int64)
        self.ranks: list[IntArray] = []
        rest = slot
        for g in reversed(range(4)):
            self.ranks.insert(0, rest % self.sizes[g])
            rest = rest // self.sizes[g]
        parts = [_ALLOWED[g][_combinations(len(ALLOWED[g]), material[g])[self.ranks[g]]] for g in range(4)]
        self.squares = np.concatenate(parts, axis=1)
        pieces = self.squares.shape[1]
        self.valid = np.ones(self.total, dtype=bool)
        for a, b in itertools.combinations(range(pieces), 2):
            self.valid &= self.squares[:, a] != self.squares[:, b]

    def group_of(self, column: int) -> int:
        return next(g for g in range(4) if column in self.columns[g])

    def slot_from_ranks(self, ranks: Sequence[IntArray]) -> IntArray:
        return sum((ranks[g] * self.multiplier[g] for g in range(4)),
                   start=np.zeros(len(ranks[0]), dtype=np.int64))


def _occupied(squares: IntArray, targets: IntArray, columns: Sequence[int] | None = None) -> BoolArray:
    """Whether each board has a piece (of ``columns``, default any) on its target square."""
    chosen = squares if columns is None else squares[:, list(columns)]
    if chosen.shape[1] == 0:
        return np.zeros(len(targets), dtype=bool)
    return (chosen == targets[:, None]).any(axis=1)  # type: ignore[no-any-return]


class _Moves:
    """Step 1 for one material and one side to move: which boards must capture, and the plain moves."""

    def __init__(self, layout: _Layout, side: int) -> None:
        squares = layout.squares
        own = (0, 1) if side == 0 else (2, 3)
        enemy_columns = [c for g in ((2, 3) if side == 0 else (0, 1)) for c in layout.columns[g]]
        forward = (0, 1) if side == 0 else (2, 3)
        n = layout.total
        self.capture = np.zeros(n, dtype=bool)
        for g in own:
            king = g in (1, 3)
            for column in layout.columns[g]:
                for d in (0, 1, 2, 3) if king else forward:
                    here = squares[:, column].copy()
                    active = np.ones(n, dtype=bool)
                    for _ in range(7 if king else 1):
                        target = _NEXT[here, d]
                        on_board = target != OFF
                        full = _occupied(squares, target)
                        beyond = _NEXT[target, d]
                        self.capture |= (active & on_board & _occupied(squares, target, enemy_columns)
                                         & (beyond != OFF) & ~_occupied(squares, beyond))
                        active &= on_board & ~full
                        here = np.where(active, target, here)
        self.capture &= layout.valid
        quiet = layout.valid & ~self.capture
        parents: list[IntArray] = []
        children: list[IntArray] = []
        crown_parents: list[IntArray] = []
        crown_squares: list[IntArray] = []  # the child's squares, in the crowned material's columns
        self.crowned: Material | None = None
        self.moves = np.zeros(n, dtype=np.int64)
        for g in own:
            king = g in (1, 3)
            for column in layout.columns[g]:
                for d in (0, 1, 2, 3) if king else forward:
                    here = squares[:, column].copy()
                    active = quiet.copy()
                    for _ in range(7 if king else 1):
                        target = _NEXT[here, d]
                        active &= (target != OFF) & ~_occupied(squares, target)
                        if not active.any():
                            break
                        at = np.nonzero(active)[0]
                        self.moves[at] += 1
                        landing = target[at]
                        crowns = np.zeros(len(at), dtype=bool) if king else _CROWN[side][landing]
                        plain = ~crowns
                        if plain.any():
                            group = squares[at[plain]][:, layout.columns[g]].copy()
                            group[:, layout.columns[g].index(column)] = landing[plain]
                            rank = _rank(_ORDINAL[g][group])
                            slot = at[plain] + (rank - layout.ranks[g][at[plain]]) * layout.multiplier[g]
                            parents.append(at[plain] + side * n)
                            children.append(slot + (1 - side) * n)
                        if crowns.any():
                            moved = squares[at[crowns]].copy()
                            moved[:, column] = landing[crowns]
                            men, kings = layout.columns[g], layout.columns[g + 1]
                            order = [c for c in range(squares.shape[1]) if c < men[0]]
                            order += [c for c in men if c != column] + kings + [column]
                            order += [c for c in range(squares.shape[1]) if c > (kings[-1] if kings else men[-1])]
                            crown_parents.append(at[crowns] + side * n)
                            crown_squares.append(moved[:, order])
                            crowned = list(layout.material)
                            crowned[g] -= 1
                            crowned[g + 1] += 1
                            self.crowned = (crowned[0], crowned[1], crowned[2], crowned[3])
                        here = np.where(active, target, here)
        empty = np.zeros(0, dtype=np.int64)
        self.parents = np.concatenate(parents) if parents else empty
        self.children = np.concatenate(children) if children else empty
        self.crown_parents = np.concatenate(crown_parents) if crown_parents else empty
        self.crown_squares = (np.concatenate(crown_squares) if crown_squares
                              else np.zeros((0, squares.shape[1]), dtype=np.int64))


def _crowned_slots(material: Material, squares: IntArray) -> IntArray:
    """Slots in ``material``'s table of boards given as piece squares in its column order."""
    layout_sizes = group_sizes(material)
    slot = np.zeros(len(squares), dtype=np.int64)
    start = 0
    for g in range(4):
        rank = _rank(_ORDINAL[g][squares[:, start:start + material[g]]])
        slot = slot * layout_sizes[g] + rank
        start += material[g]
    return slot


Lookup = Callable[[int, int, int, bool], int]


def _lookup_in(tables: dict[Material, memoryview]) -> Lookup:
    def lookup(dark: int, light: int, kings: int, dark_to_move: bool) -> int:
        if not (dark if dark_to_move else light):
            return -1  # no piece left: lost now
        table = tables[((dark & ~kings).bit_count(), (dark & kings).bit_count(),
                        (light & ~kings).bit_count(), (light & kings).bit_count())]
        slot = slot_of(dark, light, kings)
        return int(table[slot if dark_to_move else len(table) // 2 + slot])
    return lookup


def _solve(layout: _Layout, moves: tuple[_Moves, _Moves], removal: CapturedRemoval,
           tables: dict[Material, memoryview]) -> npt.NDArray[np.int16]:
    """Steps 2 and 3 for one material under one removal setting."""
    n = layout.total
    nodes = 2 * n
    immediate = removal is CapturedRemoval.IMMEDIATE
    lookup = _lookup_in(tables)
    big = np.iinfo(np.int64).max
    win_at = np.full(nodes, big, dtype=np.int64)
    loss_at = np.full(nodes, big, dtype=np.int64)
    value = np.zeros(nodes, dtype=np.int16)
    done = np.zeros(nodes, dtype=bool)
    can_lose = np.ones(nodes, dtype=bool)
    ext_loss = np.zeros(nodes, dtype=np.int64)  # the longest loss through a crowning
    remaining = np.zeros(nodes, dtype=np.int64)
    bits = _BITS[layout.squares]
    dark_cols = layout.columns[0] + layout.columns[1]
    king_cols = layout.columns[1] + layout.columns[3]
    dark_bb = bits[:, dark_cols].sum(axis=1) if dark_cols else np.zeros(n, dtype=np.int64)
    light_bb = bits[:, layout.columns[2] + layout.columns[3]].sum(axis=1)
    king_bb = bits[:, king_cols].sum(axis=1) if king_cols else np.zeros(n, dtype=np.int64)

    for side in (0, 1):
        m = moves[side]
        offset = side * n
        done[offset:offset + n] |= ~layout.valid
        # Step 2: captures, from the smaller tables.
        for slot in np.nonzero(m.capture)[0].tolist():
            dark, light, kings = int(dark_bb[slot]), int(light_bb[slot]), int(king_bb[slot])
            up = side == 0
            mine, theirs = (dark, light) if up else (light, dark)
            children = []
            for effect in capture_effects(mine, theirs, kings, up, immediate):
                me, them, k = play_effect(mine, theirs, kings, effect)
                child_dark, child_light = (me, them) if up else (them, me)
                children.append(lookup(child_dark, child_light, k, not up))
            stored = best_of(children)
            if stored:  # a draw is what is never settled
                (win_at if stored > 0 else loss_at)[offset + slot] = abs(stored) - 1
        # Crownings, from the crowned material's table.
        if len(m.crown_parents):
            assert m.crowned is not None
            crowned_table = np.frombuffer(tables[m.crowned], dtype=np.int16)
            child = crowned_table[(1 - side) * (len(crowned_table) // 2) + _crowned_slots(m.crowned, m.crown_squares)]
            through = np.where(child > 0, -(child.astype(np.int64) + 1),
                               np.where(child < 0, -child.astype(np.int64) + 1, 0))
            wins = through > 0
            np.minimum.at(win_at, m.crown_parents[wins], through[wins] - 1)
            can_lose[m.crown_parents[through >= 0]] = False
            losing = through < 0
            np.maximum.at(ext_loss, m.crown_parents[losing], -through[losing] - 1)
        # No move at all: lost now.
        stuck = np.nonzero(layout.valid & ~m.capture & (m.moves == 0))[0] + offset
        loss_at[stuck] = 0

    parents = np.concatenate([moves[0].parents, moves[1].parents])
    edges_to = np.concatenate([moves[0].children, moves[1].children])
    remaining += np.bincount(parents, minlength=nodes)
    quiet_nodes = np.concatenate([np.nonzero(layout.valid & ~moves[s].capture & (moves[s].moves > 0))[0] + s * n
                                  for s in (0, 1)])
    ready = quiet_nodes[(remaining[quiet_nodes] == 0) & can_lose[quiet_nodes]]
    loss_at[ready] = ext_loss[ready]  # only crownings, all losing
    order = np.argsort(edges_to, kind="stable")
    by_child = parents[order]
    starts = np.zeros(nodes + 1, dtype=np.int64)
    np.cumsum(np.bincount(edges_to, minlength=nodes), out=starts[1:])

    level = 0
    while True:
        settled = np.nonzero(~done & ((win_at if level % 2 else loss_at) == level))[0]
        if len(settled):
            done[settled] = True
            value[settled] = level + 1 if level % 2 else -(level + 1)
            first, last = starts[settled], starts[settled + 1]
            counts = last - first
            total = int(counts.sum())
            if total:
                index = np.repeat(first - np.cumsum(counts) + counts, counts) + np.arange(total)
                up_one = by_child[index]
                if level % 2 == 0:  # the children lost: their parents win next
                    win_at[up_one] = np.minimum(win_at[up_one], level + 1)
                else:  # the children won: a parent whose every move leads there loses
                    hits, times = np.unique(up_one, return_counts=True)
                    remaining[hits] -= times
                    lost = hits[(remaining[hits] == 0) & can_lose[hits] & ~done[hits]]
                    loss_at[lost] = np.maximum(level + 1, ext_loss[lost])
        pending = ~done & ((win_at < big) | (loss_at < big))
        if not pending.any():
            break
        assert np.minimum(win_at[pending], loss_at[pending]).min() > level, "a value missed its level"
        level += 1
    return value


def build(max_pieces: int = 4, removals: Sequence[CapturedRemoval] = tuple(CapturedRemoval),
          log: Callable[[str], None] | None = None) -> dict[CapturedRemoval, EndgameTable]:
    """Solve every material of up to ``max_pieces`` pieces under each removal setting."""
    found: dict[CapturedRemoval, dict[Material, memoryview]] = {r: {} for r in removals}
    for material in materials(max_pieces):
        started = time.perf_counter()
        layout = _Layout(material)
        moves = (_Moves(layout, 0), _Moves(layout, 1))
        for removal in removals:
            found[removal][material] = memoryview(_solve(layout, moves, removal, found[removal]).data)
        if log:
            valid = int(layout.valid.sum())
            log(f"{material_name(material)}: {2 * valid:,} positions, {time.perf_counter() - started:.1f} s")
    return {r: EndgameTable(dict(t), r) for r, t in found.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build the endgame tables by retrograde analysis.")
    parser.add_argument("--pieces", type=int, default=4, help="most pieces on the board (default 4)")
    parser.add_argument("--out", type=Path, help="folder for the tables (default: the one the analysis "
                        f"reads, ${TABLES_ENV} or $XDG_DATA_HOME/makhos/endgames)")
    parser.add_argument("--removal", choices=[r.value for r in CapturedRemoval], action="append",
                        help="captured-removal setting (default both)")
    args = parser.parse_args(argv)
    if not 2 <= args.pieces <= 5:
        parser.error("--pieces must be 2-5")
    removals = [CapturedRemoval(r) for r in args.removal] if args.removal else list(CapturedRemoval)
    started = time.perf_counter()
    tables = build(args.pieces, removals, log=lambda line: print(line, flush=True))
    for table in tables.values():
        print(f"wrote {table.save(args.out or tables_folder())}")
    print(f"done in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
