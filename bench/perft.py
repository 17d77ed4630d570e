"""Perft speed of the engine from the 8-man start: leaves per second, three ways.

    python3 -m bench.perft            # depths 7 and 8
    python3 -m bench.perft --deep     # and depth 9 (about 30 s without the table)
    MAKHOS_PURE_ENGINE=1 python3 -m bench.perft   # the Python source, where the engine is compiled

Each figure is labelled:
- ``no table``: :func:`engine.perft.perft` as is, bulk counting at the last ply; this is
  the raw speed of the move generator.
- ``table``: the same with ``table=True``, a transposition table keyed on the position
  and the remaining depth; it measures how much the tree transposes, not the generator.
- ``N processes``: the table-free count split over worker processes by the positions
  two plies in (49 subtrees, so the workers stay evenly loaded).

Every count is checked against RULES.md; a wrong count exits with status 1, because a
fast wrong generator is worth nothing.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path

# Run as a plain script from anywhere: the engine lives one folder up.

from bench.machine import cpu_model, engine_path
from makhos.engine import Position, Rules
from makhos.engine.perft import perft

#: RULES.md, "Reference move counts": standard 8-man start, dark to move.
REFERENCE = {7: 1_820_189, 8: 14_533_014, 9: 114_530_830}


def _subtree(job: tuple[str, int]) -> int:
    """Worker: perft of one position given as FEN (positions pickle as plain text)."""
    fen, depth = job
    return perft(Position.from_fen(fen), depth)


def perft_parallel(position: Position, depth: int, processes: int, rules: Rules | None = None) -> int:
    """Table-free perft split over ``processes`` workers by the positions two plies in."""
    rules = rules or Rules()
    if depth < 3:
        return perft(position, depth, rules)
    jobs = []
    for first in position.legal_moves(rules):
        after = position.play(first)
        jobs += [(after.play(second).fen(), depth - 2) for second in after.legal_moves(rules)]
    with multiprocessing.Pool(processes) as pool:
        return sum(pool.imap_unordered(_subtree, jobs))


def measure(label: str, depth: int, count: Callable[[], int], cpu: bool = True) -> bool:
    """Time one count, print its line, and say whether it matched RULES.md. ``cpu``: the
    count runs in this process, so its CPU time is printed too (the figure a loaded machine
    keeps; the wall time grows with the load)."""
    start, start_cpu = time.perf_counter(), time.process_time()
    leaves = count()
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - start_cpu
    ok = bool(leaves == REFERENCE[depth])
    verdict = "" if ok else f"  WRONG: RULES.md says {REFERENCE[depth]:,}"
    on_cpu = f"  {leaves / cpu_seconds / 1e6:7.2f} M leaves/s cpu" if cpu else ""
    print(
        f"perft {depth}  {label:<12} {leaves:>13,} leaves  {seconds:8.2f} s"
        f"  {leaves / seconds / 1e6:7.2f} M leaves/s{on_cpu}{verdict}",
        flush=True,
    )
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Perft leaves per second from the 8-man start.")
    parser.add_argument("--deep", action="store_true", help="also depth 9 (about 30 s without the table)")
    parser.add_argument("--processes", type=int, default=2, help="workers for the split count (0: skip)")
    args = parser.parse_args(argv)

    print(f"machine: {os.cpu_count()} CPUs, {cpu_model()}")
    print(f"python:  {platform.python_implementation()} {platform.python_version()}")
    print(engine_path())
    print(f"date:    {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load:    {load:.2f} (1-minute average before the run)")

    start = Position.start()
    ok = True
    for depth in (7, 8, 9) if args.deep else (7, 8):
        ok &= measure("no table", depth, lambda: perft(start, depth))
        ok &= measure("table", depth, lambda: perft(start, depth, table=True))
        if args.processes > 0:
            label = f"{args.processes} processes"
            ok &= measure(label, depth, lambda: perft_parallel(start, depth, args.processes), cpu=False)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
