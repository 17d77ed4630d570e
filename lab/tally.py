"""One tally of square readings against the truth: the training's evaluation, the
calibration bench and the real-data bench all count with it, so their figures mean the same.

Labels are those of ``makhos.vision.reading.LABELS`` ('.', 'l', 'd', 'L', 'D'); '?' in
the truth (a square nobody can see) is not scored.

>>> tally = Tally()
>>> tally.add(np.array(list("l.dL")), np.array(list("l.lD")), name="photo").tolist()
[False, False, True, True]
>>> tally.wrong, tally.side_wrong, tally.kind_wrong, tally.boards_right
(2, 2, 0, 0)
>>> tally.failures
['photo: 2 d->l, 3 L->D']
>>> tally.add_text("L.?d", "l.dd", kings=False)  # sticker kings: man/king not scored
>>> tally.boards, tally.squares, tally.wrong, tally.boards_right
(2, 7, 2, 1)
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

import numpy as np

PIECES = list("lLdD")


@dataclass
class Tally:
    """Counts over boards: squares scored and wrong in any way; wrong in occupancy (a piece
    missed or imagined) or side (a piece of the other colour); man/king pairs scored and
    wrong; boards read entirely right, right but for man/king, and with the two sides named
    the wrong way round (every piece found, every side swapped)."""

    boards: int = 0
    boards_right: int = 0
    boards_sides_right: int = 0
    swapped: int = 0
    squares: int = 0
    wrong: int = 0
    occupancy_wrong: int = 0
    side_wrong: int = 0
    kinds: int = 0
    kind_wrong: int = 0
    failures: list[str] = field(default_factory=list)

    def add(self, truth: np.ndarray, read: np.ndarray, scored: np.ndarray | None = None,
            kinds: bool = True, name: str = "") -> np.ndarray:
        """Count one board (arrays of labels, any shape alike); ``scored`` masks the squares
        that count, and ``kinds`` says whether man/king is scored (not where the set's kings
        are not stacked men). Returns the mask of squares read wrong."""
        truth, read = np.asarray(truth), np.asarray(read)
        scored = (truth != "?") & (np.ones(truth.shape, bool) if scored is None else scored)
        lower_truth, lower_read = np.char.lower(truth), np.char.lower(read)
        occupancy_bad = scored & ((lower_truth == ".") != (lower_read == "."))
        side_bad = scored & (lower_truth != lower_read)
        kind_scored = scored & ~side_bad & np.isin(truth, PIECES if kinds else list("ld"))
        kind_bad = kind_scored & (truth != read)
        bad = side_bad | kind_bad
        pieces = scored & np.isin(truth, PIECES)
        swapped_read = np.where(lower_read == "l", "d", np.where(lower_read == "d", "l", lower_read))
        self.boards += 1
        self.squares += int(scored.sum())
        self.wrong += int(bad.sum())
        self.occupancy_wrong += int(occupancy_bad.sum())
        self.side_wrong += int((side_bad & ~occupancy_bad).sum())
        self.kinds += int(kind_scored.sum())
        self.kind_wrong += int(kind_bad.sum())
        self.boards_right += int(not bad.any())
        self.boards_sides_right += int(not side_bad.any())
        self.swapped += int(bool(pieces.any()) and bool(side_bad[pieces].all())
                            and not (scored & (lower_truth != swapped_read)).any())
        if bad.any():
            where = [",".join(map(str, i)) for i in zip(*np.nonzero(bad))]
            self.failures.append(f"{name}: " + ", ".join(
                f"{w} {t}->{r}" for w, t, r in zip(where, truth[bad], read[bad])))
        return np.asarray(bad)

    def add_text(self, truth: str, read: str, kings: bool = True) -> None:
        """Count one board given as strings of labels. ``kings=False`` is for sets whose kings
        are symbols on stickers, not stacked men: man/king is not scored at all (each side's
        man and king are one label), where :meth:`add`'s ``kinds=False`` still scores a
        man read as a king."""
        if not kings:
            truth, read = truth.lower(), read.lower()
        self.add(np.array(list(truth)), np.array(list(read)))

    def merge(self, other: Tally) -> None:
        for item in fields(self):
            if item.name != "failures":
                setattr(self, item.name, getattr(self, item.name) + getattr(other, item.name))
        self.failures += other.failures

    @property
    def square_error(self) -> float:
        return self.wrong / max(self.squares, 1)

    @property
    def board_accuracy(self) -> float:
        return self.boards_right / max(self.boards, 1)

    def line(self) -> str:
        if not self.boards:
            return "no board"
        squares = max(self.squares, 1)
        sides = self.occupancy_wrong + self.side_wrong
        return (f"{self.boards:4d} boards | occupancy/side wrong {100 * sides / squares:5.2f} % "
                f"({sides}/{self.squares}), boards {self.boards_sides_right:3d} right, "
                f"{self.swapped} swapped | man/king wrong {100 * self.kind_wrong / max(self.kinds, 1):5.2f} % "
                f"({self.kind_wrong}/{self.kinds}) | all: squares wrong {100 * self.square_error:5.2f} %, "
                f"boards right {100 * self.board_accuracy:5.1f} % ({self.boards_right})")
