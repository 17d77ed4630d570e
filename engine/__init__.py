"""The rules of Thai checkers (หมากฮอส), pure and exact: no I/O, no OpenCV, no Flask."""

from pathlib import Path

from .native import choose

#: Whether the mypyc-compiled hot path runs (:mod:`engine.native`); decided before any of
#: its modules is imported below.
COMPILED = choose(__name__, Path(__file__).parent)

from .move import Move, MoveText  # noqa: E402 (after the choice above)
from .position import Piece, Position  # noqa: E402
from .rules import CapturedRemoval, Colour, Rules, Setup  # noqa: E402

__all__ = ["COMPILED", "CapturedRemoval", "Colour", "Move", "MoveText", "Piece", "Position", "Rules", "Setup"]
