"""Real whole games nobody rendered: `makhos record` on the time-ordered webcam photos of a
robot's games (``julie-robot-webcam``, ../shared/realdata, never in the repository), each
settled position labelled by hand (``bench/realgames.json``), made into a video with a hand
over the board between photos (``lab.realgames``). The robot did not play by Thai rules: its
irregular plies must stand in the record, each with its alert, and the game go on.

A game the product cannot follow yet is marked xfail (strict), with the first ply where it
goes wrong and why: the test turns red the moment it passes. Skipped where ../shared is
absent."""

from __future__ import annotations

from pathlib import Path

import pytest

from lab.realgames import RealGame, Score, games, game_video, referee_start, score
from makhos.cli.main import main
from makhos.engine.pdn import read_game
from makhos.events import JSONLinesLog

GAMES = {game.name: game for game in games()}
#: Where the product loses each game today, as seen on the frames (issue #42, items 1-4).
LOST = {
    "julie-log1": "ply 20: light's 3-8 out of turn is alerted but never stands; dark's reply "
                  "18-15 and light's 10x19x26 are swallowed with it into an 'irregular position "
                  "change' that also turns the dark king on 11 (a man never stacked) into a man",
    "julie-log2": "ply 2: light's reply to the alerted 19-15, the king's 30-26 (a king never "
                  "stacked, read as a man arriving), is swallowed with 19-15 into an 'irregular "
                  "position change' that turns both kings into men; from ply 4 the light king's "
                  "26x19x10 is 'a man leaving its diagonal' and the record stops at ply 2",
    "julie-log3": "ply 7: the dark king's 19-16 (19x6 was compulsory) is alerted, then dark's "
                  "32-27 out of turn and light's 20-24 are swallowed with it into an 'irregular "
                  "position change' that turns the king into a man; dark's 28-24 out of turn is "
                  "alerted but never stands and the record stops at ply 8",
    "julie-log4": "ply 9: light's 4-8 (5x14 was compulsory) is alerted but never stands: the "
                  "board also reads the dark king on 2 (a man never stacked) as a man and the "
                  "dark man on 22 as light; dark's 22-18 and light's 13x22 follow and the record "
                  "stops at ply 8",
    "julie-log8-dark-room": "ply 8: dark's 17-14 (3x14 was compulsory) is alerted, then light's "
                            "10x17 and light's 17-22 out of turn come, and the three plies are "
                            "recorded as one, 'light man left its diagonal, out of turn (10x22)': "
                            "every later ply is numbered two short; light's 5-9 out of turn, dark's "
                            "7-3 and 29x22 are then swallowed into an 'irregular position change' "
                            "that turns the dark king on 12 (a man never stacked) into a man",
    "julie-log7-board-moved": "ply 3: light's 14-17 (14x23 compulsory) is alerted but never "
                              "stands; dark's 27-23 (irregular too: 22x13 compulsory) and "
                              "light's 6-10 come between two photos, no story explains the "
                              "board and the record stops at ply 2",
}


def recorded(game: RealGame, folder: Path) -> Score:
    video = game_video(game, folder / f"{game.name}.mp4")
    log = referee_start(game, folder / f"{game.name}.jsonl")
    pdn = folder / f"{game.name}.pdn"
    assert main(["record", str(video), "--men", str(game.men), "--events", str(log), "--resume",
                 "-o", str(pdn)]) == 0
    positions = read_game(pdn.read_text(encoding="utf-8")).game.positions()
    return score(game, positions, JSONLinesLog(log).read(limit=1 << 30))


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
    result = recorded(GAMES[name], tmp_path)
    assert result.invented == 0 and result.shifted == 0, result.line()
    assert result.right == result.recorded == result.true, result.line()
    assert result.alerted == result.irregular, result.line()
