"""Frame providers for the referee's camera view.

The vision pipeline runs in another process (the recorder), so the simplest hand-over is
a folder: it writes each board's latest annotated frame as ``<board>.jpg`` (to a temporary
name, then renamed, so a reader never sees half a file) and the server serves it.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

_SAFE_ID = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


class FolderFrames:
    """A FrameProvider reading ``<folder>/<board>.jpg``.

    >>> FolderFrames(Path("/nonexistent")).snapshot("../etc/passwd") is None
    True
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def snapshot(self, board: str) -> bytes | None:
        path = self._path(board, ".jpg")
        try:
            return path.read_bytes() if path is not None else None
        except OSError:
            return None

    def health(self, board: str) -> dict[str, Any] | None:
        """``<folder>/<board>.json`` as the recorder last wrote it, with ``age``: the seconds
        since then (a recorder that has stopped writing is itself news)."""
        path = self._path(board, ".json")
        try:
            if path is None:
                return None
            found = json.loads(path.read_text(encoding="utf-8"))
            age = time.time() - path.stat().st_mtime
        except (OSError, ValueError):
            return None
        return {**found, "age": round(max(age, 0.0), 1)} if isinstance(found, dict) else None

    def _path(self, board: str, suffix: str) -> Path | None:
        if not _SAFE_ID.match(board) or board.startswith("."):
            return None  # a board id never names a path outside the folder
        return self.folder / f"{board}{suffix}"
