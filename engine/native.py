"""Which engine runs: the hot path compiled by mypyc, or the same modules as Python source.

The package's build (``setup.py``) compiles :data:`COMPILED_MODULES` with mypyc into one
library named after a digest of the engine's sources, plus a small extension module for each
(``movegen.cpython-311-x86_64-linux-gnu.so`` beside ``movegen.py``), which Python's import
system prefers to the source. Importing the package calls :func:`choose` before any of them
is imported, and it makes the source win again, with an import hook for those names only,
when:

- ``MAKHOS_PURE_ENGINE`` is set (to anything but ``0``): the comparison of the two paths, or
  a suspicion about the compiled one;
- no library of the current sources' digest is there: nothing was compiled (no C compiler,
  or the build was told not to), or an editable install's sources changed since it was
  built, and a compiled copy of older sources must not answer for newer ones (a warning
  says so, since the engine is then several times slower).

Both paths are the same source, so they give the same answers (``tests/engine/test_native.py``
holds them to it); the compiled one is only faster. This module imports nothing of the
project: the build loads it by its path to name the library.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

#: The modules the build compiles: the move generator and what calls it in a loop.
COMPILED_MODULES = ("squares", "movegen", "tree", "perft")
#: Set to anything but ``0`` (or empty): run the Python source even where compiled modules are.
PURE_ENV = "MAKHOS_PURE_ENGINE"


def source_digest(folder: Path) -> str:
    """A digest of every module of the engine (compiled code also depends on the types of
    the modules it calls): the same sources, the same name, on any machine."""
    digest = hashlib.sha256()
    for path in sorted(folder.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def library_name(digest: str) -> str:
    """The module name (in the engine's package) of the compiled library of those sources."""
    return f"_compiled_{digest}"


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Finds the compiled modules' names as their ``.py`` files, ahead of the extensions."""

    def __init__(self, package: str, folder: Path) -> None:
        self.files = {f"{package}.{name}": folder / f"{name}.py" for name in COMPILED_MODULES}

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        file = self.files.get(fullname)
        return importlib.util.spec_from_file_location(fullname, file) if file is not None else None


def choose(package: str, folder: Path) -> bool:
    """Decide once, before the engine's modules are imported, whether the compiled ones run;
    True when they do."""
    forced = os.environ.get(PURE_ENV, "") not in ("", "0")
    if not forced:
        # Looked for beside the sources, not by import: an editable install's import hook
        # would answer for another copy of the package.
        try:
            library = f"{library_name(source_digest(folder))}__mypyc"
        except OSError:  # sources that cannot be read: the extensions are all there is
            return True
        if any((folder / f"{library}{suffix}").is_file() for suffix in importlib.machinery.EXTENSION_SUFFIXES):
            return True
        if any(folder.glob(f"{library_name('*')}__mypyc*")):
            warnings.warn("the compiled engine was built from other sources: running them as Python,"
                          " several times slower, until `pip install -e .` (or make) rebuilds it",
                          RuntimeWarning, stacklevel=2)
    sys.meta_path.insert(0, _SourceFinder(package, folder))
    return False
