"""What the README promises a new user: the first commands in a fresh clone, its links,
commands and benchmarks."""

import re
import shutil
import subprocess
import sys
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


def readme() -> str:
    return (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_readme_is_an_entry_point_not_a_notebook():
    assert len(readme().splitlines()) <= 150


@pytest.mark.parametrize("page", ["README.md"] + sorted(
    str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md")))
def test_every_link_of_the_readme_and_the_docs_leads_somewhere(page):
    text = (ROOT / page).read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text)
    missing = [link for link in links if not link.startswith(("http://", "https://"))
               and not (ROOT / page).parent.joinpath(link).exists()]
    assert missing == [] and (links or page != "README.md"), page


def commands_of_the_table() -> list[str]:
    return re.findall(r"^\| `makhos (\w+)", readme(), re.M)


def test_every_command_the_readme_names_exists_and_explains_itself(capsys):
    from makhos.cli.main import main

    names = commands_of_the_table()
    assert {"demo", "run", "calibrate", "record", "read", "serve", "worker", "perft"} <= set(names)
    for name in names:
        with pytest.raises(SystemExit) as done:
            main([name, "--help"])
        assert done.value.code == 0, name
        assert "usage: makhos " + name in capsys.readouterr().out


def benchmarks_named() -> list[str]:
    """The benchmarks the README and the docs tell a reader to run."""
    text = readme() + "".join(p.read_text(encoding="utf-8") for p in (ROOT / "docs").glob("*.md"))
    return sorted(set(re.findall(r"python -m (bench\.\w+)", text)))


def test_every_benchmark_named_starts_in_the_demo_environment():
    """Each parses its options, so every import it makes at start is there without extras
    (the train extra is the only one, and the README says make model installs it)."""
    benches = benchmarks_named()
    assert len(benches) >= 8
    for bench in benches:
        result = subprocess.run([sys.executable, "-m", bench, "--help"], cwd=ROOT, capture_output=True,
                                text=True, timeout=120)
        assert result.returncode == 0 and "usage" in result.stdout, bench + result.stderr[-1500:]


def test_the_held_out_boards_the_classifier_bench_renders_need_no_training_extra():
    from lab.training.dataset import TEST, build

    data = build(range(1), TEST, workers=1, progress=True)
    assert len(data["cls"]) == 32 * TEST.positions_per_scene


def test_the_sample_game_shows_what_the_readme_says_to_look_at(tmp_path):
    """Moves as the hand leaves, an irregularity closed when the board is put right, and a
    late crowning: what `make demo` tells a new user to watch for."""
    from makhos.cli.main import main
    from makhos.events import GameEvent
    from makhos.events.details import AlertEnding, AlertClosed, EventKind

    events_file = tmp_path / "sample.jsonl"
    assert main(["record", "--source", str(ROOT / "models" / "sample" / "sample.mp4"), "-o",
                 str(tmp_path / "sample.pdn"), "--events", str(events_file)]) == 0
    events = [GameEvent.from_json(line) for line in events_file.read_text().splitlines()]
    kinds = [e.kind for e in events]
    assert kinds.count(EventKind.MOVE) >= 10 and EventKind.CROWNING_PENDING in kinds
    opened = kinds.index(EventKind.IRREGULARITY)
    assert any(isinstance(e.detail, AlertClosed) and e.detail.how is AlertEnding.CORRECTED
               for e in events[opened:])
