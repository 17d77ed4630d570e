"""The square network (PyTorch, training only; run time uses its ONNX export).

Input: a batch of crops exactly as ``vision.rectify.crop_squares`` returns them,
(N, 64, 40, 3) uint8 BGR, so the run time feeds the array without conversion.
Outputs: ``kind`` logits (N, 3) for empty / man / king, colour-agnostic; ``colour`` (N, 3),
the piece's Lab colour in [0, 1] (what the board-wide light/dark clustering compares);
``light`` (N, 1) logit, a per-square guess used only when the board shows one colour.
Sized to classify 32 crops in under 2 ms on one core.
"""

from __future__ import annotations

import torch
from torch import nn


def _block(c_in: int, c_out: int, stride: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, stride, 1, bias=False), nn.BatchNorm2d(c_out),
                         nn.ReLU(inplace=True))


class SquareNet(nn.Module):
    """Four 3x3 conv blocks (64x40 -> 8x5) and a small fully connected head.

    The head is fully connected rather than pooled: crops are oriented (stack spill always
    upward), so where a disc sits in the crop tells whose square it belongs to.
    """

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(_block(3, 16, 2), _block(16, 32, 2), _block(32, 48, 2),
                                      _block(48, 64, 1))
        self.hidden = nn.Sequential(nn.Flatten(), nn.Linear(64 * 8 * 5, 64), nn.ReLU(inplace=True))
        self.kind = nn.Linear(64, 3)
        self.colour = nn.Linear(64, 3)
        self.light = nn.Linear(64, 1)

    def forward(self, crops: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        x = crops.permute(0, 3, 1, 2).float() * (1 / 255.0) - 0.5
        h = self.hidden(self.features(x))
        return self.kind(h), torch.sigmoid(self.colour(h)), self.light(h)
