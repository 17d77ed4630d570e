"""The training recipe (needs the optional ``train`` extra; skipped without PyTorch).

What matters: training sees each board as the run time does. The kind head pools over a
board, so a batch of several boards must give every square the answer it gets when its
board is classified alone, and the exported ONNX must give the same numbers as PyTorch.
"""

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

from models.net import SquareNet  # noqa: E402
from models.train import board_batches, export  # noqa: E402
from vision.classifier import SquareClassifier  # noqa: E402


def _crops(n: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 256, (n, 64, 40, 3), dtype=np.uint8)


def test_boards_in_one_batch_are_read_as_if_alone():
    torch.manual_seed(0)
    net = SquareNet().eval()
    first, second = _crops(32, 1), _crops(29, 2)  # a hand hid three squares of the second
    batch = torch.from_numpy(np.concatenate([first, second]))
    board = torch.from_numpy(np.repeat([0, 1], [32, 29]))
    with torch.no_grad():
        together = net(batch, board, 2)[0]
        alone = torch.cat([net(torch.from_numpy(first))[0], net(torch.from_numpy(second))[0]])
    assert torch.allclose(together, alone, atol=1e-5)


def test_board_batches_hold_whole_boards():
    boards = np.repeat([7, 3, 9, 4, 5], [32, 30, 32, 31, 32])
    seen = []
    for idx, number in board_batches(boards, 2, np.random.default_rng(0)):
        for j in range(2):
            ids = boards[idx[number == j]]
            assert len(set(ids)) == 1 and len(ids) == (boards == ids[0]).sum()
            seen.append(ids[0])
    assert len(seen) == len(set(seen)) == 4  # two batches of two; the odd board waits


def test_exported_onnx_gives_the_network_s_numbers(tmp_path: Path):
    torch.manual_seed(1)
    net = SquareNet().eval()
    path = tmp_path / "net.onnx"
    export(net, path)
    crops = _crops(32, 3)
    kind, colour, light = SquareClassifier(path).session.run(None, {"crops": crops})
    with torch.no_grad():
        want = net(torch.from_numpy(crops))
    assert np.allclose(kind, want[0].numpy(), atol=1e-4)
    assert np.allclose(colour, want[1].numpy(), atol=1e-5)
    assert np.allclose(light, want[2].numpy(), atol=1e-4)
    assert not net.training  # exporting leaves the network as it was
