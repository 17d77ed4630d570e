"""The rules of Thai checkers (หมากฮอส), pure and exact: no I/O, no OpenCV, no Flask."""

from .move import Move, MoveText
from .position import Piece, Position
from .rules import CapturedRemoval, Colour, Rules, Setup

__all__ = ["CapturedRemoval", "Colour", "Move", "MoveText", "Piece", "Position", "Rules", "Setup"]
