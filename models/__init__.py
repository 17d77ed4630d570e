"""The run-time files: the trained square classifier and the demo's sample game.

They are package data, found through :mod:`importlib.resources` wherever the package is
installed. The recipe that made them is the lab's (``lab/training``, ``lab/videos``).
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

#: The square classifier (``vision.classifier``).
SQUARE_CLASSIFIER = "square_classifier.onnx"
#: The piece reader (``vision.reader``): the pretrained network cut to its features, and the
#: generic heads on them that the start position refits.
PIECE_READER = "board_reader.onnx"
PIECE_READER_HEADS = "board_reader_heads.json"
#: How a king stands apart from a man on its own square, for that network: where a game's
#: own king refit starts (``vision.learning``; recipe ``lab/reader/king_apart.py``).
KING_APART = "board_reader_king_apart.json"
#: The demo's sample game: a rendered video with its true PDN and events beside it.
SAMPLE_VIDEO = "sample/sample.mp4"


def path(name: str) -> Path:
    """The file ``name`` of this package (for example :data:`SQUARE_CLASSIFIER`) on disk."""
    return Path(str(files(__name__).joinpath(name)))
