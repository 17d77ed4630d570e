"""The rendered clip of the review report's tests, made once for all of them."""

from __future__ import annotations

from pathlib import Path

import pytest

from report_rows import render_clip


@pytest.fixture(scope="session")
def clip(tmp_path_factory) -> Path:
    return render_clip(tmp_path_factory.mktemp("clip"))
