"""The product's packages import downwards only, as docs/architecture.md draws them, and
never the lab."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: The floors of docs/architecture.md's picture.
FLOORS = {"engine": 0, "models": 0, "vision": 1, "events": 1, "calibration": 2, "tracker": 2,
          "server": 2, "session": 3, "worker": 4, "cli": 5}
ABSOLUTE = re.compile(r"^\s*(?:from|import)\s+(makhos\.\w+|lab|bench|tests)\b", re.M)
RELATIVE = re.compile(r"^\s*from\s+\.\.(\w*)\s+import\s+([\w, ]+)", re.M)


def imports_of(package: str) -> set[str]:
    found: set[str] = set()
    for path in (ROOT / package).rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        found |= {m.split(".")[-1] if m.startswith("makhos.") else m for m in ABSOLUTE.findall(text)}
        for parent, names in RELATIVE.findall(text):
            found |= {parent} if parent else {n.strip() for n in names.split(",")}
    return found - {package}


def test_every_import_goes_down_a_floor() -> None:
    upward = {(package, other) for package, floor in FLOORS.items() for other in imports_of(package)
              if other in FLOORS and FLOORS[other] >= floor}
    assert not upward, f"imports that do not go down: {sorted(upward)}"


def test_the_product_never_imports_the_lab() -> None:
    assert not {(p, o) for p in FLOORS for o in imports_of(p) if o in ("lab", "bench", "tests")}


def test_the_picture_names_every_package() -> None:
    drawn = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    mapped = set(re.findall(r'^"makhos\.(\w+)" = ', (ROOT / "pyproject.toml").read_text(), re.M))
    assert mapped == set(FLOORS)
    for package, floor in FLOORS.items():
        assert re.search(rf"floor {floor} .*\b{package}\b", drawn), package
