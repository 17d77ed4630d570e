"""A new user's first command, run in a fresh clone as the README gives it."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def readme_commands() -> list[str]:
    """The commands of the README's first code block (the two a new user runs)."""
    block = re.search(r"```\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)
    return [line.split("#")[0].strip() for line in block.group(1).splitlines() if line.strip()]


def test_readme_opens_with_the_set_up_and_demo_command_and_the_test_command():
    assert readme_commands() == ["make demo", "make test"]
    assert "make test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(),
                    reason="needs git and a git checkout")
def test_first_command_in_a_fresh_clone_records_the_sample_game(tmp_path):
    clone = tmp_path / "makhos-cam"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    command = readme_commands()[0].split() + ["DEMO_ARGS=--check --port 0"]
    result = subprocess.run(command, cwd=clone, capture_output=True, text=True, timeout=1500)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert "the same game" in result.stdout
