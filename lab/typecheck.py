"""``python -m lab.typecheck``: mypy over the installed namespace, as ``makhos.*``, and the lab
(``lab``, ``bench``) that imports it, under the same strict settings.

The product's packages live in the repository's top-level folders and are mapped into
``makhos`` by ``[tool.setuptools.package-dir]``; an editable install finds them through an
import hook that mypy does not run. So the check builds the same mapping as a tree of
links under ``build/typecheck`` (from pyproject.toml, the one place it is written) and
checks ``makhos`` there, with the settings of ``[tool.mypy]``. The lab's folders are linked
beside it, so that they import the checked ``makhos``, not a second copy.
"""

from __future__ import annotations

import os
import shutil
import sys
import tomllib
from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parents[1]
TREE = ROOT / "build" / "typecheck"
LAB = ("lab", "bench")


def link_tree() -> Path:
    """``build/typecheck/makhos/...``: one link per package folder of the mapping."""
    mapping = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
    shutil.rmtree(TREE, ignore_errors=True)
    for package, folder in sorted(mapping.items()):
        target = TREE.joinpath(*package.split("."))
        target.parent.mkdir(parents=True, exist_ok=True)
        if package == "makhos":
            target.mkdir(exist_ok=True)
            for item in (ROOT / folder).iterdir():
                (target / item.name).symlink_to(item)
        else:
            target.symlink_to(ROOT / folder, target_is_directory=True)
    for folder in LAB:
        (TREE / folder).symlink_to(ROOT / folder, target_is_directory=True)
    return TREE


def main() -> int:
    # From inside the tree, so that ``makhos`` is the linked one, not the bare folder.
    os.chdir(link_tree())
    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), "-p", "makhos",
                                *(arg for folder in LAB for arg in ("-p", folder)), *sys.argv[1:]])
    sys.stdout.write(out)
    sys.stderr.write(err)
    return status


if __name__ == "__main__":
    sys.exit(main())
