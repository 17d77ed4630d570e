"""The build's one step beyond ``pyproject.toml``: the engine's hot path compiled by mypyc.

The modules of ``engine.native.COMPILED_MODULES`` (the move generator, the search's tree,
perft) are strictly typed Python; mypyc (from the ``mypy`` package that the build requires)
turns them into C, and the C compiler of the machine builds that into extension modules
beside their sources. mypyc names modules by their folders, and the repository keeps
``makhos.engine`` in ``engine/``, so the sources are copied first into
``build/mypyc/makhos/engine``. The library is named after a digest of the sources
(``engine.native``), so a compiled copy of older sources is never taken for newer ones.

Nothing here may fail the install: where mypyc is missing or fails, or the machine has no C
compiler or Python headers, the extensions are left out (each is ``optional``) and the
package runs the same modules as Python. ``MAKHOS_PURE_ENGINE=1`` at build time compiles
nothing.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from pathlib import Path
from types import ModuleType

from setuptools import Extension, setup

ROOT = Path(__file__).resolve().parent
STAGE = Path("build", "mypyc")


def native() -> ModuleType:
    """``engine/native.py`` loaded by its path (the package is not installed yet)."""
    spec = importlib.util.spec_from_file_location("_makhos_engine_native", ROOT / "engine" / "native.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compiled_engine() -> list[Extension]:
    """The extensions of the compiled engine, or none (with the reason on stderr)."""
    chosen = native()
    if os.environ.get(chosen.PURE_ENV, "") not in ("", "0"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError as error:
        print(f"makhos: no mypyc ({error}); the engine stays pure Python", file=sys.stderr)
        return []
    os.chdir(ROOT)  # mypyc names modules and writes its C by paths relative to here
    engine = ROOT / "engine"
    digest = chosen.source_digest(engine)
    staged = STAGE / "makhos" / "engine"
    shutil.rmtree(STAGE, ignore_errors=True)
    staged.mkdir(parents=True)
    (staged.parent / "__init__.py").write_text("")
    for source in engine.glob("*.py"):
        shutil.copyfile(source, staged / source.name)
    # A library of other sources left by an earlier in-place build: never load it again.
    for old in engine.glob(f"{chosen.library_name('*')}__mypyc.*"):
        old.unlink()
    paths = [str(staged / f"{name}.py") for name in chosen.COMPILED_MODULES]
    try:
        extensions: list[Extension] = mypycify(
            paths, opt_level="3", target_dir=str(STAGE / "c"),
            separate=[(paths, f"makhos.engine.{chosen.library_name(digest)}")])
    except (Exception, SystemExit) as error:  # mypy's errors exit
        print(f"makhos: mypyc failed ({error!r}); the engine stays pure Python", file=sys.stderr)
        return []
    for extension in extensions:
        extension.optional = True  # no compiler or headers: a warning, and the .py files run
    return extensions


setup(ext_modules=compiled_engine())
