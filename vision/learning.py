"""The game teaches the reader all game long (#42).

Every position the game accepts is a labelled picture of this board, these pieces and this
light: its 32 squares, read a moment ago, are what the rules have proved them to be. The
piece reader keeps their embeddings in a small memory and refits its three heads on them,
each pulled toward the heads the start gave (``vision.reader.adapt_heads``):

- ``occupied`` and ``light`` on every square the game names, as on the start frame;
- ``king`` — the whole head, not only its scale — once the game has shown a king (a
  crowning the rules confirmed). A king must not be learnt as a square, so each piece is
  compared with what a man of its own side looks like on its own row (``side_rows``, from
  the men the game has shown: the start put one on every square of both home areas), and
  the memory keeps at most a few pieces per square and label, so kings of many squares
  and both sides weigh as they come, and no square's hundred men outweigh a king seen on
  three. The start's own men stacked into kings (``vision.reader.stacked_kings``, both
  sides) stay in the fit at a lower weight: the king prior of a side not crowned yet.

Bounded: the memory holds at most ``PER_SQUARE`` embeddings per square and label (5 x 32 x
3, about half a megabyte); a refit is a few Newton steps on a few hundred samples (tens of
milliseconds, ``bench/learning.py``) and runs after a position is accepted, never while a
move is being decided. A refit happens only where the accepted board was misread or read
with doubt, so a reader that already reads the board right is left alone.
"""

from __future__ import annotations

from collections import deque

import numpy as np

from .lens import Lens
from .logistic import ridge_logistic
from .reader import GEOMETRY, PRIOR, ROW_OF_SQUARE, AdaptedState, Heads, PieceReader, stacked_kings
from .reading import LABELS
from .rectify import SquareCrops

#: Embeddings kept per square and label: the latest, so the memory follows the light.
PER_SQUARE = 3
#: A square of an accepted board read with less probability than this for what it shows
#: calls for a refit (as does one read as something else).
DOUBT = 0.8
#: Prior log-odds of a king added to the refit king head (fit with kings and men weighing
#: alike): a game has far fewer kings than men, and a man read as a king costs more than
#: the reverse (the rules know when a man is crowned).
LEARNT_KING_PRIOR = -1.0
#: Weight of one of the start's stacked men beside one king the game has shown.
STACK_WEIGHT = 0.3
#: Labels of pieces, and of kings.
PIECES, KINGS = ("l", "d", "L", "D"), ("L", "D")


class GameMemory:
    """The game's labelled squares: the latest ``PER_SQUARE`` embeddings of each (label,
    square) the game has proved."""

    def __init__(self, per_square: int = PER_SQUARE) -> None:
        self._kept: dict[tuple[str, int], deque[np.ndarray]] = {}
        self.per_square = per_square
        # The start's own men stacked into kings (``vision.reader.stacked_kings``), both
        # sides, each with its square: the king prior of a side that has not crowned yet.
        self.stacks: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    def add(self, embeddings: np.ndarray, shown: str) -> None:
        """One board's 32 embeddings (square order), labelled by ``shown`` ('?': unknown)."""
        for square, label in enumerate(shown):
            if label != "?":
                kept = self._kept.setdefault((label, square), deque(maxlen=self.per_square))
                kept.append(embeddings[square])

    @property
    def has_kings(self) -> bool:
        return any(label in KINGS for label, _ in self._kept)

    def samples(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(N, D) embeddings, (N,) labels and (N,) squares (0-31) of everything kept."""
        keys = sorted(self._kept)
        rows = [(e, label, square) for label, square in keys for e in self._kept[(label, square)]]
        return (np.stack([r[0] for r in rows]), np.array([r[1] for r in rows]),
                np.array([r[2] for r in rows]))


def balanced(y: np.ndarray) -> np.ndarray:
    """Sample weights under which both classes of ``y`` (0/1) weigh as much in all."""
    n, positives = len(y), float(y.sum())
    return np.where(y > 0.5, n / (2 * max(positives, 1.0)), n / (2 * max(n - positives, 1.0)))


def refit(start: Heads, memory: GameMemory, prior: float = PRIOR) -> Heads:
    """The heads refit on what the game has shown, pulled toward ``start`` (the heads the
    start position gave: its reference, its rows of men)."""
    x, labels, squares = memory.samples()
    occupied = np.isin(labels, PIECES)
    occ = start.occupied
    if 0 < occupied.sum() < len(occupied):
        y = occupied.astype(float)
        occ = ridge_logistic(x, y, start.occupied, prior, weights=balanced(y))
    pieces, piece_labels, piece_squares = x[occupied], labels[occupied], squares[occupied]
    light_rel, king, offsets = start.light_rel, start.king, start.king_offsets
    if start.reference is not None and len(pieces):
        y = np.isin(piece_labels, ["l", "L"]).astype(float)
        if 0 < y.sum() < len(y):
            light_rel = ridge_logistic(pieces - start.reference, y, start.light_rel, prior,
                                       offset=pieces @ start.light_abs, weights=balanced(y))
    if memory.has_kings:
        men = side_rows(pieces, piece_labels, piece_squares)
        if men is not None:
            sides = np.where(np.isin(piece_labels, ["l", "L"]), 0, 1)
            y = np.isin(piece_labels, KINGS).astype(float)
            x_king = np.concatenate([pieces, pieces - men[sides, ROW_OF_SQUARE[piece_squares]]], 1)
            weights = balanced(y)
            if memory.stacks is not None:
                stacks, stack_labels, stack_squares = memory.stacks
                stack_sides = np.where(stack_labels == "L", 0, 1)
                x_king = np.concatenate([x_king, np.concatenate(
                    [stacks, stacks - men[stack_sides, ROW_OF_SQUARE[stack_squares]]], 1)])
                weights = np.r_[weights, np.full(len(stacks), STACK_WEIGHT * weights[y > 0.5].max())]
                y = np.r_[y, np.ones(len(stacks))]
            king = ridge_logistic(x_king, y, start.king, prior, weights=weights)
            king[-1] += LEARNT_KING_PRIOR
            offsets = men @ king[x.shape[1]:-1]
    return Heads(occ, light_rel, start.light_abs, king, start.reference, offsets)


def side_rows(pieces: np.ndarray, labels: np.ndarray, squares: np.ndarray) -> np.ndarray | None:
    """(2, 8, D): what a man of each side (light first) looks like on each row, from the men
    the game has shown; a row where a side's men have not stood takes its nearest rows'
    (drawn between them), a side with no man the other side's. None without men."""
    rows = ROW_OF_SQUARE[squares]
    found: dict[str, np.ndarray] = {}
    for side in ("l", "d"):
        mine = labels == side
        seen = sorted(set(rows[mine].tolist()))
        if seen:
            means = np.stack([pieces[mine & (rows == r)].mean(0) for r in seen])
            found[side] = np.stack([np.interp(np.arange(8), seen, means[:, k])
                                    for k in range(means.shape[1])], 1)
    if not found:
        return None
    light = found.get("l", found.get("d"))
    dark = found.get("d", found.get("l"))
    assert light is not None and dark is not None
    return np.stack([light, dark])


def wants_refit(probabilities: np.ndarray, shown: str) -> bool:
    """Whether a board the game accepted was misread, or read with doubt, anywhere it names."""
    for square, label in enumerate(shown):
        if label == "?":
            continue
        column = LABELS.index(label)
        row = probabilities[square]
        if int(row.argmax()) != column or row[column] < DOUBT:
            return True
    return False


class AdaptingReader:
    """The reader as a camera uses it (``vision.squares.GameLearning``): zero-shot until the
    settled start position teaches it this board, then with the heads refit on it, refit
    again on the positions the game accepts."""

    geometry = GEOMETRY

    def __init__(self, reader: PieceReader | None = None) -> None:
        self.reader = reader if reader is not None else PieceReader()
        self.state: AdaptedState | None = None
        self.memory = GameMemory()
        self._start: Heads | None = None  # what refits are pulled toward
        self._last: tuple[SquareCrops, np.ndarray] | None = None  # the last crops read, embedded

    def classify(self, crops: SquareCrops) -> np.ndarray:
        embeddings = self.reader.embed(crops)
        self._last = crops, embeddings
        return self.reader.heads(self.state).probabilities(embeddings)

    def adapt(self, image: np.ndarray, corners: np.ndarray, played: str, labels: str,
              lens: Lens | None = None) -> str:
        self.state = self.reader.adapt(image, corners, played, labels, lens=lens)
        self._start, self.memory = self.state.heads, GameMemory()
        crops = self.reader.crops(image, corners, played, lens)
        self.memory.add(self.reader.embed(crops), labels)
        self.memory.stacks = start_stacks(self.reader, crops, labels)
        return self.state.to_json()

    def restore(self, adaptation: str) -> None:
        """Read with an adaptation kept with the game. Later refits are pulled toward it and
        learn from the positions accepted from now on (the memory is not logged)."""
        state = AdaptedState.from_json(adaptation)
        self.reader.heads(state)  # refuses a state fitted for another network
        self.state, self._start, self.memory = state, state.heads, GameMemory()

    def learn(self, crops: SquareCrops, shown: str) -> str | None:
        if len(shown) != 32:
            raise ValueError("an accepted board has 32 squares")
        if self.state is None or self._start is None:
            return None  # zero-shot: nothing to pull a refit toward
        last = self._last
        embeddings = last[1] if last is not None and last[0] is crops else self.reader.embed(crops)
        self.memory.add(embeddings, shown)
        if not wants_refit(self.state.heads.probabilities(embeddings), shown):
            return None
        kept = AdaptedState(refit(self._start, self.memory), self.state.model).to_json()
        self.state = AdaptedState.from_json(kept)  # read exactly as a resumed worker will
        return kept


def start_stacks(reader: PieceReader, crops: SquareCrops, labels: str
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The start's men stacked into kings: embeddings, king labels and squares."""
    images, sight, kings, squares = [], [], [], []
    for square, label in enumerate(labels):
        if label in ("l", "d"):
            men = np.zeros(32, bool)
            men[square] = True
            stacks = stacked_kings(crops, men)
            images.append(stacks.images)
            sight.append(stacks.sight)
            kings += [label.upper()] * len(stacks.images)
            squares += [square] * len(stacks.images)
    if not kings:
        return None
    embedded = reader.embed(SquareCrops(np.concatenate(images), np.concatenate(sight)))
    return embedded, np.array(kings), np.array(squares)
