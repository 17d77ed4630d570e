"""The ply-by-ply score of a recorded game (lab.videos.kings.score_plies), as issue #42
counts it: right and in place, irregular plies standing, none invented, none shifted."""

from makhos.engine.game import Game

from lab.videos.kings import score_plies


def true_game() -> Game:
    game = Game()
    for _ in range(4):
        game.play(game.legal_moves()[0])
    return game


def test_a_game_recorded_as_played_is_perfect():
    truth = true_game()
    score = score_plies(truth, truth)
    assert score.perfect and score.right == score.plies == 4


def test_plies_swallowed_by_one_change_shift_every_ply_after_it():
    truth = true_game()
    recorded = Game()
    recorded.play_irregular(truth.plies[1].after, "irregular position change")  # two plies as one
    recorded.play(truth.plies[2].move)
    recorded.play(truth.plies[3].move)
    score = score_plies(truth, recorded)
    assert (score.right, score.shifted, score.invented) == (0, 3, 0) and not score.perfect


def test_a_ply_nobody_played_is_invented():
    truth = true_game()
    recorded = Game()
    for ply in truth.plies[:3]:
        recorded.play(ply.move)
    other = next(m for m in recorded.legal_moves() if m != truth.plies[3].move)
    recorded.play(other)
    score = score_plies(truth, recorded)
    assert (score.right, score.invented, score.shifted) == (3, 1, 0)


#: Kingplay 70117 as recorded before its arm's plies were glimpsed: dark's two plies under the
#: arm in the wrong order, the line said unconfirmed in the PDN.
RECORDED_70117 = """[GameType "31"]
[SetUp "1"]
[FEN "B:W1,K2,K3,K4,5,6,7,8:B25,26,27,28,K29,K30,K31,32"]
[Rules "setup=three-kings"]

1. 27-24 7-10 2. 26-23 5-9 3. 24-19 {after a gap of 10 s, unconfirmed} 9-14
{after a gap of 10 s, unconfirmed} 4. 31-27 {after a gap of 10 s, unconfirmed}
2-16 {after a gap of 10 s, unconfirmed} 5. 19x12 6-9 *
"""


def test_plies_out_of_place_that_the_record_said_unconfirmed_are_counted_apart_and_still_wrong():
    from makhos.engine import Rules, Setup
    from makhos.engine.pdn import read_game

    from lab.videos.kings import said_unconfirmed

    recorded = read_game(RECORDED_70117).game
    truth = Game(Rules(setup=Setup.THREE_KINGS), recorded.start)
    for text in "27-24 7-10 26-23 5-9 31-27 9-14 24-19 2-16 19x12 6-9".split():
        truth.play_text(text)
    assert said_unconfirmed(RECORDED_70117) == {4, 5, 6, 7}
    score = score_plies(truth, recorded, said_unconfirmed(RECORDED_70117))
    assert (score.right, score.invented, score.shifted, score.unconfirmed) == (8, 2, 0, 2)
    assert not score.perfect
    assert score_plies(truth, recorded).unconfirmed == 0  # nothing said: nothing counted apart
