"""Frame providers for the referee's camera view.

The vision pipeline runs in another process (the recorder), so the simplest hand-over is
a folder: it writes each board's latest annotated frame as ``<board>.jpg`` (to a temporary
name, then renamed, so a reader never sees half a file) and the server serves it.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_SAFE_ID = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


@dataclass(frozen=True)
class KeptPicture:
    """What the worker kept of a ply (``session.kept.KeptPlies``), as the report draws it
    (:class:`server.report.Picture`); the JPEG is served on its own address. ``fen``: the
    position after the ply when it was kept, which tells a picture of this game's ply from a
    stale one."""

    time: float
    shows: int
    has_jpeg: bool
    seen: str | None
    doubt: tuple[int, float] | None
    fen: str | None

    @property
    def jpeg(self) -> bytes | None:
        return None

    def unfit(self, fen: str) -> str | None:
        """Why this picture may not be shown against a ply whose position after is ``fen``
        (None: it may): one kept of another position (before the log was started afresh),
        or one whose JPEG cannot be read."""
        if self.fen != fen:
            return "the picture kept is of another position"
        return None if self.has_jpeg else "the picture kept cannot be read"


class FolderFrames:
    """A FrameProvider reading ``<folder>/<board>.jpg``.

    >>> FolderFrames(Path("/nonexistent")).snapshot("../etc/passwd") is None
    True
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def snapshot(self, board: str) -> bytes | None:
        return self._bytes(board, ".jpg")

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

    def board_picture(self, board: str) -> bytes | None:
        """The rectified board when the last move was accepted (``<board>.board.jpg``)."""
        return self._bytes(board, ".board.jpg")

    def kept_plies(self, board: str, game: int) -> list[KeptPicture | None]:
        """The rectified board the worker kept at each ply of game ``game``
        (``<board>.plies/game-N/ply-NNN.json``), by ply; None where none was kept or what
        was kept cannot be read (half a game's pictures are still worth showing)."""
        folder = self._path(board, f".plies/game-{game}")
        found: dict[int, KeptPicture] = {}
        for meta in sorted(folder.glob("ply-[0-9][0-9][0-9].json")) if folder is not None else []:
            kept = _kept(meta)
            if kept is not None:
                found[int(meta.stem[4:])] = kept
        return [found.get(ply) for ply in range(1, max(found, default=0) + 1)]

    def kept_ply(self, board: str, game: int, ply: int) -> KeptPicture | None:
        """What the worker kept of one ply, or None."""
        meta = self._path(board, f".plies/game-{game}/ply-{ply:03d}.json")
        return None if meta is None else _kept(meta)

    def kept_picture(self, board: str, game: int, ply: int) -> bytes | None:
        """The JPEG kept for ``ply`` of game ``game``, or None."""
        return self._bytes(board, f".plies/game-{game}/ply-{ply:03d}.jpg")

    def _bytes(self, board: str, suffix: str) -> bytes | None:
        path = self._path(board, suffix)
        try:
            return path.read_bytes() if path is not None else None
        except OSError:
            return None

    def _path(self, board: str, suffix: str) -> Path | None:
        if not _SAFE_ID.match(board) or board.startswith("."):
            return None  # a board id never names a path outside the folder
        return self.folder / f"{board}{suffix}"


def _kept(meta: Path) -> KeptPicture | None:
    """A ply's ``.json`` beside its ``.jpg``; None when missing or unreadable."""
    try:
        kept = json.loads(meta.read_text(encoding="utf-8"))
        doubt = kept["doubt"]
        return KeptPicture(float(kept["time"]), int(kept["shows"]), _whole_jpeg(meta.with_suffix(".jpg")),
                           kept["seen"], None if doubt is None else (int(doubt[0]), float(doubt[1])),
                           kept.get("fen"))
    except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError):
        return None


def _whole_jpeg(path: Path) -> bool:
    """Whether ``path`` holds a JPEG from its start marker to its end marker: a missing,
    truncated or foreign file is not shown (the server decodes no images)."""
    try:
        with path.open("rb") as file:
            start = file.read(2)
            file.seek(-2, 2)
            return start == b"\xff\xd8" and file.read(2) == b"\xff\xd9"
    except OSError:
        return False
