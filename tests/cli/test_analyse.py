"""`makhos analyse GAME.pdn`: every move scored, the blunder marked, the PDN written back."""

from __future__ import annotations

from pathlib import Path

from makhos.cli.main import main
from makhos.engine.pdn import read_game

#: The bundled sample: dark's 5. 23-19 hands light the double capture 15x24x31.
SAMPLE = Path(__file__).resolve().parents[2] / "models" / "sample" / "sample.pdn"


def test_analyse_marks_the_blunder_and_writes_a_pdn_that_reads_back(tmp_path, capsys):
    out = tmp_path / "annotated.pdn"
    assert main(["analyse", str(SAMPLE), "--depth", "5", "--out", str(out), "--tables", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    lines = {line.split()[1]: line for line in printed.splitlines() if line.strip()[:1].isdigit()}
    assert "23-19??" in lines and "best" in lines["23-19??"]
    assert "costliest moves:" in printed and printed.split("costliest moves:")[1].split()[1] == "23-19??"
    text = out.read_text()
    assert "23-19??" in text and "{+2.3" not in text.split("23-19??")[0]
    original = read_game(SAMPLE.read_text()).game
    again = read_game(text).game
    assert [p.move for p in again.plies] == [p.move for p in original.plies]


def test_analyse_refuses_bad_input(tmp_path, capsys):
    bad = tmp_path / "bad.pdn"
    bad.write_text('[GameType "31"]\n1. 22-17 *\n')  # not a legal first move for dark
    assert main(["analyse", str(bad), "--depth", "2"]) == 2
    assert "error" in capsys.readouterr().err
    assert main(["analyse", str(SAMPLE), "--game", "2", "--depth", "2"]) == 2
