"""The endgame tables live in the user's data folder, found from the environment alone: where
``make endgames`` writes them, the analysis reads them, from an editable install or a wheel."""

from __future__ import annotations

from pathlib import Path

import pytest

from makhos.engine import Position
from makhos.engine.endgame import TABLES_ENV, EndgameTable, tables_folder
from makhos.engine.endgame_build import main as build_tables
from makhos.engine.rules import CapturedRemoval


@pytest.fixture
def data_home(tmp_path, monkeypatch) -> Path:
    monkeypatch.delenv(TABLES_ENV, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data"


def test_the_tables_are_in_the_users_data_folder_not_beside_the_code(data_home):
    import makhos.engine

    assert tables_folder() == data_home / "makhos" / "endgames"
    assert Path(makhos.engine.__file__).parent not in tables_folder().parents


def test_without_xdg_data_home_the_folder_is_under_the_home_one(tmp_path, monkeypatch):
    monkeypatch.delenv(TABLES_ENV, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    for unset in ("", "relative/data"):  # the XDG base directories ignore a relative path
        monkeypatch.setenv("XDG_DATA_HOME", unset)
        assert tables_folder() == tmp_path / ".local" / "share" / "makhos" / "endgames"


def test_a_named_folder_comes_before_the_data_folder(data_home, tmp_path, monkeypatch):
    monkeypatch.setenv(TABLES_ENV, str(tmp_path / "mine"))
    assert tables_folder() == tmp_path / "mine"


def test_what_the_build_writes_by_default_the_analysis_reads(data_home, capsys):
    assert EndgameTable.load_if_built() is None
    assert build_tables(["--pieces", "2", "--removal", CapturedRemoval.END_OF_TURN.value]) == 0
    assert str(data_home / "makhos" / "endgames") in capsys.readouterr().out
    table = EndgameTable.load_if_built()
    assert table is not None
    # Dark to move with a king against a lone man it can take: a win in one ply.
    assert str(table.probe(Position.from_fen("B:W22:BK18"))) == "win in 1"
