"""Real whole games nobody rendered: `makhos record` on the time-ordered webcam photos of a
robot's games (``julie-robot-webcam``, ../shared/realdata, never in the repository), each
settled position labelled by hand (``bench/realgames.json``), made into a video with a hand
over the board between photos (``lab.realgames``). The robot did not play by Thai rules: its
irregular plies must stand in the record, each with its alert, and the game go on.

A game the product cannot follow yet is marked xfail (strict), with the first ply where it
goes wrong and why: the test turns red the moment it passes. Skipped where ../shared is
absent."""

from __future__ import annotations

import pytest

from lab.realgames import cut_video, game_video, games, record

GAMES = {game.name: game for game in games()}
#: Where the product loses each game today, as seen on the frames (issue #42, items 1-4).
LOST: dict[str, str] = {}


def _case(name: str) -> object:
    game = GAMES[name]
    marks = [pytest.mark.skipif(not game.present, reason="../shared/realdata is not here")]
    if LOST.get(name):
        marks.append(pytest.mark.xfail(strict=True, raises=AssertionError, reason=LOST[name]))
    return pytest.param(name, marks=marks, id=name)


def test_the_hand_labels_are_games_of_one_ply_a_step():
    """Each labelled step is one ply of the game from the one before (legal or not): one
    side's pieces moved, and only the other side's pieces were taken."""
    for game in GAMES.values():
        truth = game.positions()
        for before, after in zip(truth, truth[1:]):
            gone = {s: p for s, p in before.pieces.items() if after.pieces.get(s) != p}
            came = {s: p for s, p in after.pieces.items() if before.pieces.get(s) != p}
            assert len(came) == 1, f"{game.name}: {before.photo} -> {after.photo}: {came}"
            [mover] = {p.colour for p in came.values()}
            assert sum(p.colour is mover for p in gone.values()) == 1, f"{game.name}: {after.photo}"


@pytest.mark.parametrize("name", [_case(name) for name in GAMES])
def test_record_follows_a_real_game_every_ply_with_its_alerts(tmp_path, name):
    code, result = record(GAMES[name], tmp_path)
    assert code == 0
    assert result.invented == 0 and result.shifted == 0, result.line()
    assert result.right == result.recorded == result.true, result.line()
    assert result.alerted == result.irregular, result.line()


@pytest.mark.skipif(not GAMES["julie-log2"].present, reason="../shared/realdata is not here")
@pytest.mark.parametrize("turns", [0, 1])
def test_a_real_game_filmed_in_two_files_is_recorded_whole(tmp_path, turns):
    """The camera's next file (its clock at 0 again; turned a quarter where the camera was
    set up again on another side of the table) is taken up with ``--resume`` after the
    first: the two make the one game, no ply twice, none lost, no alert more."""
    game = GAMES["julie-log2"]
    (tmp_path / "whole").mkdir()
    _, whole = record(game, tmp_path / "whole")
    parts = cut_video(game_video(game, tmp_path / "game.mp4"), 0.55, turns)
    code, result = record(game, tmp_path, parts)
    assert code == 0
    assert result == whole, f"{result.line()} against the one file's {whole.line()}"
    assert result.right == result.true and result.invented == 0, result.line()
