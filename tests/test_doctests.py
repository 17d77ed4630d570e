"""The examples in the product's docstrings run as tests, imported as installed (``makhos.*``).

pytest's own ``--doctest-modules`` would import the top-level folders under their folder
names, a second copy of every module beside the ``makhos`` one."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import tomllib
from pathlib import Path

import pytest

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def _modules() -> list[str]:
    """Every module of the packages that pyproject.toml maps into ``makhos``."""
    packages = tomllib.loads(PYPROJECT.read_text())["tool"]["setuptools"]["packages"]
    names = set(packages)
    for package in packages:
        path = importlib.import_module(package).__path__
        names.update(info.name for info in pkgutil.iter_modules(path, package + "."))
    return sorted(name for name in names if not name.endswith("__main__"))


def _with_examples() -> list[str]:
    finder = doctest.DocTestFinder()
    return [name for name in _modules()
            if any(test.examples for test in finder.find(importlib.import_module(name)))]


@pytest.mark.parametrize("name", _with_examples())
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
