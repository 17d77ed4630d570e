"""Endgame tables: the exact value of every position with few pieces, and how far the end is.

A table holds, for every position of up to ``max_pieces`` pieces (men and kings of both
sides, either side to move), the game's value with best play: a win or a loss in a
number of plies, or a draw. It is built once by retrograde analysis (``make endgames``,
:mod:`engine.endgame_build`), saved in the user's data folder (:func:`tables_folder`), and
read here.

What the values mean:

- *Win in d*: the side to move can force the end of the game (the opponent has no piece
  or no move) within ``d`` plies against any defence, and the defence can delay it that
  long; ``d`` counts both sides' plies.
- *Draw*: neither side can force a win, so with best play the game goes on for ever
  and ends by the repetition rule (or by agreement or a count). A table draw is a
  position no one can win, not a position the rules have already drawn.
- The count rule is not in the table: a long win (many king moves without a capture or a
  man move) may be cut short by a count that is running. The search does not use the table
  while a count runs.

One table per captured-removal setting: the two settings differ for kings' chains already
with three pieces (``B:BK18:W15,22``). The number of men per side and the first mover do
not matter here.

Layout: a position is split by its *material* (dark men, dark kings, light men, light kings)
into sub-tables; within one, each group of like pieces is ranked by the combinatorial number
system over the squares its pieces may stand on (a man never stands on the row where it
would have been crowned), and the ranks are mixed into one slot. Slots where two groups
share a square are unused. Values are int16: 0 a draw, ``d + 1`` a win in ``d`` plies,
``-(d + 1)`` a loss in ``d`` plies (so a side with no move, lost now, is -1).
"""

from __future__ import annotations

import enum
import os
from dataclasses import dataclass
from math import comb
from pathlib import Path
from typing import Any

from .position import Position
from .rules import CapturedRemoval, Colour
from .squares import BIT, BOTTOM_ROW, SQUARES, TOP_ROW

#: Names the folder of the endgame tables instead of the user's data folder.
TABLES_ENV = "MAKHOS_ENDGAMES"


def tables_folder() -> Path:
    """Where ``make endgames`` writes the tables and the analysis (``makhos analyse``, the
    pages' evaluation) reads them: ``$MAKHOS_ENDGAMES`` when set, else the user's data
    folder, ``$XDG_DATA_HOME/makhos/endgames`` (``~/.local/share/makhos/endgames`` by
    default, as the XDG base directories say).

    Found from the environment, never from where the code lies: a wheel installs the code
    into site-packages, where nothing writes, and an editable install and a wheel must
    read the same tables.
    """
    named = os.environ.get(TABLES_ENV)
    if named:
        return Path(named).expanduser()
    data = os.environ.get("XDG_DATA_HOME", "")
    base = Path(data) if Path(data).is_absolute() else Path.home() / ".local" / "share"  # XDG: a relative one is ignored
    return base / "makhos" / "endgames"

#: Dark men, dark kings, light men, light kings: how many of each.
Material = tuple[int, int, int, int]


class Outcome(enum.Enum):
    """A table position's result for the side to move."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


@dataclass(frozen=True, slots=True)
class TableValue:
    """The exact value of a position for the side to move.

    >>> TableValue.decode(6), TableValue.decode(-1), TableValue.decode(0)
    (TableValue(outcome=<Outcome.WIN: 'win'>, plies=5), TableValue(outcome=<Outcome.LOSS: 'loss'>, plies=0), TableValue(outcome=<Outcome.DRAW: 'draw'>, plies=None))
    """

    outcome: Outcome
    plies: int | None  # to the end of the game with best play; None for a draw

    @classmethod
    def decode(cls, stored: int) -> "TableValue":
        if stored > 0:
            return cls(Outcome.WIN, stored - 1)
        if stored < 0:
            return cls(Outcome.LOSS, -stored - 1)
        return cls(Outcome.DRAW, None)

    def __str__(self) -> str:
        return "draw" if self.plies is None else f"{self.outcome.value} in {self.plies}"


def best_of(values: list[int]) -> int:
    """The stored value of a position whose moves lead to positions of ``values`` (each
    from the opponent's side, who is to move there): negamax with distances.

    The winner takes the shortest win, the loser the longest loss; no move at all is a loss now.

    >>> best_of([]), best_of([-1, 5]), best_of([3, 0]), best_of([3, 7])
    (-1, 2, 0, -8)
    """
    best = -1 if not values else None
    best_key: tuple[int, int] = (-1, 0)
    for child in values:
        mine = from_child(child)
        key = (2, -mine) if mine > 0 else (1, 0) if mine == 0 else (0, -mine)
        if best is None or key > best_key:
            best, best_key = mine, key
    assert best is not None
    return best


def from_child(child: int) -> int:
    """The stored value one ply before a position of stored value ``child``."""
    if child > 0:
        return -(child + 1)
    if child < 0:
        return -child + 1
    return 0


# ---------------------------------------------------------------- indexing


def _allowed(group: int) -> tuple[int, ...]:
    """Bit indices a group's pieces may stand on, ascending: dark men, dark kings,
    light men, light kings. A man never stands on the row where it is crowned."""
    if group == 0:
        squares = [s for s in SQUARES if not BIT[s] & TOP_ROW]
    elif group == 2:
        squares = [s for s in SQUARES if not BIT[s] & BOTTOM_ROW]
    else:
        squares = list(SQUARES)
    return tuple(sorted(BIT[s].bit_length() - 1 for s in squares))


ALLOWED: tuple[tuple[int, ...], ...] = tuple(_allowed(g) for g in range(4))
#: ORDINAL[group][bit index]: the place of a square among the group's allowed ones, or -1.
ORDINAL: tuple[tuple[int, ...], ...] = tuple(
    tuple(ALLOWED[g].index(i) if i in ALLOWED[g] else -1 for i in range(35)) for g in range(4)
)
#: BINOMIAL[n][k] for the combinatorial number system (n up to 32, k up to 4).
BINOMIAL: tuple[tuple[int, ...], ...] = tuple(tuple(comb(n, k) for k in range(6)) for n in range(33))


def group_sizes(material: Material) -> tuple[int, int, int, int]:
    """How many ways each group of a material can stand (overlaps between groups included)."""
    return tuple(BINOMIAL[len(ALLOWED[g])][material[g]] for g in range(4))  # type: ignore[return-value]


def slots(material: Material) -> int:
    """The number of slots of a material's sub-table (per side to move)."""
    sizes = group_sizes(material)
    return sizes[0] * sizes[1] * sizes[2] * sizes[3]


def material_of(dark: int, light: int, kings: int) -> Material:
    return ((dark & ~kings).bit_count(), (dark & kings).bit_count(),
            (light & ~kings).bit_count(), (light & kings).bit_count())


def slot_of(dark: int, light: int, kings: int) -> int:
    """The slot of a board within its material's sub-table (both sides' sub-tables alike)."""
    groups = (dark & ~kings, dark & kings, light & ~kings, light & kings)
    material = material_of(dark, light, kings)
    sizes = group_sizes(material)
    slot = 0
    for g in range(4):
        board = groups[g]
        ordinal = ORDINAL[g]
        rank = 0
        k = 1
        while board:
            low = board & -board
            board ^= low
            o = ordinal[low.bit_length() - 1]
            if o < 0:
                raise ValueError("a man on the row where it would have been crowned")
            rank += BINOMIAL[o][k]
            k += 1
        slot = slot * sizes[g] + rank
    return slot


def materials(max_pieces: int) -> list[Material]:
    """Every material with 2 to ``max_pieces`` pieces and at least one piece a side, in
    the order the tables are built: fewer pieces first (a capture leads there), then fewer
    men (a crowning leads there)."""
    out = []
    for total in range(2, max_pieces + 1):
        for dark in range(1, total):
            light = total - dark
            for dm in range(dark + 1):
                for lm in range(light + 1):
                    out.append((dm, dark - dm, lm, light - lm))
    out.sort(key=lambda m: (sum(m), m[0] + m[2], m))
    return out


def material_name(material: Material) -> str:
    """A file-safe name such as ``m1k0-m0k2`` (dark, then light)."""
    return f"m{material[0]}k{material[1]}-m{material[2]}k{material[3]}"


# ---------------------------------------------------------------- the table


class EndgameTable:
    """Exact values of every position with up to ``max_pieces`` pieces, read from arrays.

    ``tables`` maps a material to its values: an int16 sequence of ``2 * slots(material)``
    entries, dark to move first, then light to move.
    """

    def __init__(self, tables: dict[Material, Any], removal: CapturedRemoval) -> None:
        self.removal = removal
        self._tables = {m: memoryview(t) for m, t in tables.items()}  # int16: indexing gives ints
        self.max_pieces = max((sum(m) for m in tables), default=0)
        for total in range(2, self.max_pieces + 1):
            missing = [m for m in materials(total) if sum(m) == total and m not in tables]
            if missing:
                raise ValueError(f"endgame table lacks {material_name(missing[0])}")

    def stored(self, dark: int, light: int, kings: int, dark_to_move: bool) -> int | None:
        """The stored value (see the module's notes), or None beyond the table."""
        if not dark or not light:
            return -1 if not (dark if dark_to_move else light) else None
        table = self._tables.get(material_of(dark, light, kings))
        if table is None:
            return None
        slot = slot_of(dark, light, kings)
        return int(table[slot if dark_to_move else len(table) // 2 + slot])

    def probe_sides(self, mine: int, theirs: int, kings: int, up: bool) -> int | None:
        """:meth:`stored` for the search's sides (``up``: dark is to move)."""
        if up:
            return self.stored(mine, theirs, kings, True)
        return self.stored(theirs, mine, kings, False)

    def probe(self, position: Position) -> TableValue | None:
        """The value of ``position`` for the side to move, or None beyond the table."""
        found = self.stored(position.dark, position.light, position.kings, position.turn is Colour.DARK)
        return None if found is None else TableValue.decode(found)

    # ------------------------------------------------------------ files

    @staticmethod
    def file_name(removal: CapturedRemoval) -> str:
        return f"{removal.value}.npz"

    @classmethod
    def load(cls, folder: Path, removal: CapturedRemoval = CapturedRemoval.END_OF_TURN) -> "EndgameTable":
        """Read the table that ``make endgames`` wrote into ``folder``."""
        import numpy as np  # the engine's rules need no numpy; only the tables' files do

        path = Path(folder) / cls.file_name(removal)
        if not path.exists():
            raise FileNotFoundError(f"no endgame table at {path} (run `make endgames`)")
        with np.load(path) as archive:
            tables: dict[Material, Any] = {}
            for name in archive.files:
                material = _parse_material(name)
                values = archive[name]
                if values.dtype != np.int16 or len(values) != 2 * slots(material):
                    raise ValueError(f"{path}: {name} has the wrong shape or type")
                tables[material] = np.ascontiguousarray(values)
        return cls(tables, removal)

    @classmethod
    def load_if_built(cls, folder: Path | None = None,
                      removal: CapturedRemoval = CapturedRemoval.END_OF_TURN) -> "EndgameTable | None":
        """The table of ``folder`` (by default :func:`tables_folder`) for this removal
        setting, or None where none was built: the analysis is exact in the endings with it
        and still sound without."""
        try:
            return cls.load(tables_folder() if folder is None else folder, removal)
        except FileNotFoundError:
            return None

    def save(self, folder: Path) -> Path:
        import numpy as np

        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / self.file_name(self.removal)
        arrays = {material_name(m): np.frombuffer(t, dtype=np.int16) for m, t in self._tables.items()}
        np.savez_compressed(path, **arrays)  # type: ignore[arg-type]
        return path


def _parse_material(name: str) -> Material:
    try:
        dark, light = name.split("-")
        dm, dk = dark[1:].split("k")
        lm, lk = light[1:].split("k")
        return int(dm), int(dk), int(lm), int(lk)
    except ValueError:
        raise ValueError(f"not a material name: {name!r}") from None
