"""The rule set of a game: every point where the Thai sources differ is a setting here.

Defaults follow the project's rules document (``docs/RULES.md``): dark moves first,
captured pieces are removed when the chain ends, the third occurrence of a position is a
draw by repetition, and the count rule gives 16 moves.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import Any, Callable


class Colour(enum.Enum):
    """The two sides. Dark sits on squares 25-32 and moves toward square 1."""

    DARK = "dark"
    LIGHT = "light"

    @property
    def opponent(self) -> "Colour":
        return Colour.LIGHT if self is Colour.DARK else Colour.DARK

    @property
    def pdn(self) -> str:
        """The PDN letter: ``B`` for dark, ``W`` for light."""
        return "B" if self is Colour.DARK else "W"

    @classmethod
    def from_pdn(cls, letter: str) -> "Colour":
        try:
            return {"B": cls.DARK, "W": cls.LIGHT}[letter.upper()]
        except KeyError:
            raise ValueError(f"side must be B (dark) or W (light), not {letter!r}") from None


class CapturedRemoval(enum.Enum):
    """When the pieces jumped in a capture chain leave the board.

    ``END_OF_TURN`` (the default, ``thai-checkers-complete-rules``): they stay until the
    chain ends, block the capturing king and cannot be jumped twice. ``IMMEDIATE``: each is
    removed at once, as most engines do, so a king may turn back through its square.
    """

    END_OF_TURN = "end_of_turn"
    IMMEDIATE = "immediate"


class Setup(enum.Enum):
    """How the pieces stand before the first move."""

    STANDARD = "standard"  # men only, on the first 2 (8-man) or 3 (12-man) rows
    ONE_KING = "one-king"  # PEA 2005 §11: 7 men + a king on 4 and 29
    TWO_KINGS = "two-kings"  # 6 men + kings on 3,4 and 29,30
    THREE_KINGS = "three-kings"  # 5 men + kings on 2,3,4 and 29,30,31
    GOLDEN = "golden"  # tie-break: kings only, on 2 and 31, one more each per golden board


@dataclass(frozen=True, slots=True)
class Rules:
    """Settings of one game. Immutable; use :meth:`with_` to derive a variant.

    >>> Rules().men_per_side, Rules(men_per_side=12).start_fen()
    (8, 'B:W1,2,3,4,5,6,7,8,9,10,11,12:B21,22,23,24,25,26,27,28,29,30,31,32')
    """

    men_per_side: int = 8
    setup: Setup = Setup.STANDARD
    golden_board: int = 1  # which golden board (1 = one king a side), with Setup.GOLDEN
    first_mover: Colour = Colour.DARK
    captured_removal: CapturedRemoval = CapturedRemoval.END_OF_TURN
    repetition_threshold: int = 3  # same position, same side to move, this many times
    count_rule_moves: int = 16  # 16 (sports association), 10 (PEA 2005) or 50 (online)
    # True: the count starts on a player's claim (tournament rules). False: it runs by
    # itself over full moves without a capture or a man move (the online 50-move rule).
    count_on_claim: bool = True
    forced_opening: tuple[str, ...] = field(default=())  # moves in PDN, e.g. ("22-18", "11-15")

    def __post_init__(self) -> None:
        if self.men_per_side not in (8, 12):
            raise ValueError(f"men_per_side must be 8 or 12, not {self.men_per_side}")
        if not 1 <= self.golden_board <= 4:
            raise ValueError(f"golden_board must be 1-4, not {self.golden_board}")
        if self.repetition_threshold < 2:
            raise ValueError("repetition_threshold must be at least 2")
        if self.count_rule_moves < 1:
            raise ValueError("count_rule_moves must be positive")
        if self.setup is not Setup.STANDARD and self.men_per_side != 8:
            raise ValueError(f"the {self.setup.value} set-up is for the 8-man game")

    def with_(self, **changes: Any) -> Rules:
        """A copy with some settings changed."""
        return replace(self, **changes)

    def start_squares(self) -> tuple[dict[int, bool], dict[int, bool]]:
        """Squares of (light, dark) pieces at the start, mapped to whether each is a king."""
        if self.setup is Setup.GOLDEN:
            n = self.golden_board
            light = {s: True for s in range(2, 2 + n)}
            dark = {s: True for s in range(31, 31 - n, -1)}
            return light, dark
        rows = 3 if self.men_per_side == 12 else 2
        light = {s: False for s in range(1, 4 * rows + 1)}
        dark = {s: False for s in range(33 - 4 * rows, 33)}
        kings = {Setup.ONE_KING: 1, Setup.TWO_KINGS: 2, Setup.THREE_KINGS: 3}.get(self.setup, 0)
        for k in range(kings):
            light[4 - k] = True
            dark[29 + k] = True
        return light, dark

    def start_fen(self) -> str:
        """The PDN FEN of the starting position."""
        light, dark = self.start_squares()

        def side(pieces: dict[int, bool]) -> str:
            return ",".join(("K" if king else "") + str(s) for s, king in sorted(pieces.items()))

        return f"{self.first_mover.pdn}:W{side(light)}:B{side(dark)}"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form of the settings (enums by value, tuples as lists)."""
        out = {}
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if isinstance(value, enum.Enum):
                value = value.value
            elif isinstance(value, tuple):
                value = list(value)
            out[name] = value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Read settings written by :meth:`to_dict`; unknown keys are an error."""
        known = set(cls.__dataclass_fields__)
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown rule settings: {', '.join(sorted(unknown))}")
        kwargs = dict(data)
        # Settings arrive as JSON from --rules or a profile: a number given as a string
        # must be a clear error, not a TypeError from a comparison deep in __post_init__.
        for key, value in kwargs.items():
            wanted = {"int": int, "bool": bool}.get(str(cls.__dataclass_fields__[key].type))
            if wanted is not None and type(value) is not wanted:
                raise ValueError(f"bad value for {key}: {value!r} (expected {wanted.__name__})")
        converters: dict[str, Callable[[Any], Any]] = {
            "setup": Setup,
            "first_mover": Colour,
            "captured_removal": CapturedRemoval,
            "forced_opening": _move_list,
        }
        for key, convert in converters.items():
            if key in kwargs:
                try:
                    kwargs[key] = convert(kwargs[key])
                except (ValueError, TypeError):
                    raise ValueError(f"bad value for {key}: {kwargs[key]!r}") from None
        return cls(**kwargs)


def _move_list(value: Any) -> tuple[str, ...]:
    """A list of moves; a lone string is refused, as tuple() would split it into characters."""
    if isinstance(value, str) or not all(isinstance(move, str) for move in value):
        raise ValueError("expected a list of moves such as [\"22-18\", \"11-15\"]")
    return tuple(value)
