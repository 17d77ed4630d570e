"""The square networks of one process, each loaded once and shared by all its boards.

A worker watching several cameras (``makhos worker --board 1 --board 2``) reads every
board with the same networks. An onnxruntime session may be run from several threads at
once, and each session holds the network's weights and memory of its own (about 30 MiB
for the piece reader), so a session per board would cost that much for each camera. What
is a board's own stays with the board: the piece reader's adaptation to this set and light
(``vision.learning.AdaptingReader``), a board profile's set adaptation
(``calibration.adaptation.AdaptedClassifier``).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Callable, TypeVar

if TYPE_CHECKING:  # loaded when first asked for: a replayed board needs no onnxruntime
    from .classifier import SquareClassifier
    from .reader import PieceReader

N = TypeVar("N")


class Networks:
    """Each network file loaded once, on first use, whichever board's thread asks first."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loaded: dict[tuple[str, Path], object] = {}

    def piece_reader(self, model: Path | str | None = None) -> PieceReader:
        """The piece reader of ``model`` (default: the installed one), on one thread per run
        (a board's thread)."""
        from .reader import DEFAULT_MODEL, PieceReader

        return self._once("piece reader", model or DEFAULT_MODEL, PieceReader, PieceReader)

    def square_classifier(self, model: Path | str) -> SquareClassifier:
        """The square classifier of ``model`` (a board profile's network)."""
        from .classifier import SquareClassifier

        return self._once("square classifier", model, SquareClassifier, SquareClassifier)

    def _once(self, kind: str, model: Path | str, load: Callable[[Path], N], loaded: type[N]) -> N:
        key = (kind, Path(model).resolve())
        with self._lock:  # two boards starting together load the network once
            network = self._loaded.get(key)
            if network is None:
                network = self._loaded[key] = load(key[1])
        assert isinstance(network, loaded)
        return network

    def __len__(self) -> int:
        """How many networks are loaded (what the process's boards share)."""
        return len(self._loaded)
