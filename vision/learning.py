"""The game teaches the reader all game long (#42).

Every position the game accepts is a labelled picture of this board, these pieces and this
light: its 32 squares, read a moment ago, are what the rules have proved them to be. The
piece reader keeps their embeddings in a small memory and refits its three heads on them,
each pulled toward the heads the start gave (``vision.reader.adapt_heads``):

- ``occupied`` and ``light`` on every square the game names, as on the start frame;
- ``king`` — the whole head, not only its scale — once the game has shown a king (a
  crowning the rules confirmed). A king must not be learnt as a square, so each piece is
  compared with what a man of its own side looks like on its own square (``side_squares``,
  from the men the game has shown: the start put one on every square of both home areas;
  sides and rows adding up where a side has not stood), and only that difference is fit:
  what the dark kings taught reads a light king too. The memory keeps at most a few pieces
  per square and label, so kings of many squares and both sides weigh as they come, and no
  square's hundred men outweigh a king seen on three. The start's own men stacked into
  kings (``vision.reader.stacked_kings``, both sides) stay in the fit at a lower weight:
  the king prior of a side not crowned yet. The fit starts from, and is pulled toward, how
  a king stands apart from a man there as learnt once on rendered games for this network
  (``vision.reader.read_king_apart``): a game's first few kings move it only as far as
  they show. Beside the embeddings it weighs how tall each piece stands on its crop
  (``vision.height``: a stack's top stands one man's thickness higher), judged the same
  way against a man of its side on its square or row, so the cue holds on squares no king
  has stood on and for a side that has not crowned yet. The cues (the height and the rise
  above the start's man, ``vision.rise``) also have a small king head of their own, fit from
  no weight on the same differences and added to the whole head's log-odds: the whole head's
  hundred and more weights learn a game's few kings partly square by square, while a stack
  rises above a man alike on every square, so the cues' head carries what the kings taught
  to squares no king has stood on.

Bounded: the memory holds at most ``PER_SQUARE`` embeddings per square and label (3 x 32 x
5, float16, about 130 kB); a refit is a few Newton steps on a few hundred samples (tens of
milliseconds, ``bench/learning.py``). It happens only where the accepted board was misread
or read with doubt, so a reader that already reads the board right is left alone, and it
runs on a thread of its own (``vision.background``), never on the path that decides a move:
its heads are swapped in before a later read.

Kept with the game, so a worker restarted mid-game reads and learns as the first one did:
the start's refit carries the start's embeddings (with their heights), stacked men and king
direction, each accepted board a lesson (its 32 embeddings as float16, about 11 kB of JSON),
each refit the number of lessons it was fit on (``AdaptingReader.resume`` rebuilds the
memory from them).
"""

from __future__ import annotations

import base64
import json
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .background import Latest
from .height import stack_heights
from .lens import Lens
from .logistic import ridge_logistic
from .reader import (GEOMETRY, PRIOR, ROW_OF_SQUARE, AdaptedState, Heads, PieceReader, read_held_out,
                     stacked_kings)
from .reading import LABELS
from .rectify import SquareCrops
from .rise import StartMen, man_profiles, rises

#: How the memory and the log keep an embedding (little-endian float16: a lesson is 32 of them).
KEPT = np.dtype("<f2")
#: Embeddings kept per square and label: the latest, so the memory follows the light.
PER_SQUARE = 3
#: A square of an accepted board read with less probability than this for what it shows
#: calls for a refit (as does one read as something else).
DOUBT = 0.8
#: Prior log-odds of a king added to the refit king head (fit with kings and men weighing
#: alike): a game has far fewer kings than men, and a man read as a king costs more than
#: the reverse (the rules know when a man is crowned). -1.5 while the refit started from the
#: generic king head; from the learnt direction (``vision.reader.read_king_apart``) -1.75 gave more kings and
#: fewer men read as kings than either -1.5 or -2.0; a quarter lower with the cues' own head
#: beside it, which adds log-odds to kings and men alike (``bench/RESULTS.md``).
LEARNT_KING_PRIOR = -2.0
#: The cues' own king head (``refit``): its pull toward no weight (stronger than the whole
#: head's: a game's first kings move a few weights far), and its share of a king's log-odds
#: beside the whole head's.
CUE_PULL, CUE_SHARE = 4.0, 0.5
#: Men on a square whose mean departure from their row counts half (``side_squares``).
SQUARE_SHRINK = 1.0
#: Turns of the side-and-row fit (``side_squares``): it settles in a few.
ADDITIVE_ROUNDS = 10
#: Weight of one of the start's stacked men beside one king the game has shown.
STACK_WEIGHT = 0.3
#: Labels of pieces, and of kings.
PIECES, KINGS = ("l", "d", "L", "D"), ("L", "D")


@dataclass(frozen=True)
class Samples:
    """What a refit is fit on, taken from the memory at the moment it was asked (the memory
    goes on changing on the camera's thread while the refit runs on its own): (N, D)
    embeddings, (N,) labels and (N,) squares (0-31), and the start's stacked men."""

    x: np.ndarray
    labels: np.ndarray
    squares: np.ndarray
    stacks: tuple[np.ndarray, np.ndarray, np.ndarray] | None

    @property
    def has_kings(self) -> bool:
        return bool(np.isin(self.labels, KINGS).any())


class GameMemory:
    """The game's labelled squares: the latest ``PER_SQUARE`` embeddings of each (label,
    square) the game has proved. Kept as float16, as the log keeps them (``lesson``), so a
    memory rebuilt from the log is this one to the bit."""

    def __init__(self, per_square: int = PER_SQUARE) -> None:
        self._kept: dict[tuple[str, int], deque[np.ndarray]] = {}
        self.per_square = per_square
        # The start's own men stacked into kings (``vision.reader.stacked_kings``), both
        # sides, each with its square: the king prior of a side that has not crowned yet.
        self.stacks: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    def add(self, embeddings: np.ndarray, shown: str) -> None:
        """One board's 32 embeddings (square order, float16), labelled by ``shown`` ('?':
        unknown)."""
        for square, label in enumerate(shown):
            if label != "?":
                kept = self._kept.setdefault((label, square), deque(maxlen=self.per_square))
                kept.append(embeddings[square])

    def snapshot(self) -> Samples:
        """Everything kept, in a fixed order (labels, then squares, then age)."""
        keys = sorted(self._kept)
        rows = [(e, label, square) for label, square in keys for e in self._kept[(label, square)]]
        return Samples(np.stack([r[0] for r in rows]).astype(np.float64),
                       np.array([r[1] for r in rows]), np.array([r[2] for r in rows]),
                       None if self.stacks is None else
                       (self.stacks[0].astype(np.float64), self.stacks[1], self.stacks[2]))


def balanced(y: np.ndarray) -> np.ndarray:
    """Sample weights under which both classes of ``y`` (0/1) weigh as much in all."""
    n, positives = len(y), float(y.sum())
    return np.where(y > 0.5, n / (2 * max(positives, 1.0)), n / (2 * max(n - positives, 1.0)))


def refit(start: Heads, samples: Samples, prior: float = PRIOR, towards: np.ndarray | None = None) -> Heads:
    """The heads refit on what the game has shown, pulled toward ``start`` (the heads the
    start position gave: its reference, its rows of men). The king head is pulled toward
    ``towards`` (how a king stands apart from a man on its square, learnt on rendered games
    for this network: ``vision.reader.read_king_apart``), or where there is none toward the
    generic king head's direction."""
    x, labels, squares = samples.x, samples.labels, samples.squares
    plain = x[:, :len(start.occupied) - 1]  # occupancy and sides leave the height cue out
    occupied = np.isin(labels, PIECES)
    occ = start.occupied
    if 0 < occupied.sum() < len(occupied):
        y = occupied.astype(float)
        occ = ridge_logistic(plain, y, start.occupied, prior, weights=balanced(y))
    pieces, piece_labels, piece_squares = x[occupied], labels[occupied], squares[occupied]
    light_rel, king, offsets = start.light_rel, start.king, start.king_offsets
    if start.reference is not None and len(pieces):
        y = np.isin(piece_labels, ["l", "L"]).astype(float)
        if 0 < y.sum() < len(y):
            flat = plain[occupied]
            light_rel = ridge_logistic(flat - start.reference, y, start.light_rel, prior,
                                       offset=flat @ start.light_abs, weights=balanced(y))
    if samples.has_kings:
        men = side_squares(pieces, piece_labels, piece_squares)
        if men is not None:
            # Only how a piece stands apart from a man of its own side on its own square is
            # fit (no absolute term): what the dark kings taught reads a light king too,
            # and what sets a square apart from the others is no king.
            sides = np.where(np.isin(piece_labels, ["l", "L"]), 0, 1)
            y = np.isin(piece_labels, KINGS).astype(float)
            apart = pieces - men[sides, piece_squares]
            weights = balanced(y)
            if samples.stacks is not None:
                stacks, stack_labels, stack_squares = samples.stacks
                apart = np.concatenate([apart, stacks - men[np.where(stack_labels == "L", 0, 1), stack_squares]])
                weights = np.r_[weights, np.full(len(stacks), STACK_WEIGHT * weights[y > 0.5].max())]
                y = np.r_[y, np.ones(len(stacks))]
            d = x.shape[1]
            if towards is None:
                half = (len(start.king) - 1) // 2
                towards = np.r_[start.king[:half] + start.king[half:-1], start.king[-1]]
            fit = ridge_logistic(apart, y, widened(towards, d), prior, weights=weights)
            cues = plain.shape[1]  # the first column of the cues (``features``), where read
            if d > cues:
                # The cues' own head, beside: a few weights fit from none, on the same
                # differences from a man there; it reads squares no king has stood on as
                # the game's kings taught it, where the whole head learns them square by square.
                cue = ridge_logistic(apart[:, cues:], y, np.zeros(d - cues + 1), CUE_PULL, weights=weights)
                fit = fit + CUE_SHARE * np.r_[np.zeros(cues), cue]
            king = np.r_[np.zeros(d), fit[:-1], fit[-1] + LEARNT_KING_PRIOR]
            offsets = men @ fit[:-1]
    return Heads(occ, light_rel, start.light_abs, king, start.reference, offsets)


def widened(weights: np.ndarray, d: int) -> np.ndarray:
    """King weights on ``e - man`` (bias last) for ``d`` features: the height cue
    (``vision.height``) a direction was fit without starts at no weight."""
    out: np.ndarray = np.r_[weights[:-1], np.zeros(d + 1 - len(weights)), weights[-1]]
    return out


def side_squares(pieces: np.ndarray, labels: np.ndarray, squares: np.ndarray) -> np.ndarray | None:
    """(2, 32, D): what a man of each side (light first) looks like on each square, from the
    men the game has shown (None without men).

    A side's men on a row are their mean there. Where a side's men have not stood on a row,
    the row is the side's look plus the row's (sides and rows fit as adding up, on the rows
    both have stood on): a light man far up the board looks as the dark men there do, in
    light. A row no man stood on is drawn between its neighbours; a side with no man takes
    the other side's look. On a square where men stood, their own mean departure from their
    row counts (shrunk toward none while they are few): the camera sees each square a
    little differently, and a king must be taller than a man *there*."""
    men = np.isin(labels, ["l", "d"])
    if not men.any():
        return None
    sides = np.where(labels == "l", 0, 1)
    rows = ROW_OF_SQUARE[squares]
    d = pieces.shape[1]
    cells, seen = np.zeros((2, 8, d)), np.zeros((2, 8), bool)
    for side in (0, 1):
        for row in range(8):
            mine = men & (sides == side) & (rows == row)
            if mine.any():
                cells[side, row], seen[side, row] = pieces[mine].mean(0), True
    look = np.stack([cells[side][seen[side]].mean(0) if seen[side].any() else np.zeros(d)
                     for side in (0, 1)])
    for side in (0, 1):
        if not seen[side].any():
            look[side] = look[1 - side]
    row_look = np.zeros((8, d))
    for _ in range(ADDITIVE_ROUNDS):  # sides and rows adding up, fit in turns
        for r in np.flatnonzero(seen.any(0)):
            row_look[r] = np.mean([cells[s, r] - look[s] for s in (0, 1) if seen[s, r]], 0)
        for s in np.flatnonzero(seen.any(1)):
            look[s] = np.mean([cells[s, r] - row_look[r] for r in np.flatnonzero(seen[s])], 0)
    stood = np.flatnonzero(seen.any(0))
    row_look = np.stack([np.interp(np.arange(8), stood, row_look[stood, k]) for k in range(d)], 1)
    modelled = look[:, None] + row_look[None]
    out = np.where(seen[..., None], cells, modelled)[:, ROW_OF_SQUARE]
    for square in np.unique(squares[men]):
        here = men & (squares == square)
        n = int(here.sum())
        departure = (pieces[here] - modelled[sides[here], rows[here]]).mean(0)
        out[:, square] = modelled[:, ROW_OF_SQUARE[square]] + departure * n / (n + SQUARE_SHRINK)
    return out


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
    again on the positions the game accepts.

    A refit runs off the caller's thread (``vision.background.Latest``: one at a time, the
    newest asked winning) and its heads are swapped in before a later read, never during
    one. ``live``: frames come in real time, so a read does not wait for a refit still
    running (it reads with the heads it has). Otherwise (a recording read as fast as it is
    decoded) a read waits for the refit asked before it, so that a recording reads the same
    from run to run.
    """

    geometry = GEOMETRY

    def __init__(self, reader: PieceReader | None = None, live: bool = False) -> None:
        self.reader = reader if reader is not None else PieceReader()
        self.live = live
        self.state: AdaptedState | None = None
        self.memory = GameMemory()
        self._start: Heads | None = None  # what refits are pulled toward
        self._towards: np.ndarray | None = None  # where a king refit starts (kept with the start)
        # The last crops read, embedded, and the cues read with them (a read before the
        # start's refit has none, and the start's frame is then learnt with them).
        self._last: tuple[SquareCrops, np.ndarray, Cues] | None = None
        self._lessons = 0  # boards learnt since the start
        self._refits: Latest[tuple[int, str, AdaptedState]] = Latest("refit")
        self._generation = 0  # a refit asked before the last start or resume is dropped
        self._cues = Cues()  # what beside the embeddings (``features``), from the start on
        self._landed: str | None = None  # a refit swapped in, not yet handed on (``refitted``)

    def classify(self, crops: SquareCrops) -> np.ndarray:
        self._swap_in()
        embeddings = features(self.reader, crops, self._cues)
        self._last = crops, embeddings, self._cues
        return self.reader.heads(self.state).probabilities(embeddings)

    def adapt(self, image: np.ndarray, corners: np.ndarray, played: str, labels: str,
              lens: Lens | None = None) -> str:
        """The refit on the start, with what later refits need of the start (its squares'
        embeddings, its men stacked into kings), to be kept with the game; read with from
        now on, as a resumed worker will."""
        kept = self.fit(image, corners, played, labels, lens)
        self.restore(kept)
        return kept

    def fit(self, image: np.ndarray, corners: np.ndarray, played: str, labels: str,
            lens: Lens | None = None) -> str:
        """What :meth:`adapt` keeps, not read with: it touches only the network and what it
        makes here, so it runs off the camera's thread while the camera reads
        (``BoardReader.relight``), and :meth:`restore` swaps it in."""
        state = self.reader.adapt(image, corners, played, labels, lens=lens)
        crops = self.reader.crops(image, corners, played, lens)
        men = man_profiles(crops, labels, GEOMETRY)
        cues = Cues(True, None if men is None else StartMen(men.profiles.astype(KEPT), men.cot.round(4)))
        embeddings = features(self.reader, crops, cues).astype(KEPT)
        stacks = start_stacks(self.reader, crops, labels, cues)
        start: dict[str, Any] = {"shown": labels, "embeddings": _packed(embeddings), "height": True}
        if cues.men is not None:
            profiles = cues.men.profiles
            start["men"] = _packed(profiles.reshape(32, -1)) | {"rows": profiles.shape[1],
                                                                  "cot": cues.men.cot.tolist()}
        if self.reader.king_apart is not None:
            start["king_apart"] = self.reader.king_apart.tolist()
        if stacks is not None:
            start |= {"stacks": _packed(stacks[0].astype(KEPT)),
                      "stack_labels": "".join(stacks[1]), "stack_squares": stacks[2].tolist()}
        return _with(state.to_json(), start=start)

    def held_out(self, crops: SquareCrops, layouts: Sequence[str]) -> np.ndarray:
        """(K, 32, 5): each of ``layouts`` checked on held-out squares (``read_held_out``),
        from the generic heads, as the start's own refit is."""
        embeddings = self.reader.embed(crops)
        fitted: dict[str, np.ndarray] = {}  # boards a ply apart share half their fits
        return np.stack([read_held_out(self.reader.generic, embeddings, layout, fitted=fitted)
                         for layout in layouts])

    def restore(self, adaptation: str) -> None:
        """Read with an adaptation kept with the game. Later refits are pulled toward it and
        learn from its frame's squares (where it was made on one: :meth:`fit`) and the
        positions accepted from now on (``resume`` takes up the game's lessons kept before)."""
        state = AdaptedState.from_json(adaptation)
        self.reader.heads(state)  # refuses a state fitted for another network
        start = json.loads(adaptation).get("start")
        self._begin(state, start)
        if start is not None:
            self.memory.add(_unpacked(start["embeddings"]), start["shown"])
            self.memory.stacks = _unpacked_stacks(start)

    def resume(self, kept: Sequence[str]) -> str | None:
        """Take up a game from what ``adapt`` and ``learn`` kept with it (in the order kept):
        the start's heads, the memory rebuilt lesson by lesson, the last refit; a refit
        asked but never kept (the worker stopped first) is fit now. Returns the adaptation
        read with (None: none kept)."""
        self._begin(None)
        state: AdaptedState | None = None
        in_force: str | None = None
        fitted_on = 0  # lessons the refit in force was fit on
        asked: tuple[int, Samples] | None = None  # the last lesson that asked for a refit
        for text in kept:
            data = json.loads(text)
            if data.get("kind") == LESSON:
                if self._start is None:
                    continue  # a lesson without the start it follows: nothing to pull toward
                self.memory.add(_unpacked(data["embeddings"]), data["shown"])
                self._lessons += 1
                if data["refit"]:
                    asked = self._lessons, self.memory.snapshot()
                continue
            state, in_force = AdaptedState.from_json(text), text
            self.reader.heads(state)  # refuses a state fitted for another network
            if "start" in data:
                self.restore(text)
                asked, fitted_on = None, 0
            fitted_on = int(data.get("lessons", fitted_on))
            if asked is not None and fitted_on >= asked[0]:
                asked = None
        if state is None:
            return None
        self.state = state
        if self._start is None:
            self._start = state.heads  # an older log without its start: pulled toward the last
        if asked is not None:
            in_force, self.state = fitted(self._start, self._towards, state.model, *asked)
        return in_force

    def learn(self, crops: SquareCrops, shown: str) -> str | None:
        """Keep the board's embeddings in the memory; ask for a refit where the board was
        misread or read with doubt (it runs off this thread: ``refitted``). Returns the
        lesson to keep with the game (None: zero-shot, nothing learnt)."""
        if len(shown) != 32:
            raise ValueError("an accepted board has 32 squares")
        if self.state is None or self._start is None:
            return None  # zero-shot: nothing to pull a refit toward
        self._swap_in()
        last = self._last
        if last is not None and last[0] is crops and last[2] is self._cues:
            embeddings = last[1]
        else:
            embeddings = features(self.reader, crops, self._cues)
        kept = embeddings.astype(KEPT)
        self.memory.add(kept, shown)
        self._lessons += 1
        asked = wants_refit(self.state.heads.probabilities(embeddings), shown)
        if asked:
            start, towards, model = self._start, self._towards, self.state.model
            samples, lessons, generation = self.memory.snapshot(), self._lessons, self._generation
            self._refits.ask(lambda: (generation, *fitted(start, towards, model, lessons, samples)))
        return json.dumps({"kind": LESSON, "shown": shown, "refit": asked, "embeddings": _packed(kept)})

    def refitted(self) -> str | None:
        """The newest refit swapped in since last asked, as JSON to keep with the game (None:
        none). A reader that is not ``live`` first waits for the refit asked last."""
        self._swap_in()
        landed, self._landed = self._landed, None
        return landed

    def _swap_in(self) -> None:
        """Read from now on with the refit that has landed (waiting for it unless ``live``)."""
        landed = self._refits.take(wait=not self.live)
        if landed is not None and landed[0] == self._generation:
            _, self._landed, self.state = landed

    def _begin(self, state: AdaptedState | None, start: dict[str, Any] | None = None) -> None:
        """A new start (or a take-up), with what was kept of it (``start``, where kept):
        refits still running belong to what went before."""
        self._generation += 1
        self.state, self.memory, self._lessons, self._landed = state, GameMemory(), 0, None
        self._start = None if state is None else state.heads
        towards = None if start is None else start.get("king_apart")
        # A game kept before the height cue or the start's men reads, and learns, without
        # them, as it did.
        self._cues = Cues() if start is None else Cues(bool(start.get("height", False)), _unpacked_men(start))
        self._towards = None if towards is None else np.asarray(towards, np.float64)


def fitted(start: Heads, towards: np.ndarray | None, model: str, lessons: int,
           samples: Samples) -> tuple[str, AdaptedState]:
    """The heads refit on ``samples`` (the memory after ``lessons`` boards), as kept with the
    game and as read: the JSON read back, so the heads read are those a resumed worker reads."""
    kept = _with(AdaptedState(refit(start, samples, towards=towards), model).to_json(), lessons=lessons)
    return kept, AdaptedState.from_json(kept)


#: The ``kind`` of a lesson kept with the game (``AdaptingReader.learn``).
LESSON = "board-reader-lesson"


def _with(adaptation: str, **extra: Any) -> str:
    """An adaptation's JSON with more of what a resumed worker needs."""
    data: dict[str, Any] = json.loads(adaptation)
    return json.dumps(data | extra)


def _packed(embeddings: np.ndarray) -> dict[str, Any]:
    """Embeddings (N, D) as kept (``KEPT``) in JSON: their shape, type and bytes in base64."""
    data = np.ascontiguousarray(embeddings, KEPT).tobytes()
    return {"shape": list(embeddings.shape), "dtype": KEPT.str, "values": base64.b64encode(data).decode("ascii")}


def _unpacked(packed: dict[str, Any]) -> np.ndarray:
    values = np.frombuffer(base64.b64decode(packed["values"]), packed["dtype"])
    return values.reshape(packed["shape"]).astype(KEPT)


def _unpacked_stacks(start: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    if "stacks" not in start:
        return None
    return (_unpacked(start["stacks"]), np.array(list(start["stack_labels"])),
            np.array(start["stack_squares"], int))


def _unpacked_men(start: dict[str, Any]) -> StartMen | None:
    if "men" not in start:
        return None
    men = _unpacked(start["men"])
    return StartMen(men.reshape(len(men), int(start["men"]["rows"]), -1),
                    np.asarray(start["men"]["cot"], np.float64))


@dataclass(frozen=True, eq=False)
class Cues:
    """What a game reads beside the network's embeddings, which only the king refit weighs:
    ``height``, how tall each piece stands (``vision.height``); ``men``, the start's man on
    each square (``vision.rise.man_profiles``), to measure how far each piece rises above
    it. A game kept before either reads without it, as it did."""

    height: bool = False
    men: StartMen | None = None


def features(reader: PieceReader, crops: SquareCrops, cues: Cues, squares: np.ndarray | None = None
             ) -> np.ndarray:
    """(N, D) what the game's heads read of each crop (on ``squares``, 0-31; the 32 of a
    board where None): the network's embedding and colour (``PieceReader.embed``), then the
    ``cues`` the game reads with."""
    columns = [reader.embed(crops)]
    if cues.height:
        columns.append(stack_heights(crops, GEOMETRY))
    if cues.men is not None:
        on = np.arange(len(crops.images)) if squares is None else squares
        men = StartMen(cues.men.profiles.astype(np.float32), cues.men.cot)
        columns.append(rises(crops, on, men, GEOMETRY))
    return np.concatenate(columns, 1)


def start_stacks(reader: PieceReader, crops: SquareCrops, labels: str, cues: Cues
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
    on = np.array(squares)
    embedded = features(reader, SquareCrops(np.concatenate(images), np.concatenate(sight)), cues, on)
    return embedded, np.array(kings), on
