"""The head refit (``lab.training.head``; needs the optional ``train`` extra, skipped without it).

What matters: the refit changes only the layers after the convolutions, the written network
is the base graph with those weights (same inputs, outputs and size), and the PyTorch head
computes what the ONNX graph computes from the convolutions' output.
"""

import copy
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

from lab.training.dataset import EMPTY, KING, MAN  # noqa: E402
from lab.training.head import Convolutions, HeadData, base_head, board_data, fit, write  # noqa: E402
from makhos.vision.classifier import DEFAULT_MODEL, SquareClassifier  # noqa: E402
from makhos.vision.rectify import SquareCrops  # noqa: E402


def _board(seed: int) -> SquareCrops:
    rng = np.random.default_rng(seed)
    return SquareCrops(rng.integers(0, 256, (32, 64, 40, 3), dtype=np.uint8),
                       np.stack([rng.uniform(0, 1.5, 32), 1 / rng.uniform(12, 30, 32)], 1)
                       .astype(np.float32))


def test_the_head_reads_what_the_graph_reads():
    crops = _board(0)
    net = base_head(DEFAULT_MODEL)
    features = Convolutions(DEFAULT_MODEL)(crops)
    with torch.no_grad():
        kind, colour, light, _ = net.head(torch.from_numpy(features), torch.from_numpy(crops.sight))
    ref = SquareClassifier().session.run(None, {"crops": crops.images, "sight": crops.sight})
    assert np.allclose(kind.numpy(), ref[0], atol=1e-4)
    assert np.allclose(colour.numpy(), ref[1], atol=1e-5)
    assert np.allclose(light.numpy(), ref[2], atol=1e-4)


def test_a_refit_moves_the_head_only(tmp_path: Path):
    torch.manual_seed(0)
    convolutions = Convolutions(DEFAULT_MODEL)
    labels = "l" * 12 + "." * 8 + "D" * 12
    parts = [d for k in range(4) for d in board_data(convolutions, _board(k), labels, k)]
    data = HeadData.join(parts)
    assert set(np.unique(data.cls)) == {EMPTY, MAN, KING} and len(np.unique(data.board)) == 8
    before = base_head(DEFAULT_MODEL)
    fitted = fit(copy.deepcopy(before), data, data, epochs=2, boards_per_batch=2, progress=False)
    moved = {name for name, p in fitted.state_dict().items()
             if not torch.equal(p, before.state_dict()[name])}
    assert moved and all(name.split(".")[0] in ("hidden", "square_kind", "kind", "colour", "light")
                         for name in moved)
    out = tmp_path / "refit.onnx"
    write(DEFAULT_MODEL, fitted, out)
    assert abs(out.stat().st_size - DEFAULT_MODEL.stat().st_size) < 1024
    crops = _board(9)
    refit = SquareClassifier(out).session.run(None, {"crops": crops.images, "sight": crops.sight})
    with torch.no_grad():
        kind, _, _, _ = fitted.head(torch.from_numpy(convolutions(crops)),
                                    torch.from_numpy(crops.sight))
    assert np.allclose(kind.numpy(), refit[0], atol=1e-4)
    base = SquareClassifier().session.run(None, {"crops": crops.images, "sight": crops.sight})
    assert not np.allclose(base[0], refit[0], atol=1e-3)
