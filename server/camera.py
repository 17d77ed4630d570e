"""Frame providers for the referee's camera view.

The vision pipeline runs in another process (the recorder), so the simplest hand-over is
a folder: it writes each board's latest annotated frame as ``<board>.jpg`` (to a temporary
name, then renamed, so a reader never sees half a file) and the server serves it.
"""

from __future__ import annotations

import re
from pathlib import Path

_SAFE_ID = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


class FolderFrames:
    """A FrameProvider reading ``<folder>/<board>.jpg``.

    >>> FolderFrames(Path("/nonexistent")).snapshot("../etc/passwd") is None
    True
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def snapshot(self, board: str) -> bytes | None:
        if not _SAFE_ID.match(board) or board.startswith("."):
            return None  # a board id never names a path outside the folder
        try:
            return (self.folder / f"{board}.jpg").read_bytes()
        except OSError:
            return None
