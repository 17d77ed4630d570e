"""The square reader's seam: what the rest of the product may ask of whatever reads the
crops of the 32 squares.

Two networks read squares today (``docs/reading.md``, "One square reader"):
``vision.classifier.SquareClassifier`` for a board profile (whose set adaptation was
fitted on it) and ``vision.learning.AdaptingReader`` everywhere else;
``calibration.reader.square_reader`` is the one place that picks. Both are a
:class:`SquareReader`; the piece reader also learns the game (:class:`GameLearning`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from .lens import Lens
from .rectify import CropGeometry, SquareCrops


class SquareReader(Protocol):
    """What reads the crops of the 32 squares: the network, alone or adapted to a set."""

    @property
    def geometry(self) -> CropGeometry:
        """How its crops are cut (square size, the room above a square for a stack)."""
        ...

    def classify(self, crops: SquareCrops) -> np.ndarray:
        """(32, 5) class probabilities, one row per square."""
        ...


@runtime_checkable
class StartAdapting(SquareReader, Protocol):
    """A reader that learns a board from its start position: the one frame where every
    square is known, with this game's own board, pieces, camera and light."""

    @property
    def live(self) -> bool:
        """Frames come in real time: a read never waits for a refit made off the camera's
        thread (it reads with the heads it has). Otherwise (a recording read as fast as it
        is decoded) it waits for the refit asked before it, so a recording reads the same
        from run to run."""
        ...

    def adapt(self, image: np.ndarray, corners: np.ndarray, played: str, labels: str,
              lens: Lens | None = None) -> str:
        """Refit on ``image``, whose squares (in the numbering of ``corners``) hold
        ``labels`` (32 of '.', 'l', 'd'); read with it from now on. Returns the adaptation
        as JSON, to be kept with the game: :meth:`fit`, then :meth:`restore`."""
        ...

    def fit(self, image: np.ndarray, corners: np.ndarray, played: str, labels: str,
            lens: Lens | None = None) -> str:
        """The adaptation :meth:`adapt` makes, without reading with it: it changes nothing
        the reader reads with, so it may run off the camera's thread while the reader reads
        (``BoardReader.relight``); :meth:`restore` reads with it."""
        ...

    def restore(self, adaptation: str) -> None:
        """Read with an adaptation kept with the game (a worker restarted mid-game) or
        made by :meth:`fit`, as the reader that made it did."""
        ...


@runtime_checkable
class StartChecking(SquareReader, Protocol):
    """A reader that checks a start it misreads zero-shot (pieces the colour of their
    squares) against the start's own labels, never reading a square with its own label."""

    def held_out(self, crops: SquareCrops, layouts: Sequence[str]) -> np.ndarray:
        """(K, 32, 5): the squares of one board's ``crops`` read, for each of ``layouts``
        (32 of '.', 'l', 'd'), by heads adapted to it on the other half of the board."""
        ...


@runtime_checkable
class GameLearning(StartAdapting, Protocol):
    """A reader that goes on learning the board from every position the game accepts. Its
    refits run off the camera's thread: the heads a read uses never change during it."""

    def learn(self, crops: SquareCrops, shown: str) -> str | None:
        """Learn from the crops of a read whose squares the game has proved to show
        ``shown`` (32 of '.', 'l', 'd', 'L', 'D', or '?' where the game cannot say), and
        refit where that calls for it (in the background: :meth:`refitted`). Returns the
        lesson as JSON, to be kept with the game; None where nothing was learnt."""
        ...

    def refitted(self) -> str | None:
        """The newest refit read with since last asked, as JSON to be kept with the game;
        None where none landed."""
        ...

    def resume(self, kept: Sequence[str]) -> str | None:
        """Read and learn on as the reader that kept ``kept`` (its adaptations and lessons
        of this game, in the order kept) did (a worker restarted mid-game). Returns the
        adaptation now read with."""
        ...
