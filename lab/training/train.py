"""Train the square network on rendered crops and export it to ONNX.

``python -m lab.training.train`` reads ``data/train.npz`` (made by ``lab.training.dataset``), trains with
at most two threads (the machine is shared), exports the float graph and writes its int8
version (``lab.training.quantize``) to ``models/square_classifier.onnx``.
"""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import torch
from torch import nn
from tqdm import tqdm

from lab.training.dataset import EMPTY
from lab.training.net import SIGHT, SquareNet
from lab.training.quantize import calibration_boards, quantize

ONNX_PATH = Path(__file__).with_name("square_classifier.onnx")


def board_batches(boards: np.ndarray, per_batch: int, rng: np.random.Generator
                  ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Shuffled batches of whole boards: (crop indices, board number 0..per_batch-1 of each).

    The kind head compares each square with the rest of its board, so a batch must hold
    every crop of the boards it draws (those of ``lab.training.dataset`` are stored contiguously).
    """
    starts = np.flatnonzero(np.r_[True, boards[1:] != boards[:-1]])
    ends = np.r_[starts[1:], len(boards)]
    order = rng.permutation(len(starts))
    for i in range(len(order) // per_batch):
        chosen = order[i * per_batch:(i + 1) * per_batch]
        yield (np.concatenate([np.arange(starts[b], ends[b]) for b in chosen]),
               np.concatenate([np.full(ends[b] - starts[b], j) for j, b in enumerate(chosen)]))


def move(crops: torch.Tensor, gen: torch.Generator, most: int = 1) -> torch.Tensor:
    """Mirror half the crops left-right (a mirrored scene is as plausible) and move each by
    up to ``most`` pixels in x and y, edge pixels repeated (the corners the tracker finds at
    run time are a pixel or so off the renderer's true ones). One gather per axis, on uint8."""
    n, h, w, c = crops.shape
    flip = torch.rand(n, generator=gen) < 0.5
    dy, dx = torch.randint(-most, most + 1, (2, n), generator=gen)
    rows = (torch.arange(h) + dy[:, None]).clamp(0, h - 1)
    cols = (torch.arange(w) + dx[:, None]).clamp(0, w - 1)
    cols = torch.where(flip[:, None], w - 1 - cols, cols)
    crops = crops.gather(1, rows[:, :, None, None].expand(n, h, w, c))
    return crops.gather(2, cols[:, None, :, None].expand(n, h, w, c))


def augment(crops: torch.Tensor, board: torch.Tensor, boards: int, gen: torch.Generator
            ) -> torch.Tensor:
    """Mirror and move the crops (``move``), and change the light of each board as a whole
    (gain and tint), as a room's light falls on all its squares."""
    gain = 1 + 0.15 * (torch.rand(boards, 1, 1, 1, generator=gen) * 2 - 1)
    tint = 1 + 0.05 * (torch.rand(boards, 1, 1, 3, generator=gen) * 2 - 1)
    return (move(crops, gen).float() * (gain * tint)[board]).clamp_(0, 255)


def train(data: dict[str, np.ndarray], epochs: int, boards_per_batch: int, seed: int,
          bfloat16: bool) -> SquareNet:
    """Cross-entropy on empty/man/king (board-aware head, and half weight on the square's
    own head that picks the pieces to pool), plus colour regression and light/dark.

    ``bfloat16`` runs the layers in bfloat16 (weights and losses stay float32): on a CPU with
    native bfloat16 (this machine's AMD EPYC) a step measured alone takes about 0.6 of its
    float32 time, and the network reads as well. Without native support bfloat16 is
    emulated and slower: ``--precision auto`` checks."""
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    rng = np.random.default_rng(seed)
    crops = torch.from_numpy(data["crops"])
    sight = torch.from_numpy(data["sight"])
    kind = torch.from_numpy(data["cls"]).long()
    colour = torch.from_numpy(data["colour"]).float()
    light = torch.from_numpy(data["light"]).float()
    model = SquareNet()
    per_epoch = len(np.unique(data["board"])) // boards_per_batch
    steps = epochs * per_epoch
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps,
                                                pct_start=0.15)
    ce = nn.CrossEntropyLoss(label_smoothing=0.02)
    bar = tqdm(total=steps, desc="train", unit="batch")
    for epoch in range(epochs):
        model.train()
        for idx, board in board_batches(data["board"], boards_per_batch, rng):
            idx, board = torch.from_numpy(idx), torch.from_numpy(board)
            x = augment(crops[idx], board, boards_per_batch, gen)
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bfloat16):
                logits, col, lig, square_logits = model(x, sight[idx], board, boards_per_batch)
            logits, col, lig, square_logits = (t.float() for t in (logits, col, lig, square_logits))
            piece = (kind[idx] != EMPTY).float()
            loss = ce(logits, kind[idx]) + 0.5 * ce(square_logits, kind[idx])
            loss = loss + 5 * ((col - colour[idx]) ** 2).sum(1).mul(piece).sum() / piece.sum().clamp(min=1)
            bce = nn.functional.binary_cross_entropy_with_logits(lig[:, 0], light[idx], reduction="none")
            loss = loss + 0.3 * (bce * piece).sum() / piece.sum().clamp(min=1)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            bar.update()
            bar.set_postfix(epoch=epoch + 1, loss=f"{loss.item():.4f}")
    bar.close()
    model.eval()
    return model


class _RunTime(nn.Module):
    """The exported graph: one board per call, the three outputs the run time reads."""

    def __init__(self, net: SquareNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, crops: torch.Tensor, sight: torch.Tensor
                ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        kind, colour, light, _ = self.net(crops, sight)
        return kind, colour, light


def export(model: SquareNet, path: Path) -> None:
    """ONNX with a dynamic batch axis (the squares of one board); input is the raw uint8 crops."""
    example = (torch.zeros(32, 64, 40, 3, dtype=torch.uint8), torch.zeros(32, SIGHT))
    torch.onnx.export(_RunTime(model).eval(), example, str(path), input_names=["crops", "sight"],
                      output_names=["kind", "colour", "light"],
                      dynamic_axes={name: {0: "n"} for name in ("crops", "sight", "kind", "colour",
                                                                "light")},
                      opset_version=17, dynamo=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=Path("data/train.npz"))
    parser.add_argument("--out", type=Path, default=ONNX_PATH)
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--boards-per-batch", type=int, default=8)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--precision", choices=("auto", "bfloat16", "float32"), default="auto",
                        help="auto: bfloat16 where the CPU has it natively, else float32")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    data = dict(np.load(args.data))
    # PyTorch has no public query for native bfloat16 on the CPU; oneDNN's own is used.
    bfloat16 = args.precision == "bfloat16" or (
        args.precision == "auto" and torch.ops.mkldnn._is_mkldnn_bf16_supported())
    model = train(data, args.epochs, args.boards_per_batch, args.seed, bfloat16)
    with tempfile.TemporaryDirectory() as tmp:
        float_model = Path(tmp) / "float.onnx"
        export(model, float_model)
        quantize(float_model, calibration_boards(data), args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.2f} MB)")


if __name__ == "__main__":
    main()
