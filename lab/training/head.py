"""Refit the square network's head on the wider world, the convolutions kept as trained.

The network trained on the recipe's named piece sets reads real sets badly where they are
unlike them: wooden discs as wide as the square, seen from above, read as kings (half the
men of one real set), green and red stickers as one side. Training the whole network again
takes 40-70 minutes on this 2-core CPU, and figures on real photos must come from a network
that never saw the photo's set, which over six sets is six trainings. So the layers after
the convolutions (the per-square description, the board-aware empty/man/king head, the
colour and light outputs: everything that is float in the int8 ONNX) are refitted on their
own, from the convolutions' output computed once per crop:

- crops of the ``lab.training.dataset.FIT`` split: training palettes plus the widened renderer
  (``lab.render.widened``: wide discs, stickers, tall cylinders, sides told apart by
  hue), from seeds the network was never trained on; it keeps the kings;
- where ``../shared/realdata`` is present, the real photos' crops (true corners), all sets
  for the committed network, all but one for a leave-one-set-out figure; they have men and
  empty squares only, so they teach what real men and real empty squares look like.

A refit takes about a minute. ``python -m lab.training.head`` writes the committed network from
the recipe's base network; ``bench/realdata.py --leave-one-out`` refits one head per set.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import onnx
import onnxruntime as ort
import torch
from onnx import numpy_helper
from torch import nn
from tqdm import tqdm

from lab.training.dataset import EMPTY, KING, MAN
from lab.training.net import SquareNet
from lab.training.train import board_batches
from makhos.vision.rectify import SquareCrops

if TYPE_CHECKING:  # the real photos are read only when a run asks for them
    from lab.realdata import RealPhoto

#: The convolutions' flattened output in the exported graph: the head's input.
FEATURES = "/net/Flatten_output_0"
#: The head's layers, by their names in ``SquareNet`` and in the ONNX initialisers.
HEAD = ("hidden.0", "square_kind", "kind.0", "kind.2", "colour", "light")
#: Share of the loss that the real photos carry (the rest: the synthetic split).
REAL_SHARE = 0.25


@dataclass(frozen=True)
class HeadData:
    """Head inputs and targets of many boards: the convolutions' output, sightlines, class
    (EMPTY/MAN/KING), light flag, piece colour (Lab in [0, 1], NaN where unknown), board."""

    features: np.ndarray  # (N, 2560) float32
    sight: np.ndarray  # (N, 2)
    cls: np.ndarray  # (N,)
    light: np.ndarray  # (N,) bool
    colour: np.ndarray  # (N, 3)
    board: np.ndarray  # (N,)

    @classmethod
    def join(cls, parts: Iterable[HeadData]) -> HeadData:
        parts = list(parts)
        return cls(*(np.concatenate([getattr(p, f) for p in parts]) for f in
                     ("features", "sight", "cls", "light", "colour", "board")))


class Convolutions:
    """The convolutional part of an ONNX square network, on one thread."""

    def __init__(self, path: Path | str) -> None:
        model = onnx.load(str(path))
        model.graph.output.append(onnx.helper.make_tensor_value_info(FEATURES, onnx.TensorProto.FLOAT, None))
        options = ort.SessionOptions()
        options.intra_op_num_threads = options.inter_op_num_threads = 1
        self.session = ort.InferenceSession(model.SerializeToString(), options,
                                            providers=["CPUExecutionProvider"])

    def __call__(self, crops: SquareCrops) -> np.ndarray:
        """(N, 2560) float32 for the N crops of one board."""
        features: np.ndarray = self.session.run([FEATURES], {
            "crops": np.ascontiguousarray(crops.images, np.uint8),
            "sight": np.ascontiguousarray(crops.sight, np.float32)})[0]
        return features


def views(crops: SquareCrops) -> list[SquareCrops]:
    """A board's crops as cut and mirrored (a mirrored scene is as plausible)."""
    return [crops, crops.with_images(np.ascontiguousarray(crops.images[:, :, ::-1]))]


def split_data(convolutions: Convolutions, data: dict[str, np.ndarray], first_board: int = 0
               ) -> HeadData:
    """Head data of a rendered split (``lab.training.dataset``), each board as cut (its scenes
    are many; the real boards, few, are also taken mirrored)."""
    boards = data["board"]
    starts = np.flatnonzero(np.r_[True, boards[1:] != boards[:-1]])
    ends = np.r_[starts[1:], len(boards)]
    parts = []
    for k, (a, b) in enumerate(zip(starts, ends)):
        crops = SquareCrops(np.asarray(data["crops"][a:b]), np.asarray(data["sight"][a:b]))
        parts.append(HeadData(convolutions(crops), crops.sight, data["cls"][a:b],
                              data["light"][a:b].astype(bool), data["colour"][a:b],
                              np.full(b - a, first_board + k)))
    return HeadData.join(parts)


def board_data(convolutions: Convolutions, crops: SquareCrops, labels: str, board: int
               ) -> list[HeadData]:
    """Head data of one real board (``labels``: 32 characters, '?' squares dropped), as cut
    and mirrored; colour unknown."""
    seen = np.array([c != "?" for c in labels])
    cls = np.array([EMPTY if c == "." else KING if c in "LD" else MAN for c in labels])[seen]
    light = np.array([c in "lL" for c in labels])[seen]
    out = []
    for v, view in enumerate(views(crops)):
        out.append(HeadData(convolutions(view)[seen], view.sight[seen], cls, light,
                            np.full((int(seen.sum()), 3), np.nan, np.float32),
                            np.full(int(seen.sum()), 2 * board + v)))
    return out


def real_data(convolutions: Convolutions, sets: dict[str, list[RealPhoto]], first_board: int) -> HeadData:
    """Head data of every photo of the given real sets (``lab.realdata`` photos)."""
    from lab.realdata import true_crops

    parts: list[HeadData] = []
    board = first_board
    for photos in sets.values():
        for photo in photos:
            crops, labels = true_crops(photo, photo.image())
            parts += board_data(convolutions, crops, labels, board)
            board += 1
    return HeadData.join(parts)


def base_head(path: Path | str) -> SquareNet:
    """A ``SquareNet`` whose head carries the float weights of an exported network (its
    convolutions are left untrained: only ``SquareNet.head`` is used)."""
    weights = {i.name: numpy_helper.to_array(i) for i in onnx.load(str(path)).graph.initializer}
    net = SquareNet()
    state = net.state_dict()
    for layer in HEAD:
        for part in ("weight", "bias"):
            name = f"{layer}.{part}"
            state[name] = torch.from_numpy(weights[f"net.{name}"].copy())
    net.load_state_dict(state)
    return net


def fit(net: SquareNet, synthetic: HeadData, real: HeadData | None, epochs: int = 2,
        boards_per_batch: int = 16, seed: int = 0, progress: bool = True) -> SquareNet:
    """Refit the head: the recipe's losses (``lab.training.train``), each batch drawn from the
    synthetic boards and, when given, as many real boards weighted to ``REAL_SHARE``."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    params = [p for layer in HEAD for p in net.get_submodule(layer).parameters()]
    sources = [synthetic] + ([real] if real is not None else [])
    shares = [1.0] if real is None else [1 - REAL_SHARE, REAL_SHARE]
    tensors = [{f: torch.from_numpy(np.ascontiguousarray(getattr(d, f))) for f in
                ("features", "sight", "cls", "light", "colour")} for d in sources]
    # A small split (a test, a trial run) still makes whole batches.
    boards_per_batch = max(1, min([boards_per_batch] + [len(np.unique(d.board)) for d in sources]))
    steps = epochs * (len(np.unique(synthetic.board)) // boards_per_batch)
    opt = torch.optim.AdamW(params, lr=1e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1e-3, total_steps=steps, pct_start=0.1)
    ce = nn.CrossEntropyLoss(label_smoothing=0.02, reduction="none")
    streams = [_endless(d.board, boards_per_batch, rng) for d in sources]
    net.train()
    for _ in tqdm(range(steps), desc="head", unit="batch", disable=not progress):
        loss = torch.zeros(())
        for t, stream, share in zip(tensors, streams, shares):
            idx, board = (torch.from_numpy(a) for a in next(stream))
            kind, colour, light, square_kind = net.head(t["features"][idx], t["sight"][idx],
                                                       board, boards_per_batch)
            cls = t["cls"][idx].long()
            piece = (cls != EMPTY).float()
            part = ce(kind, cls).mean() + 0.5 * ce(square_kind, cls).mean()
            target = t["colour"][idx]
            known = piece * torch.isfinite(target).all(1).float()
            part = part + 5 * (((colour - target.nan_to_num()) ** 2).sum(1) * known).sum() / known.sum().clamp(min=1)
            bce = nn.functional.binary_cross_entropy_with_logits(light[:, 0], t["light"][idx].float(),
                                                                 reduction="none")
            part = part + 0.3 * (bce * piece).sum() / piece.sum().clamp(min=1)
            loss = loss + share * part
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
    net.eval()
    return net


def _endless(boards: np.ndarray, per_batch: int, rng: np.random.Generator
             ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    while True:
        yield from board_batches(boards, per_batch, rng)


def write(base: Path | str, net: SquareNet, out: Path | str) -> None:
    """The base ONNX with its head's weights replaced by ``net``'s (same graph, same size)."""
    model = onnx.load(str(base))
    state = net.state_dict()
    for init in model.graph.initializer:
        name = init.name.removeprefix("net.")
        if name.rsplit(".", 1)[0] in HEAD:
            init.CopyFrom(numpy_helper.from_array(state[name].detach().numpy().astype(np.float32),
                                                  init.name))
    onnx.save(model, str(out))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--base", type=Path, required=True, help="the recipe's trained network")
    parser.add_argument("--data", type=Path, default=Path("data/fit.npz"))
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--no-real", action="store_true", help="synthetic crops only")
    parser.add_argument("--threads", type=int, default=1,
                        help="one: the refit is small, and a shared machine's second core waits")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    from lab.realdata import ROOT, collections

    convolutions = Convolutions(args.base)
    synthetic = split_data(convolutions, dict(np.load(args.data)))
    sets = {} if args.no_real else collections()
    real = real_data(convolutions, sets, int(synthetic.board.max()) + 1) if sets else None
    used = (f"{len(np.unique(synthetic.board))} synthetic boards of {args.data} and "
            + (f"{sum(len(p) for p in sets.values())} real photos of {len(sets)} sets in {ROOT}"
               if sets else f"no real photo ({ROOT} absent or --no-real)"))
    print(f"refitting the head on {used}")
    write(args.base, fit(base_head(args.base), synthetic, real), args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.2f} MB)")


if __name__ == "__main__":
    main()
