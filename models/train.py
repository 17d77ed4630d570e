"""Train the square network on rendered crops and export it to ONNX.

``python -m models.train`` reads ``data/train.npz`` (made by ``models.dataset``), trains with
at most two threads (the machine is shared), and writes ``models/square_classifier.onnx``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import torch
from torch import nn
from tqdm import tqdm

from models.dataset import EMPTY
from models.net import SquareNet

ONNX_PATH = Path(__file__).with_name("square_classifier.onnx")


def augment(crops: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """Mirror left-right (a mirrored scene is as plausible) and jitter light per crop."""
    n = crops.shape[0]
    flip = torch.rand(n, generator=gen) < 0.5
    crops = torch.where(flip[:, None, None, None], crops.flip(2), crops).float()
    gain = 1 + 0.15 * (torch.rand(n, 1, 1, 1, generator=gen) * 2 - 1)
    tint = 1 + 0.05 * (torch.rand(n, 1, 1, 3, generator=gen) * 2 - 1)
    return (crops * gain * tint).clamp(0, 255)


def train(data: dict[str, np.ndarray], epochs: int, batch: int, seed: int) -> SquareNet:
    """Cross-entropy on empty/man/king, plus colour regression and light/dark on pieces."""
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    crops = torch.from_numpy(data["crops"])
    kind = torch.from_numpy(data["cls"]).long()
    colour = torch.from_numpy(data["colour"]).float()
    light = torch.from_numpy(data["light"]).float()
    model = SquareNet()
    steps = epochs * (len(kind) // batch)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps,
                                                pct_start=0.15)
    ce = nn.CrossEntropyLoss(label_smoothing=0.02)
    bar = tqdm(total=steps, desc="train", unit="batch")
    for epoch in range(epochs):
        model.train()
        order = torch.randperm(len(kind), generator=gen)
        for i in range(len(kind) // batch):
            idx = order[i * batch:(i + 1) * batch]
            x = augment(crops[idx], gen)
            logits, col, lig = model(x)
            piece = (kind[idx] != EMPTY).float()
            loss = ce(logits, kind[idx])
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
    return model.eval()


def export(model: SquareNet, path: Path) -> None:
    """ONNX with a dynamic batch axis; input is the raw uint8 crop batch."""
    example = torch.zeros(32, 64, 40, 3, dtype=torch.uint8)
    torch.onnx.export(model, (example,), str(path), input_names=["crops"],
                      output_names=["kind", "colour", "light"],
                      dynamic_axes={"crops": {0: "n"}, "kind": {0: "n"}, "colour": {0: "n"},
                                    "light": {0: "n"}},
                      opset_version=17, dynamo=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=Path("data/train.npz"))
    parser.add_argument("--out", type=Path, default=ONNX_PATH)
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    data = dict(np.load(args.data))
    model = train(data, args.epochs, args.batch, args.seed)
    export(model, args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.2f} MB)")


if __name__ == "__main__":
    main()
