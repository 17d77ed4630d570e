"""A live board's pictures on disk: the rectified board at each ply, kept by the worker for
the review report its server makes after a game (``GET /api/board/ID/report``, issue 45)
and for the board page's picture, where the organiser turns it on.

The layout, which :class:`server.camera.FolderFrames` reads (the server imports no OpenCV,
so it spells the same names)::

    <folder>/<board>.board.jpg                     the latest ply's picture (the console's)
    <folder>/<board>.plies/game-<N>/ply-NNN.jpg    game N's ply NNN, 240 px
    <folder>/<board>.plies/game-<N>/ply-NNN.json   the rest of its PlyPicture, and the
                                                   position after the ply (``fen``)

A picture goes with its game: plies taken back take theirs with them, a game the log no
longer holds (a log started afresh) loses its folder when the worker starts, and the
board's folder stays within ``budget`` bytes by dropping whole games, the oldest first. The
``fen`` lets the server tell a picture of this game's ply from a stale one.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import asdict
from pathlib import Path

from makhos.engine.game import Ply

from .annotate import write_atomic
from .review import PlyPicture, ReviewCamera
from .session import BoardSession

#: The disk a board's kept pictures may take: about 3,000 plies of 15 KB, some 50 games,
#: more than a board plays in a day (``python -m bench.kept``).
KEPT_BYTES = 48_000_000


class KeptPlies(ReviewCamera):
    """The worker's observer that keeps each ply's picture on disk (the layout above)."""

    def __init__(self, folder: Path, board: str, budget: int = KEPT_BYTES) -> None:
        super().__init__(stretches=False)
        self.root, self.budget = folder / f"{board}.plies", budget
        self.latest = folder / f"{board}.board.jpg"
        self.game: int | None = None  # the number of the game the pictures are of
        self._sizes: dict[int, int] = {}  # bytes of the other games kept, by number

    def observe(self, session: BoardSession) -> None:
        number = session.tracker.logged_game.current.number
        if number != self.game:
            self._take_up(session, number)
        super().observe(session)

    def _take_up(self, session: BoardSession, number: int) -> None:
        """Follow game ``number``: the pictures already kept of its plies (a restarted
        worker's) stand where they show the game's positions; games the log does not hold
        are pruned."""
        self.game = number
        held = {g.number for g in session.tracker.logged_game.games}
        self._sizes = {}
        for folder in _games(self.root):
            if _number(folder) not in held or _number(folder) > number:
                shutil.rmtree(folder, ignore_errors=True)
            elif _number(folder) != number:
                self._sizes[_number(folder)] = _size(folder)
        game = session.tracker.game
        plies = list(game.plies) if game is not None else []
        self.pictures = []
        for index, ply in enumerate(plies):
            picture = _kept(self.root / f"game-{number}", index + 1, ply)
            if picture is None:
                break
            self.pictures.append(picture)
        self._plies = plies[:len(self.pictures)]
        _drop_beyond(self.root / f"game-{number}", len(self.pictures))  # not this game's
        if not self.pictures:
            self.latest.unlink(missing_ok=True)  # a new game: the last one's board is not its

    def changed(self, first: int) -> None:
        folder = self.root / f"game-{self.game}"
        folder.mkdir(parents=True, exist_ok=True)
        _drop_beyond(folder, first)
        for index in range(first, len(self.pictures)):
            picture = self.pictures[index]
            if picture.jpeg is not None:
                write_atomic(folder, f"ply-{index + 1:03d}.jpg", picture.jpeg)
            meta = {k: v for k, v in asdict(picture).items() if k != "jpeg"}
            meta["fen"] = self._plies[index].after.fen()
            write_atomic(folder, f"ply-{index + 1:03d}.json", json.dumps(meta).encode())
        if self.pictures and self.pictures[-1].jpeg is not None:
            write_atomic(self.latest.parent, self.latest.name, self.pictures[-1].jpeg)
        elif not self.pictures:
            self.latest.unlink(missing_ok=True)  # a new game: the last one's board is not its
        self._prune()

    def _prune(self) -> None:
        """Drop whole games, the oldest first, until the board's pictures fit the budget;
        the game being played is never dropped. (The other games' sizes are taken once a
        game, when it begins: a day's thousands of files are not walked at every ply.)"""
        total = sum(self._sizes.values()) + _size(self.root / f"game-{self.game}")
        for number in sorted(self._sizes):
            if total <= self.budget:
                break
            shutil.rmtree(self.root / f"game-{number}", ignore_errors=True)
            total -= self._sizes.pop(number)


def _drop_beyond(folder: Path, plies: int) -> None:
    """Delete the pictures of the plies after the first ``plies``."""
    for old in folder.glob("ply-*"):
        if _number(old) > plies:
            old.unlink(missing_ok=True)


def _size(folder: Path) -> int:
    return sum(f.stat().st_size for f in folder.iterdir() if f.is_file()) if folder.is_dir() else 0


def _games(root: Path) -> list[Path]:
    return [f for f in root.glob("game-*") if f.is_dir() and f.name[5:].isdigit()] if root.is_dir() else []


def _number(path: Path) -> int:
    """The number in ``game-N`` or ``ply-NNN.*``; 0 for a name without one."""
    digits = path.name.split("-", 1)[-1].split(".", 1)[0]
    return int(digits) if digits.isdigit() else 0


def _kept(folder: Path, number: int, ply: Ply) -> PlyPicture | None:
    """The picture kept of ply ``number`` when it shows ``ply``'s position; None otherwise."""
    try:
        meta = json.loads((folder / f"ply-{number:03d}.json").read_text(encoding="utf-8"))
        if meta.get("fen") != ply.after.fen():
            return None
        jpeg = folder / f"ply-{number:03d}.jpg"
        doubt = meta["doubt"]
        return PlyPicture(float(meta["time"]), int(meta["shows"]), jpeg.read_bytes() if jpeg.is_file() else None,
                          meta["seen"], None if doubt is None else (int(doubt[0]), float(doubt[1])))
    except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError):
        return None
