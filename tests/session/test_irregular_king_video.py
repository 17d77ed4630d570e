"""Irregular king play on video: `makhos record` writes every ply right (issue #42).

Each game is filmed as the lost real game was (:func:`lab.videos.kings.king_play`): kings
stacked low and seen side-on at 35 degrees at 480x270, so the reader takes them for men,
through a wobbling, noisy, compressed camera with hands between the boards and
cross-fades; a king makes an irregular ply (a plain move while a capture was compulsory,
a chain stopped after its first jump) and the opponent replies. The score must hold every
ply in its place, the irregular one standing, nothing invented or shifted.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lab.videos.kings import king_play, recorded_game, score_plies
from lab.videos.render import write_video

#: (seed, plies): the first short game of each kind of bench.kingplay's draw.
GAMES = {"plain king move while a capture was due": (70018, 6),
         "king chain stopped after its first jump": (70008, 6)}


@pytest.mark.parametrize("game", GAMES.values(), ids=list(GAMES))
def test_irregular_king_play_is_recorded_every_ply_right(game: tuple[int, int], tmp_path: Path) -> None:
    seed, plies = game
    script, scene, nuisances = king_play(seed, plies)
    video = write_video(script, scene, tmp_path / "kings.mp4", seed=seed, nuisances=nuisances)
    assert script.game is not None and any(p.is_irregular for p in script.game.plies)
    recorded = recorded_game(video, script.rules)
    assert recorded is not None, "no game found"
    score = score_plies(script.game, recorded)
    assert score.perfect, score
