"""A small progress bar on stderr for long commands (no dependency for one line of text)."""

from __future__ import annotations

import sys
import time


class Progress:
    """``with Progress(total, "frames") as p: p.update(1)`` — redraws at most 5 times a second."""

    def __init__(self, total: int | None, unit: str, enabled: bool = True) -> None:
        self.total = total if total and total > 0 else None
        self.unit = unit
        self.enabled = enabled
        self.done = 0
        self._start = time.monotonic()
        self._drawn = 0.0

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc: object) -> None:
        if self.enabled:
            self._draw(force=True)
            sys.stderr.write("\n")

    def update(self, n: int) -> None:
        self.done += n
        if self.enabled:
            self._draw()

    def _draw(self, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self._drawn < 0.2:
            return
        self._drawn = now
        rate = self.done / max(now - self._start, 1e-9)
        if self.total:
            share = min(self.done / self.total, 1.0)
            bar = "#" * int(30 * share)
            text = f"[{bar:<30}] {self.done}/{self.total} {self.unit} {rate:.0f}/s"
        else:
            text = f"{self.done} {self.unit} {rate:.0f}/s"
        sys.stderr.write("\r" + text)
        sys.stderr.flush()
