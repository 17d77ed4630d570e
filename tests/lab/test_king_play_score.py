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
