"""What the review report tests share: the rendered clip they record (an irregular ply taken
back, one that stood, a hand hovering long enough not to be read) and a reader of the
report's rows (issue 45)."""

from __future__ import annotations

from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path

import numpy as np

from lab.render import sample_scene
from lab.videos import script_game
from lab.videos.render import write_video
from lab.videos.script import FPS, Shot

#: A rendered game with one irregular ply taken back (sideways) and one that stood
#: (backwards), checked in lab.videos' script for this seed.
SEED = 3
#: Seconds a hand hovers over the board, so that it is not read.
HOVER = 4.0


def render_clip(folder: Path) -> Path:
    """The clip, written in ``folder``."""
    script = script_game(SEED, plies=8, irregularities=2, kinds=("sideways", "backwards"))
    board = script.shots[2].board  # after the first ply: a hand lingers before the reply
    wander = ((4.5, 9.2), (3.5, 5.5), (4.5, 3.5), (2.5, 4.5), (5.5, 5.5), (3.5, 9.2))
    hover = Shot(board, int(HOVER * FPS), wander, "dark", board)
    script = replace(script, shots=[*script.shots[:3], hover, *script.shots[3:]])
    scene = sample_scene(np.random.default_rng(SEED), held_out=True, elevation=(50.0, 80.0),
                         size=(640, 360))
    return write_video(script, scene, folder / "game.mp4", seed=SEED)


class Rows(HTMLParser):
    """The report's ply rows: each row's pictures' and diagrams' attributes (an image's
    address as ``src``), its text."""

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
            self.rows[-1].update({k: v for k, v in found.items() if k.startswith("data-") or k == "src"})

    def handle_endtag(self, tag: str) -> None:
        self.in_row = self.in_row and tag != "tr"

    def handle_data(self, data: str) -> None:
        if self.in_row:
            self.rows[-1]["text"] += data
