"""What ``pip install`` of a fresh clone puts into site-packages: the ``makhos`` namespace
and its data, and nothing of the lab (renderer, training, benches, tests)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _install(tmp_path_factory: pytest.TempPathFactory, **env: str) -> Path:
    """``pip install --target`` of a fresh clone (not editable: what a user's pip does)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs git and a git checkout")
    work = tmp_path_factory.mktemp("install")
    clone, target = work / "clone", work / "site-packages"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--target", str(target), str(clone)],
                   check=True, capture_output=True, timeout=600, env={**os.environ, **env})
    return target


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _install(tmp_path_factory)


def _engine_compiled(site: Path) -> str:
    """What ``makhos.engine.COMPILED`` says where only ``site`` provides ``makhos``."""
    code = "import makhos.engine as e; print(e.COMPILED)"
    result = subprocess.run([sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(site)!r}); {code}"],
                            capture_output=True, text=True, timeout=120, cwd=site.parent)
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout.strip()


def test_only_the_makhos_namespace_goes_into_site_packages(installed: Path) -> None:
    names = {p.name for p in installed.iterdir()} - {"bin"}
    assert "makhos" in names
    strays = {n for n in names if not n.startswith(("makhos", "makhos_cam-"))}
    assert not strays, f"installed beside makhos: {sorted(strays)}"


def test_the_package_carries_its_weights_pages_and_sample_but_no_lab(installed: Path) -> None:
    package = installed / "makhos"
    files = {p.relative_to(package).as_posix() for p in package.rglob("*") if p.is_file()}
    assert {"models/square_classifier.onnx", "models/sample/sample.mp4",
            "server/templates/board.html", "engine/position.py", "py.typed"} <= files
    lab_words = ("render", "training", "bench", "lab/", "tests/", "videos")
    assert not [f for f in files if any(word in f for word in lab_words)]


def test_the_installed_package_finds_its_model_outside_the_repository(installed: Path) -> None:
    code = ("import makhos.vision.classifier as c, makhos.models as m; "
            "print(c.DEFAULT_MODEL); print(m.path(m.SAMPLE_VIDEO).is_file())")
    result = subprocess.run([sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(installed)!r}); {code}"],
                            capture_output=True, text=True, timeout=120, cwd=installed.parent)
    assert result.returncode == 0, result.stderr[-2000:]
    model, sample = result.stdout.split()
    assert Path(model).is_relative_to(installed) and Path(model).is_file()
    assert sample == "True"


@pytest.mark.skipif(shutil.which(str(sysconfig.get_config_var("CC") or "cc").split()[0]) is None,
                    reason="no C compiler: the engine installs as Python only")
def test_the_engine_installs_compiled_where_the_machine_has_a_compiler(installed: Path) -> None:
    compiled = {p.name.split(".")[0] for p in (installed / "makhos" / "engine").glob("*.so")}
    assert {"squares", "movegen", "tree", "perft"} <= compiled
    assert _engine_compiled(installed) == "True"


def test_without_a_compiler_the_install_succeeds_and_the_engine_runs_as_python(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    installed = _install(tmp_path_factory, CC="/bin/false")
    assert not list((installed / "makhos" / "engine").glob("*.so"))
    assert _engine_compiled(installed) == "False"
