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

from lab.training.net import HIDDEN, SquareNet, board_pool  # noqa: E402
from lab.training.quantize import calibration_boards, quantize  # noqa: E402
from lab.training.train import board_batches, export, move  # noqa: E402
from makhos.vision.classifier import SquareClassifier  # noqa: E402


def _crops(n: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 256, (n, 64, 40, 3), dtype=np.uint8)


def _sight(n: int, seed: int) -> np.ndarray:
    """Sightlines as ``vision.rectify.sightlines`` gives them: cotangents of 0-1.5, and one
    square over a camera height of 12-30 squares."""
    rng = np.random.default_rng(seed)
    return np.stack([rng.uniform(0, 1.5, n), 1 / rng.uniform(12, 30, n)], 1).astype(np.float32)


def _inputs(crops: np.ndarray, sight: np.ndarray) -> dict[str, np.ndarray]:
    return {"crops": crops, "sight": sight}


def test_boards_in_one_batch_are_read_as_if_alone():
    torch.manual_seed(0)
    net = SquareNet().eval()
    first, second = _crops(32, 1), _crops(29, 2)  # a hand hid three squares of the second
    sight = torch.from_numpy(_sight(61, 1))
    batch = torch.from_numpy(np.concatenate([first, second]))
    board = torch.from_numpy(np.repeat([0, 1], [32, 29]))
    with torch.no_grad():
        together = net(batch, sight, board, 2)[0]
        alone = torch.cat([net(torch.from_numpy(first), sight[:32])[0],
                           net(torch.from_numpy(second), sight[32:])[0]])
    assert torch.allclose(together, alone, atol=1e-5)


def test_board_pool_stays_float32_when_training_runs_in_bfloat16():
    # Descriptions far from zero with a small spread: in bfloat16, E[h^2] - E[h]^2 loses it.
    h = (40 + 0.2 * torch.randn(32, HIDDEN, generator=torch.Generator().manual_seed(0))).bfloat16()
    with torch.autocast("cpu", dtype=torch.bfloat16):
        pooled = board_pool(h, torch.ones(32, 1), None, 1)
    assert pooled.dtype == torch.float32
    expected = h.float().std(0, unbiased=False)
    assert torch.allclose(pooled[0, HIDDEN:], expected, rtol=0.02)


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
    crops, sight = _crops(32, 3), _sight(32, 3)
    session = SquareClassifier(path).session
    kind, colour, light = session.run(None, _inputs(crops, sight))
    with torch.no_grad():
        want = net(torch.from_numpy(crops), torch.from_numpy(sight))
    assert np.allclose(kind, want[0].numpy(), atol=1e-4)
    assert np.allclose(colour, want[1].numpy(), atol=1e-5)
    assert np.allclose(light, want[2].numpy(), atol=1e-4)
    assert not net.training  # exporting leaves the network as it was
    steeper = session.run(None, _inputs(crops, sight * np.float32([0.5, 1])))[0]
    assert np.abs(steeper - kind).max() > 1e-3  # the graph reads the sightlines


def test_move_mirrors_and_moves_each_crop_by_at_most_one_pixel_keeping_its_content():
    crops = torch.from_numpy(_crops(96, 4))
    moved = move(crops, torch.Generator().manual_seed(0))
    assert moved.shape == crops.shape and moved.dtype == crops.dtype
    seen = set()
    for before, after in zip(crops, moved):
        matches = [(flip, dy, dx) for flip in (False, True) for dy in (-1, 0, 1) for dx in (-1, 0, 1)
                   if torch.equal(after[1:-1, 1:-1],
                                  (before.flip(1) if flip else before)[1 + dy:63 + dy, 1 + dx:39 + dx])]
        assert len(matches) == 1  # the inside of the crop is the input, maybe mirrored, moved
        seen.add(matches[0])
    assert len(seen) == 18  # every mirror and offset is drawn, the unchanged crop included


def test_calibration_boards_are_whole_and_spread_over_the_split():
    boards = np.repeat(np.arange(10), [32, 30] * 5)
    data = {"board": boards, "crops": np.arange(len(boards))[:, None],
            "sight": -np.arange(len(boards))[:, None]}
    picked = calibration_boards(data, count=4)
    assert [len(b["crops"]) for b in picked] == [32, 30, 32, 30]  # boards 0, 3, 6, 9, complete
    assert [boards[b["crops"][0, 0]] for b in picked] == [0, 3, 6, 9]
    assert all(np.array_equal(b["sight"], -b["crops"]) for b in picked)  # each with its own


def test_int8_model_reads_like_the_float_one(tmp_path: Path):
    torch.manual_seed(2)
    net = SquareNet().eval()
    float_path, int8_path = tmp_path / "float.onnx", tmp_path / "int8.onnx"
    export(net, float_path)
    boards = [_inputs(np.clip(_crops(32, 10 + i).astype(int) // 2 + 60, 0, 255).astype(np.uint8),
                      _sight(32, 10 + i)) for i in range(8)]
    quantize(float_path, boards, int8_path)
    assert int8_path.stat().st_size < float_path.stat().st_size
    want = SquareClassifier(float_path).session.run(None, boards[0])
    got = SquareClassifier(int8_path).session.run(None, boards[0])
    for a, b in zip(want, got):  # every output follows the float graph's
        assert np.corrcoef(a.ravel(), b.ravel())[0, 1] > 0.98
    with pytest.raises(ValueError, match="at least one"):
        quantize(float_path, [], tmp_path / "none.onnx")


def test_a_network_of_another_version_is_refused_by_name(tmp_path: Path):
    """A network that reads crops alone (the version before sightlines) fails at load,
    naming the inputs it takes, rather than at the first frame."""

    class CropsOnly(torch.nn.Module):
        def forward(self, crops: torch.Tensor) -> torch.Tensor:
            return crops.float().mean((1, 2))

    path = tmp_path / "old.onnx"
    torch.onnx.export(CropsOnly(), (torch.zeros(32, 64, 40, 3, dtype=torch.uint8),), str(path),
                      input_names=["crops"], dynamo=False)
    with pytest.raises(ValueError, match=r"takes \['crops'\].*make model"):
        SquareClassifier(path)
