"""`makhos record --report`: the review report of a rendered game shows, ply by ply, the
camera's picture and the diagram of the PDN's position, the alerts and how they closed,
and the stretches in which the board was not read (issue 45)."""

from __future__ import annotations

from pathlib import Path

import pytest

from makhos.cli.main import main
from makhos.engine.pdn import read_game
from makhos.server.diagram import letters

from report_rows import HOVER, Rows


@pytest.fixture(scope="module")
def report(clip, tmp_path_factory) -> tuple[Rows, str, Path]:
    folder = tmp_path_factory.mktemp("report")
    pdn, page = folder / "game.pdn", folder / "report.html"
    assert main(["record", "--source", str(clip), "-o", str(pdn), "--report", str(page)]) == 0
    rows = Rows()
    rows.feed(page.read_text(encoding="utf-8"))
    return rows, pdn.read_text(), page


def test_every_row_shows_the_pdn_position_in_picture_and_diagram(report):
    rows, pdn, page = report
    game = read_game(pdn).game
    assert [int(r["data-ply"]) for r in rows.rows] == list(range(1, len(game.plies) + 1))
    for row, ply in zip(rows.rows, game.plies):
        assert row["data-position"] == letters(ply.after)
        shown = game.plies[int(row["data-shows"]) - 1].after
        assert row["data-seen"] == letters(shown), f"ply {row['data-ply']}: the camera saw another board"
        assert (page.parent / "report_files" / f"ply-{int(row['data-ply']):03d}.jpg").is_file()


def test_the_report_shows_the_irregular_ply_the_correction_and_the_unread_stretch(report):
    rows, pdn, page = report
    marks = " ".join(r["text"] for r in rows.rows)
    assert "{irregular: " in marks and "{irregular: " in pdn
    assert "{corrected: " in marks and "{corrected: " in pdn
    assert "corrected: the board went back" in marks and "stood" in marks  # each alert's closing
    assert rows.unread, "the hand that hovered is not listed"
    assert any(float(u["data-end"]) - float(u["data-start"]) >= HOVER - 1.0 for u in rows.unread)
    assert (page.parent / "report_files" / "unread-01.jpg").is_file()
