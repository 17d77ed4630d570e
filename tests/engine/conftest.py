"""The engine as Python source, loaded beside the installed one: what runs where nothing
was compiled, for the tests that compare the two paths or patch a function of the move
generator (a compiled module calls its own functions directly, whatever is patched)."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

import makhos.engine

#: The alias the source copy is imported under: its modules are ``makhos_pure_engine.*``.
PURE = "makhos_pure_engine"


def _load_pure_engine() -> ModuleType:
    if PURE in sys.modules:
        return sys.modules[PURE]
    folder = Path(makhos.engine.__file__).parent
    spec = importlib.util.spec_from_file_location(PURE, folder / "__init__.py",
                                                  submodule_search_locations=[str(folder)])
    assert spec is not None and spec.loader is not None
    package = importlib.util.module_from_spec(spec)
    sys.modules[PURE] = package
    # The package's own switch (engine.native) sends the alias's compiled names to source.
    before = os.environ.get("MAKHOS_PURE_ENGINE")
    os.environ["MAKHOS_PURE_ENGINE"] = "1"
    try:
        spec.loader.exec_module(package)
    finally:
        if before is None:
            del os.environ["MAKHOS_PURE_ENGINE"]
        else:
            os.environ["MAKHOS_PURE_ENGINE"] = before
    assert not package.COMPILED
    return package


@pytest.fixture(scope="session")
def pure_engine() -> ModuleType:
    """The engine package run from its ``.py`` files (``pure_engine.movegen``, ``.search``...)."""
    engine = _load_pure_engine()
    for name in ("movegen", "perft", "position", "search", "tree", "squares"):
        importlib.import_module(f"{PURE}.{name}")
    return engine
