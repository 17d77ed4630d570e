"""Fine-tune the reader on synthetic and real crops, leave-one-set-out and on all sets.

Inputs are the crop files of ``lab.reader.realcrops`` and ``lab.reader.synthcrops`` (one
JPEG mosaic per board). A batch is whole boards (32 squares each), real and synthetic
(``--boards``, ``--synthetic-boards``), because the light head compares each piece with
the mean of its own board's pieces. Augmentations are per board where they must keep the
board's two sides in their order (light gains, contrast, grey) and per crop where geometry
allows (mirror, a little scale, shift and turn; the crop's "up" is fixed by the camera,
so no quarter turns). Real men are also stacked into kings (a copy of the crop moved up by
a man's height along the sightline, pasted inside the upper man's outline), as no shared
set has stacked kings.

    python -m lab.reader.train --data DIR --weights LITE0.pth --out DIR \
        [--hold-out SET ...] [--steps 2000]

Writes ``<name>.pt`` with the trained parameters only (blocks 11-13, embedding, heads);
``lab.reader.export`` joins them with the pretrained blocks into the ONNX file.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F

from lab.reader.net import FIRST_TRAINED, Embedder, Heads, lite0
from lab.tally import Tally

H, W, PPS, CX, CY = 80, 64, 32, 31.5, 51.5
#: Sets whose kings are printed symbols on stickers: no man/king target there.
SYMBOL_KINGS = ("soon-jynn-chu-checkers-piece-detection",)


@dataclass
class Boards:
    """Decoded boards: crops (B, 32, H, W, 3) uint8 BGR, sight (B, 32, 2), labels (B,)."""

    crops: np.ndarray
    sight: np.ndarray
    labels: np.ndarray
    kings_stacked: bool = True


def load(path: Path, kings_stacked: bool = True) -> Boards:
    """One crop file, decoded."""
    z = np.load(path)
    jpeg, offsets = z["jpeg"], z["offsets"]
    crops = []
    for a, b in zip(offsets[:-1], offsets[1:]):
        image = cv2.imdecode(jpeg[a:b], cv2.IMREAD_COLOR)
        if image is None:
            raise ValueError(f"{path}: a board's mosaic does not decode")
        crops.append(image.reshape(4, H, 8, W, 3).transpose(0, 2, 1, 3, 4).reshape(32, H, W, 3))
    return Boards(np.stack(crops), z["sight"].astype(np.float32), z["labels"], kings_stacked)


def targets(labels: np.ndarray, kings_stacked: bool) -> np.ndarray:
    """(B, 32, 3) float: occupied, light, king; -1 where unknown."""
    out = np.full((len(labels), 32, 3), -1.0, np.float32)
    for b, row in enumerate(labels):
        for k, c in enumerate(str(row)):
            if c == "?":
                continue
            out[b, k, 0] = c != "."
            if c != ".":
                out[b, k, 1] = c in "lL"
                if kings_stacked:
                    out[b, k, 2] = c in "LD"
    return out


def stack_kings(crops: np.ndarray, sight: np.ndarray, target: np.ndarray,
                rng: np.random.Generator, share: float = 0.2) -> None:
    """Turn some men of real boards into stacked kings, in place (see the module doc)."""
    ys, xs = np.mgrid[0:H, 0:W].astype(np.float32)
    for b in range(len(crops)):
        if rng.random() > 0.5:
            continue
        for k in range(32):
            if target[b, k, 0] != 1 or target[b, k, 2] != 0 or rng.random() > share:
                continue
            dy = int(round(rng.uniform(0.12, 0.3) * PPS * sight[b, k, 0]))
            if dy < 3 or dy > 24:
                continue
            r = rng.uniform(0.34, 0.42) * PPS
            top, base = CY - 2 * dy, CY - dy
            d = np.hypot(xs - CX, ys - np.clip(ys, top, base))
            mask = np.clip((r - d) / 1.5, 0, 1)[..., None]
            shifted = np.roll(crops[b, k], -dy, axis=0)
            crops[b, k] = (mask * shifted + (1 - mask) * crops[b, k]).astype(np.uint8)
            target[b, k, 2] = 1


def augment(x: torch.Tensor, boards: int, gen: torch.Generator) -> torch.Tensor:
    """Per-board photometric and per-crop geometric changes of (N, 3, H, W) RGB 0..255."""
    dev = x.device
    n = x.shape[0]

    def u(*shape: int, lo: float, hi: float) -> torch.Tensor:
        return torch.rand(*shape, generator=gen, device=dev) * (hi - lo) + lo

    per = n // boards
    gain = u(boards, 3, lo=0.8, hi=1.2).repeat_interleave(per, 0)[:, :, None, None]
    contrast = u(boards, lo=0.65, hi=1.35).repeat_interleave(per, 0)[:, None, None, None]
    bright = u(boards, lo=-35, hi=35).repeat_interleave(per, 0)[:, None, None, None]
    grey = (u(boards, lo=0, hi=1) < 0.1).repeat_interleave(per, 0)[:, None, None, None]
    mean = x.mean((1, 2, 3), keepdim=True)
    x = (x - mean) * contrast + mean * gain + bright
    x = torch.where(grey, x.mean(1, keepdim=True).expand_as(x), x)
    blur = (u(boards, lo=0, hi=1) < 0.25).repeat_interleave(per, 0)[:, None, None, None]
    x = torch.where(blur, F.avg_pool2d(x, 3, 1, 1, count_include_pad=False), x)
    angle = u(n, lo=-0.09, hi=0.09)
    scale = u(n, lo=0.9, hi=1.12)
    flip = torch.where(u(n, lo=0, hi=1) < 0.5, -1.0, 1.0)
    theta = torch.zeros(n, 2, 3, device=dev)
    theta[:, 0, 0] = torch.cos(angle) / scale * flip
    theta[:, 0, 1] = -torch.sin(angle) / scale
    theta[:, 1, 0] = torch.sin(angle) / scale * flip
    theta[:, 1, 1] = torch.cos(angle) / scale
    theta[:, 0, 2] = u(n, lo=-0.07, hi=0.07)
    theta[:, 1, 2] = u(n, lo=-0.05, hi=0.05)
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    x = F.grid_sample(x, grid, padding_mode="border", align_corners=False)
    x = x + torch.randn(x.shape, generator=gen, device=dev) * u(n, lo=0, hi=5)[:, None, None, None]
    return x.clamp(0, 255)


def board_ref(e: torch.Tensor, piece: torch.Tensor, boards: int) -> torch.Tensor:
    """Per square, the mean embedding of its board's pieces ((N, D); ``piece`` (N,) weights)."""
    eb = e.view(boards, -1, e.shape[1])
    w = piece.view(boards, -1, 1)
    ref = (eb * w).sum(1) / w.sum(1).clamp(min=1e-3)
    return ref.repeat_interleave(eb.shape[1], 0)


def losses(heads: Heads, e: torch.Tensor, t: torch.Tensor, boards: int) -> torch.Tensor:
    piece = (t[:, 0] == 1).float()
    occ, light, king = heads(e, board_ref(e, piece, boards))
    known = t[:, 0] >= 0
    loss = F.binary_cross_entropy_with_logits(occ[known], t[known, 0])
    lit = t[:, 1] >= 0
    if lit.any():
        loss = loss + F.binary_cross_entropy_with_logits(light[lit], t[lit, 1])
    kinged = t[:, 2] >= 0
    if kinged.any():
        loss = loss + 0.5 * F.binary_cross_entropy_with_logits(king[kinged], t[kinged, 2])
    return loss


@torch.no_grad()
def zero_shot_error(embedder: Embedder, heads: Heads, boards: Boards, device: str,
                    symbol_kings: bool) -> tuple[float, float]:
    """% squares wrong and % boards perfect with the generic heads (a quick figure; the
    bench is the reference)."""
    embedder.eval()
    tally = Tally()
    for b in range(len(boards.crops)):
        crops = torch.from_numpy(boards.crops[b]).to(device)
        sight = torch.from_numpy(boards.sight[b]).to(device)
        e = embedder(crops, sight).float()
        occ = torch.sigmoid(heads.occupied(e)[:, 0])
        ref = board_ref(e, occ, 1)
        _, light, king = heads(e, ref)
        labels = []
        for k in range(32):
            if occ[k] < 0.5:
                labels.append(".")
            else:
                c = "l" if light[k] > 0 else "d"
                labels.append(c.upper() if king[k] > 0 else c)
        tally.add_text(str(boards.labels[b]), "".join(labels), kings=not symbol_kings)
    embedder.train()
    return 100 * tally.square_error, 100 * tally.board_accuracy


def trained_state(embedder: Embedder, heads: Heads) -> dict[str, torch.Tensor]:
    """The parameters that differ from the pretrained Lite0 (and the heads)."""
    keep = {}
    for k, v in embedder.state_dict().items():
        if k.startswith("blocks."):
            if int(k.split(".")[1]) < FIRST_TRAINED:
                continue
        elif k.startswith(("stem", "bn0")):
            continue
        keep[f"embedder.{k}"] = v.detach().cpu().float()
    for k, v in heads.state_dict().items():
        keep[f"heads.{k}"] = v.detach().cpu().float()
    return keep


def train(real: dict[str, Boards], synth: Boards, weights: str, steps: int, device: str,
          seed: int, real_boards: int = 12, synth_boards: int = 12, seconds: float = 0.0,
          log: bool = True) -> tuple[Embedder, Heads]:
    """Fine-tune for ``steps`` steps, or for ``seconds`` of wall time where that is set (the
    learning rate then follows the elapsed share of the time: warm-up, cosine decay)."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    gen = torch.Generator(device=device)
    gen.manual_seed(seed)
    embedder = Embedder(lite0(weights)).to(device)
    heads = Heads().to(device)
    embedder.train()
    trained = [p for p in embedder.blocks.parameters() if p.requires_grad]
    new = list(embedder.embed.parameters()) + list(heads.parameters())
    opt = torch.optim.AdamW([{"params": trained, "lr": 3e-4}, {"params": new, "lr": 1e-3}],
                            weight_decay=1e-4)
    peaks = [3e-4, 1e-3]
    names = sorted(real)
    weight = np.sqrt([len(real[n].crops) for n in names])
    weight = weight / weight.sum()
    real_t = {n: targets(real[n].labels, real[n].kings_stacked) for n in names}
    synth_t = targets(synth.labels, True)
    start = time.time()
    step = 0
    while True:
        done = (time.time() - start) / seconds if seconds > 0 else step / steps
        if done >= 1:
            break
        scale = done / 0.1 if done < 0.1 else 0.5 * (1 + np.cos(np.pi * (done - 0.1) / 0.9))
        for group, peak in zip(opt.param_groups, peaks):
            group["lr"] = peak * max(scale, 0.02)
        crops, sight, tgt = [], [], []
        for _ in range(real_boards if names else 0):
            n = names[rng.choice(len(names), p=weight)]
            b = rng.integers(len(real[n].crops))
            crops.append(real[n].crops[b].copy())
            sight.append(real[n].sight[b])
            tgt.append(real_t[n][b].copy())
        if names:
            c, s, t = np.stack(crops), np.stack(sight), np.stack(tgt)
            stack_kings(c, s, t, rng)
            crops, sight, tgt = list(c), list(s), list(t)
        for b in rng.integers(len(synth.crops), size=synth_boards):
            crops.append(synth.crops[b])
            sight.append(synth.sight[b])
            tgt.append(synth_t[b])
        boards = len(crops)
        x = torch.from_numpy(np.concatenate(crops)).to(device)
        x = x.permute(0, 3, 1, 2).flip(1).float()
        x = augment(x, boards, gen)
        s = torch.from_numpy(np.concatenate(sight)).to(device)
        s = s * (0.9 + 0.2 * torch.rand(s.shape[0], 1, generator=gen, device=device))
        t = torch.from_numpy(np.concatenate(tgt)).to(device)
        with torch.autocast(device_type="cuda" if device.startswith("cuda") else "cpu",
                            dtype=torch.bfloat16, enabled=device.startswith("cuda")):
            e = embedder.from_float(x, s)
        loss = losses(heads, e.float(), t, boards)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        if log and step % 200 == 0:
            print(f"  step {step} loss {loss.item():.4f} {time.time() - start:.0f} s", flush=True)
        step += 1
    if log:
        print(f"  {step} steps", flush=True)
    embedder.eval()
    return embedder, heads


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--weights", required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--hold-out", nargs="*", default=None,
                        help="sets to train without, one run each; 'none' trains on all")
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=0.0,
                        help="train each run for this wall time instead of --steps")
    parser.add_argument("--boards", type=int, default=12, help="real boards a step")
    parser.add_argument("--synthetic-boards", type=int, default=8)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=30)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    real = {p.stem[5:]: load(p, p.stem[5:] not in SYMBOL_KINGS)
            for p in sorted(args.data.glob("real-*.npz"))}
    synth = load(args.data / "synthetic.npz")
    print(device, {n: len(b.crops) for n, b in real.items()}, "synthetic", len(synth.crops),
          flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    for held in args.hold_out or ["none"]:
        train_sets = {n: b for n, b in real.items() if n != held}
        start = time.time()
        embedder, heads = train(train_sets, synth, args.weights, args.steps, device, args.seed,
                                args.boards, args.synthetic_boards, args.seconds)
        name = "all" if held == "none" else held
        torch.save(trained_state(embedder, heads), args.out / f"{name}.pt")
        line = f"{name}: {time.time() - start:.0f} s"
        if held in real:
            err, perfect = zero_shot_error(embedder, heads, real[held], device,
                                           held in SYMBOL_KINGS)
            line += (f"  held-out zero-shot {err:.2f} % squares wrong, "
                     f"{perfect:.0f} % boards perfect")
        print(line, flush=True)


if __name__ == "__main__":
    main()
