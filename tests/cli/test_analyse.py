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


def test_one_position_as_a_fen_gives_its_score_best_move_and_line(tmp_path, capsys):
    import json

    assert main(["analyse", "W:W14,22:B18,30", "--depth", "6", "--json", "--tables", str(tmp_path)]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["best"] == "14x23" and found["line"][0] == "14x23"  # the capture is compulsory
    assert found["score"].startswith("win") and found["fen"] == "W:W14,22:B18,30"


def test_a_pdn_with_a_fen_and_no_moves_is_that_position(tmp_path, capsys):
    pdn = tmp_path / "problem.pdn"
    pdn.write_text('[GameType "31"]\n[SetUp "1"]\n[FEN "W:W14,22:B18,30"]\n\n*\n')
    assert main(["analyse", str(pdn), "--depth", "6", "--tables", str(tmp_path)]) == 0
    assert "best 14x23" in capsys.readouterr().out


def test_impossible_positions_are_refused_naming_what_is_impossible(tmp_path, capsys):
    for fen, says in (("B:W29,30,31,5:B1,2,3,24", "a dark man on 1, the row where it would have been crowned"),
                      ("B:W1,2,3,4,5,6,7,9,10:B25", "light has 9 pieces, more than the 8 men"),
                      ("W:W:B25", "light has no pieces")):
        assert main(["analyse", fen, "--depth", "2", "--tables", str(tmp_path)]) == 2
        assert says in capsys.readouterr().err
    assert main(["analyse", "no-such-game.pdn"]) == 2
    assert "neither a PDN file nor a FEN" in capsys.readouterr().err


def test_an_irregular_ply_to_an_impossible_board_does_not_stop_the_analysis(tmp_path, capsys):
    """With the endgame tables built, a man left uncrowned on its crowning row by an
    irregular ply (a board the tables hold no value for) aborted the whole run."""
    from makhos.engine.endgame_build import build
    from makhos.engine.rules import CapturedRemoval

    build(3, [CapturedRemoval.END_OF_TURN])[CapturedRemoval.END_OF_TURN].save(tmp_path)
    pdn = tmp_path / "irregular.pdn"
    pdn.write_text('[GameType "31"]\n[SetUp "1"]\n[FEN "B:W5:B10"]\n\n'
                   "1. 10-3 {irregular: dark man moved more than one square (10-3); FEN W:W5:B3} 5-9 *\n")
    assert main(["analyse", str(pdn), "--depth", "4", "--tables", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    irregular = next(line for line in printed.splitlines() if "10-3" in line)
    assert "a dark man on 3, the row where it would have been crowned" in irregular
    assert "without the endgame tables" in irregular
    assert any(line.split()[:2] == ["1...", "5-9"] for line in printed.splitlines())  # judged on
