"""`makhos record --report`: the review report of a rendered game shows, ply by ply, the
camera's picture and the diagram of the PDN's position, the alerts and how they closed,
and the stretches in which the board was not read (issue 45)."""

from __future__ import annotations

from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

from makhos.cli.main import main
from makhos.engine.pdn import read_game
from makhos.server.diagram import letters
from lab.render import sample_scene
from lab.videos import script_game
from lab.videos.render import write_video
from lab.videos.script import FPS, Shot

#: A rendered game with one irregular ply taken back (sideways) and one that stood
#: (backwards), checked in lab.videos' script for this seed.
SEED = 3
#: Seconds a hand hovers over the board, so that it is not read.
HOVER = 4.0


@pytest.fixture(scope="module")
def clip(tmp_path_factory) -> Path:
    script = script_game(SEED, plies=8, irregularities=2, kinds=("sideways", "backwards"))
    board = script.shots[2].board  # after the first ply: a hand lingers before the reply
    wander = ((4.5, 9.2), (3.5, 5.5), (4.5, 3.5), (2.5, 4.5), (5.5, 5.5), (3.5, 9.2))
    hover = Shot(board, int(HOVER * FPS), wander, "dark", board)
    script = replace(script, shots=[*script.shots[:3], hover, *script.shots[3:]])
    scene = sample_scene(np.random.default_rng(SEED), held_out=True, elevation=(50.0, 80.0),
                         size=(640, 360))
    return write_video(script, scene, tmp_path_factory.mktemp("clip") / "game.mp4", seed=SEED)


class _Rows(HTMLParser):
    """The report's ply rows: each row's pictures' and diagrams' attributes, its text."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[dict[str, str]] = []
        self.unread: list[dict[str, str]] = []
        self.in_row = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {k: v or "" for k, v in attrs}
        if tag == "tr" and "data-ply" in found:
            self.rows.append(dict(found, text=""))
            self.in_row = True
        elif tag == "figure" and "unread" in found.get("class", ""):
            self.unread.append(found)
        elif self.in_row and tag in ("img", "svg"):
            self.rows[-1].update({k: v for k, v in found.items() if k.startswith("data-")})

    def handle_endtag(self, tag: str) -> None:
        self.in_row = self.in_row and tag != "tr"

    def handle_data(self, data: str) -> None:
        if self.in_row:
            self.rows[-1]["text"] += data


@pytest.fixture(scope="module")
def report(clip, tmp_path_factory) -> tuple[_Rows, str, Path]:
    folder = tmp_path_factory.mktemp("report")
    pdn, page = folder / "game.pdn", folder / "report.html"
    assert main(["record", "--source", str(clip), "-o", str(pdn), "--report", str(page)]) == 0
    rows = _Rows()
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
