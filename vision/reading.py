"""Reading: what the camera says about the 32 played squares at one moment.

Pure numpy, so the tracker (which never touches images) can take it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from makhos.engine import Colour, Piece, Position

#: Class order of the square classifier's output, used everywhere probabilities flow.
CLASSES: tuple[Piece | None, ...] = (None, Piece.LIGHT_MAN, Piece.DARK_MAN, Piece.LIGHT_KING, Piece.DARK_KING)
CLASS_INDEX: dict[Piece | None, int] = {piece: k for k, piece in enumerate(CLASSES)}
#: The classes as one character each, as in ``engine.position.Piece`` ('.' = empty).
LABELS: tuple[str, ...] = (".", "l", "d", "L", "D")


def labels_of(probabilities: np.ndarray) -> str:
    """The most likely label of each square, as a 32-character string.

    >>> labels_of(np.eye(5)[[0, 1, 2, 3, 4] + [0] * 27])
    '.ldLD...........................'
    """
    return "".join(LABELS[i] for i in probabilities.argmax(1))


def side_probabilities(probabilities: np.ndarray) -> np.ndarray:
    """(32, 3) probabilities of empty, a light piece, a dark piece: man and king merged."""
    p = probabilities
    return np.stack([p[:, 0], p[:, 1] + p[:, 3], p[:, 2] + p[:, 4]], axis=1)


@dataclass(frozen=True)
class Reading:
    """Per-square probabilities of one settled frame.

    ``probabilities[i, k]`` is the probability that square ``i + 1`` holds ``CLASSES[k]``.
    """

    time: float
    probabilities: np.ndarray  # (32, 5) float32, rows sum to 1
    confidence: float = 1.0  # of the board location
    relit: bool = False  # read in another light than the last position the game taught
    # (``vision.board_light``): many squares read otherwise may be the light's doing

    def __post_init__(self) -> None:
        if self.probabilities.shape != (32, len(CLASSES)):
            raise ValueError(f"a reading has shape (32, 5), not {self.probabilities.shape}")

    def labels(self) -> np.ndarray:
        """The most likely class of each square."""
        labels: np.ndarray = self.probabilities.argmax(axis=1)
        return labels

    def position(self, turn: Colour = Colour.DARK) -> Position:
        """The most likely board, as a position with the given side to move."""
        pieces = {s + 1: CLASSES[k] for s, k in enumerate(self.labels()) if CLASSES[k] is not None}
        return Position.from_pieces(pieces, turn)

    @classmethod
    def certain(cls, position: Position, time: float = 0.0, sureness: float = 0.98) -> "Reading":
        """A reading that puts ``sureness`` on each square of ``position`` (tests, replays)."""
        rest = (1.0 - sureness) / (len(CLASSES) - 1)
        probabilities = np.full((32, len(CLASSES)), rest, dtype=np.float32)
        for square in range(1, 33):
            probabilities[square - 1, CLASS_INDEX[position.piece_at(square)]] = sureness
        return cls(time, probabilities)
