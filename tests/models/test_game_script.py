"""The scripted games behind the synthetic videos: a true record and a consistent board."""

from collections import Counter

from engine import Piece, Position
from models.videos import script_game
from models.videos.script import IRREGULARITIES, board_of


def test_script_is_deterministic_for_a_seed():
    a, b = script_game(5), script_game(5)
    assert a.shots == b.shots and a.events == b.events
    assert script_game(6).shots != a.shots


def test_last_still_board_is_the_true_final_position():
    for seed in range(8):
        script = script_game(seed, plies=16)
        assert script.shots[-1].board == board_of(script.game.position)


def test_every_settled_board_is_a_position_of_the_game_or_a_scripted_detour():
    """Between hands the board shows a game position, or a known pending/irregular state."""
    script = script_game(3, plies=20)
    boards = {frozenset(board_of(p).items()) for p in script.game.positions()}
    stills = [s.board for s in script.shots if not s.path]
    matched = sum(frozenset(b.items()) in boards for b in stills)
    assert matched >= len(stills) // 2


def test_all_kinds_of_irregularity_occur_across_seeds():
    seen = Counter()
    for seed in range(15):
        seen.update((e.kind, e.rule) for e in script_game(seed).events if e.kind not in ("move", "start"))
    kinds = {rule or kind for kind, rule in seen}
    assert {"missed capture", "illegal move", "wrong side", "takeback", "pieces"} <= kinds
    assert len(IRREGULARITIES) == 5


def test_truth_moves_replay_legally_from_the_start():
    script = script_game(11, plies=20)
    position = Position.start(script.rules)
    for ply in script.game.plies:
        if ply.is_irregular:
            position = ply.after
            continue
        assert ply.move in position.legal_moves(script.rules)
        position = position.play(ply.move)
    assert position == script.game.position
    assert all(isinstance(p, Piece) for p in position.pieces().values())
