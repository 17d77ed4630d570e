"""Named colour schemes for boards and pieces, split into training and held-out variants.

Each family (black/white, wood grain, ...) has several concrete variants. The held-out
variants (``held_out=True``) never appear in training, so the test split measures how the
classifier copes with colours it has not seen, as a new physical board would be.
Colours are written as RGB hex for readability and converted to BGR for OpenCV.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar


def bgr(hex_rgb: str) -> tuple[int, int, int]:
    """'#RRGGBB' -> (B, G, R)."""
    value = int(hex_rgb.lstrip("#"), 16)
    return (value & 0xFF, (value >> 8) & 0xFF, value >> 16)


@dataclass(frozen=True, slots=True)
class BoardPalette:
    """Square colours of a board; ``texture`` is 'plain', 'paper' or 'wood'."""

    name: str
    light: tuple[int, int, int]
    dark: tuple[int, int, int]
    texture: str = "plain"
    held_out: bool = False


@dataclass(frozen=True, slots=True)
class PieceSet:
    """Top colours of the two sides' men; 'light' is the lighter of the two by definition."""

    name: str
    light: tuple[int, int, int]
    dark: tuple[int, int, int]
    wood: bool = False
    held_out: bool = False


BOARD_PALETTES: tuple[BoardPalette, ...] = (
    BoardPalette("black-white-1", bgr("#F0F0EC"), bgr("#202020")),
    BoardPalette("black-white-2", bgr("#FFFFFF"), bgr("#101012")),
    BoardPalette("black-white-3", bgr("#E6E2D6"), bgr("#34342F"), held_out=True),
    BoardPalette("brown-cream-1", bgr("#F0DCB4"), bgr("#8B5A2B")),
    BoardPalette("brown-cream-2", bgr("#F5E6C8"), bgr("#A0522D")),
    BoardPalette("brown-cream-3", bgr("#EEDDBB"), bgr("#6B4226"), held_out=True),
    BoardPalette("green-buff-1", bgr("#EEEED2"), bgr("#769656")),
    BoardPalette("green-buff-2", bgr("#E6D8A8"), bgr("#2E6B3F")),
    BoardPalette("green-buff-3", bgr("#F0E6C0"), bgr("#4F7A3A"), held_out=True),
    BoardPalette("red-green-1", bgr("#C8302C"), bgr("#2E6B3A")),
    BoardPalette("red-green-2", bgr("#D84838"), bgr("#1F4F2F")),
    BoardPalette("red-green-3", bgr("#B22222"), bgr("#285F45"), held_out=True),
    BoardPalette("paper-1", bgr("#F4F4EE"), bgr("#6E6E6E"), "paper"),
    BoardPalette("paper-2", bgr("#FAFAF5"), bgr("#3A3A80"), "paper"),
    BoardPalette("paper-3", bgr("#F2F0E6"), bgr("#484848"), "paper", held_out=True),
    BoardPalette("wood-1", bgr("#E3C08D"), bgr("#6B3E1F"), "wood"),
    BoardPalette("wood-2", bgr("#D8B07A"), bgr("#5A2E14"), "wood"),
    BoardPalette("wood-3", bgr("#EAC896"), bgr("#8A5030"), "wood"),
    BoardPalette("wood-4", bgr("#DDB888"), bgr("#643822"), "wood", held_out=True),
)

PIECE_SETS: tuple[PieceSet, ...] = (
    PieceSet("white-black-1", bgr("#F2F2EE"), bgr("#1E1E1E")),
    PieceSet("white-black-2", bgr("#E0E0D8"), bgr("#303030"), held_out=True),
    PieceSet("red-black-1", bgr("#C0282D"), bgr("#1A1A1A")),
    PieceSet("red-black-2", bgr("#D04040"), bgr("#2A2A2A"), held_out=True),
    PieceSet("cream-brown-1", bgr("#EED9B0"), bgr("#6A3C1E")),
    PieceSet("cream-brown-2", bgr("#F2E2C4"), bgr("#7B4A2A"), held_out=True),
    PieceSet("wood-1", bgr("#D9B583"), bgr("#4A2A16"), wood=True),
    PieceSet("wood-2", bgr("#C8A070"), bgr("#3A2010"), wood=True, held_out=True),
    PieceSet("wood-3", bgr("#E0C090"), bgr("#5A3420"), wood=True),
    PieceSet("yellow-blue-1", bgr("#E8C830"), bgr("#2040A0")),
    PieceSet("yellow-blue-2", bgr("#F0D850"), bgr("#1A3080"), held_out=True),
)


#: A palette table's item: a board's or a piece set's colours.
Palette = TypeVar("Palette", BoardPalette, PieceSet)


def select(items: tuple[Palette, ...], held_out: bool | None,
           names: tuple[str, ...] | None = None) -> tuple[Palette, ...]:
    """Items of a palette table: by exact names, else by split (None = all)."""
    if names is not None:
        chosen = tuple(p for p in items if p.name in names)
        if len(chosen) != len(set(names)):
            raise ValueError(f"unknown palette among {names}")
        return chosen
    return tuple(p for p in items if held_out is None or p.held_out == held_out)
