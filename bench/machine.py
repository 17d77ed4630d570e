"""The machine a figure was measured on, as bench/RESULTS.md records it."""

from __future__ import annotations

import os
import platform
from pathlib import Path


def cpu_model() -> str:
    """The processor's name (``/proc/cpuinfo``), or what the platform says where it is absent."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def describe() -> str:
    """CPUs, processor and Python: the line each bench prints first."""
    return f"{os.cpu_count()} CPUs ({cpu_model()}), Python {platform.python_version()}"


def engine_path() -> str:
    """Which engine runs (engine/native.py): the figures of the two differ severalfold."""
    import makhos.engine

    if makhos.engine.COMPILED:
        return "engine: compiled by mypyc"
    return "engine: Python source (nothing compiled here, or MAKHOS_PURE_ENGINE set)"


def load() -> str:
    """The machine's load average over the last minute, printed beside a figure measured on a
    shared machine (its CPU times grow with it)."""
    return f"load {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else "load unknown"
