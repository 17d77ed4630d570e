"""Post-training int8 quantization of the exported square network (onnxruntime's own tool).

Why: the network must classify a board's 32 squares in under 2 ms on one core, and the
float graph takes 1.8-1.9 ms of that alone; weights in int8 (per output channel) and
activations in uint8 run the same graph in about two thirds of the time on this CPU, at a
cost of 0.02 points of per-square error on the held-out set. The activation ranges are
measured on whole training boards (never the test split), one board per call as at run time.

``python -m lab.training.quantize --float F.onnx --data data/train.npz --out square_classifier.onnx``;
``lab.training.train`` calls ``quantize`` after exporting.
"""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np
from onnxruntime.quantization import (CalibrationDataReader, QuantFormat, QuantType,
                                      quantize_static)
from onnxruntime.quantization.shape_inference import quant_pre_process

#: Training boards whose activations set the int8 ranges.
CALIBRATION_BOARDS = 64


def calibration_boards(data: dict[str, np.ndarray], count: int = CALIBRATION_BOARDS
                       ) -> list[dict[str, np.ndarray]]:
    """The network inputs (crops and sightlines) of ``count`` boards spread evenly over the
    split, each board whole."""
    boards, crops, sight = data["board"], data["crops"], data["sight"]  # an npz reads per access
    starts = np.flatnonzero(np.r_[True, boards[1:] != boards[:-1]])
    ends = np.r_[starts[1:], len(boards)]
    picked = np.linspace(0, len(starts) - 1, min(count, len(starts))).round().astype(int)
    return [{"crops": np.asarray(crops[a:b]), "sight": np.asarray(sight[a:b])}
            for a, b in zip(starts[picked], ends[picked])]


class _Boards(CalibrationDataReader):
    """Feeds one board's inputs per call, as the run time does."""

    def __init__(self, boards: list[dict[str, np.ndarray]]) -> None:
        self._boards: Iterator[dict[str, np.ndarray]] = iter(boards)

    def get_next(self) -> dict[str, np.ndarray] | None:
        return next(self._boards, None)


def quantize(float_model: Path, boards: list[dict[str, np.ndarray]], out: Path) -> None:
    """Write the int8 (QDQ, per-channel weights) version of ``float_model`` to ``out``."""
    if not boards:
        raise ValueError("quantization needs at least one calibration board")
    with tempfile.TemporaryDirectory() as tmp:
        prepared = Path(tmp) / "prepared.onnx"
        quant_pre_process(str(float_model), str(prepared))
        quantize_static(str(prepared), str(out), _Boards(boards), quant_format=QuantFormat.QDQ,
                        per_channel=True, activation_type=QuantType.QUInt8,
                        weight_type=QuantType.QInt8, op_types_to_quantize=["Conv"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--float", dest="float_model", type=Path, required=True)
    parser.add_argument("--data", type=Path, default=Path("data/train.npz"))
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    quantize(args.float_model, calibration_boards(np.load(args.data)), args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.2f} MB)")


if __name__ == "__main__":
    main()
