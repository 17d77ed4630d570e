"""The square network (PyTorch, training only; run time uses its ONNX export).

Inputs: the 32 crops of one board exactly as ``vision.rectify.crop_squares`` returns them,
(32, 64, 40, 3) uint8 BGR, so the run time feeds the array without conversion; and how
each square is seen (``vision.rectify.sightlines``, (32, 2) float32). A rectified crop
has lost the angle it was seen at, and with it the difference between a man seen
obliquely and a king seen more steeply: both spill the same distance up the crop.
Outputs: ``kind`` logits (N, 3) for empty / man / king, colour-agnostic; ``colour`` (N, 3),
the piece's Lab colour in [0, 1] (what the board-wide light/dark clustering compares);
``light`` (N, 1) logit, a per-square guess used only when the board shows one colour.
Sized to classify 32 crops in under 2 ms on one core.

Man or king is decided against the rest of the board. A king is two men of the same set
stacked, and sets differ more than a man differs from a king: a tall wooden man is taller
than a king of thin plastic men, and seen from straight above a king differs from a man
only by the rim of its lower man. A single crop cannot know the set; the board can. So
the network first describes each square on its own, then pools the descriptions of the
squares that hold a piece (their mean and spread: one cluster of men, or men and kings),
and the final empty/man/king head reads each square beside that pool.
"""

from __future__ import annotations

import torch
from torch import nn

#: Width of a square's description (the per-square hidden layer).
HIDDEN = 64
#: Numbers per square in ``sight``, and their scale to order one (the second is small).
SIGHT = 2
SIGHT_SCALE = (1.0, 10.0)


def _block(c_in: int, c_out: int, stride: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, stride, 1, bias=False), nn.BatchNorm2d(c_out),
                         nn.ReLU(inplace=True))


def board_pool(h: torch.Tensor, weight: torch.Tensor, board: torch.Tensor | None,
               boards: int) -> torch.Tensor:
    """Per-square (N, 2 * HIDDEN): the weighted mean and spread of ``h`` over its board.

    ``board`` (N,) numbers the boards of a training batch; ``None`` means the whole input
    is one board (run time). Squares are gathered to their boards by a membership matrix,
    so both cases are the same matrix products and export to ONNX as such. Always float32,
    also when training runs the rest in bfloat16: the spread is a difference of two close
    means, which bfloat16's 8-bit mantissa would wipe out.
    """
    with torch.autocast("cpu", enabled=False):
        h, weight = h.float(), weight.float()
        member = (torch.ones_like(weight).T if board is None
                  else nn.functional.one_hot(board, boards).T.to(h.dtype))  # (boards, N)
        total = (member @ weight).clamp(min=1e-3)
        mean = member @ (weight * h) / total
        spread = (member @ (weight * h * h) / total - mean * mean).clamp(min=0).add(1e-6).sqrt()
        return member.T @ torch.cat([mean, spread], 1)


class SquareNet(nn.Module):
    """Four 3x3 conv blocks (64x40 -> 8x5), a per-square description, a board-aware head.

    The description layer is fully connected rather than pooled: crops are oriented (stack
    spill always upward), so where a disc sits in the crop tells whose square it belongs to.
    ``square_kind`` (the description alone) only weighs which squares enter the board pool.
    """

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(_block(3, 16, 2), _block(16, 32, 2), _block(32, 48, 2),
                                      _block(48, 64, 1))
        self.hidden = nn.Sequential(nn.Linear(64 * 8 * 5 + SIGHT, HIDDEN), nn.ReLU(inplace=True))
        self.register_buffer("sight_scale", torch.tensor(SIGHT_SCALE))
        self.square_kind = nn.Linear(HIDDEN, 3)
        self.kind = nn.Sequential(nn.Linear(3 * HIDDEN + SIGHT, HIDDEN), nn.ReLU(inplace=True),
                                  nn.Linear(HIDDEN, 3))
        self.colour = nn.Linear(HIDDEN, 3)
        self.light = nn.Linear(HIDDEN, 1)

    def forward(self, crops: torch.Tensor, sight: torch.Tensor, board: torch.Tensor | None = None,
                boards: int = 1) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        """(kind, colour, light, square_kind); the first three are the ONNX outputs."""
        x = crops.permute(0, 3, 1, 2).float() * (1 / 255.0) - 0.5
        return self.head(self.features(x).flatten(1), sight, board, boards)

    def head(self, features: torch.Tensor, sight: torch.Tensor, board: torch.Tensor | None = None,
             boards: int = 1) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        """Everything after the convolutions, from their flattened output: what
        ``lab.training.head`` refits on its own."""
        sight = sight.float() * self.sight_scale
        h = self.hidden(torch.cat([features, sight], 1))
        square_kind = self.square_kind(h)
        piece = 1 - torch.softmax(square_kind, 1)[:, :1].detach()
        pooled = board_pool(h, piece, board, boards)
        kind = self.kind(torch.cat([h, pooled[:, :HIDDEN] - h, pooled[:, HIDDEN:], sight], 1))
        return kind, torch.sigmoid(self.colour(h)), self.light(h), square_kind
