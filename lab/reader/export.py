"""Join a trained run (``lab.reader.train``'s .pt: blocks 11-13, embedding, heads) with the
pretrained Lite0 blocks and write the run-time files: the ONNX embedder and the heads JSON.

    python -m lab.reader.export --run RUN.pt --onnx models/board_reader.onnx \
        --heads models/board_reader_heads.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import torch

from lab.reader.net import Embedder, Heads, lite0
from lab.reader.pack import lite0_weights
from makhos.vision.reader import COLOUR, GEOMETRY, KING_PRIOR
from makhos.vision.reader import Heads as NumpyHeads


def load_run(path: Path | str, weights: str | None = None) -> tuple[Embedder, Heads]:
    state = torch.load(path, map_location="cpu")
    embedder = Embedder(lite0(weights or lite0_weights()))
    heads = Heads()
    missing = embedder.load_state_dict(
        {k[9:]: v for k, v in state.items() if k.startswith("embedder.")}, strict=False)
    assert not missing.unexpected_keys, missing.unexpected_keys
    heads.load_state_dict({k[6:]: v for k, v in state.items() if k.startswith("heads.")})
    return embedder.eval(), heads.eval()


def numpy_heads(heads: Heads) -> NumpyHeads:
    """The trained heads in numpy, with zero weights on the colour features (only an
    adaptation gives them meaning) and the king prior in the king bias."""
    pad = [0.0] * COLOUR

    def wb(layer: torch.nn.Linear, halves: int = 1) -> list[float]:
        w = layer.weight.detach().double().numpy()[0]
        parts = np.split(w, halves)
        out = [float(v) for part in parts for v in [*part.tolist(), *pad]]
        return out + ([float(layer.bias.item())] if layer.bias is not None else [])

    king = wb(heads.king, 2)
    king[-1] += KING_PRIOR
    return NumpyHeads.from_dict({"occupied": wb(heads.occupied), "light_rel": wb(heads.light_rel),
                                 "light_abs": wb(heads.light_abs), "king": king,
                                 "reference": None})


def export(run: Path | str, onnx_path: Path, heads_path: Path) -> None:
    embedder, heads = load_run(run)
    crops = torch.zeros(32, GEOMETRY.height, GEOMETRY.width, 3, dtype=torch.uint8)
    sight = torch.zeros(32, 2)
    onnx_path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(embedder, (crops, sight), str(onnx_path), input_names=["crops", "sight"],
                      output_names=["embedding"], dynamic_axes={"crops": {0: "n"},
                                                                "sight": {0: "n"},
                                                                "embedding": {0: "n"}},
                      opset_version=17, dynamo=False)
    heads_path.write_text(json.dumps(numpy_heads(heads).to_dict()) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--run", type=Path, required=True)
    parser.add_argument("--onnx", type=Path, required=True)
    parser.add_argument("--heads", type=Path, required=True)
    args = parser.parse_args()
    export(args.run, args.onnx, args.heads)
    print(args.onnx, f"{args.onnx.stat().st_size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
