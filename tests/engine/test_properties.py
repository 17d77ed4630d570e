"""Properties over random games (hypothesis): referee, PDN and robustness."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from makhos.engine import CapturedRemoval, Colour, Piece, Position, Rules
from makhos.engine.game import Game
from makhos.engine.pdn import read_game, write_game
from makhos.engine.changes import Verdict, explain

RULE_SETS = st.sampled_from([
    Rules(),
    Rules(captured_removal=CapturedRemoval.IMMEDIATE),
    Rules(men_per_side=12),
])


def random_game(seed: int, rules: Rules, plies: int) -> Game:
    rng = random.Random(seed)
    game = Game(rules)
    while len(game.plies) < plies and game.result() is None:
        game.play(rng.choice(game.legal_moves()))
    return game


positions = st.builds(
    lambda cells, dark_to_move: Position.from_pieces(
        {square: piece for square, piece in enumerate(cells, start=1) if piece is not None},
        Colour.DARK if dark_to_move else Colour.LIGHT,
    ),
    st.lists(st.sampled_from([None, None, None, *Piece]), min_size=32, max_size=32),
    st.booleans(),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), rules=RULE_SETS, plies=st.integers(0, 80))
def test_referee_explains_every_legal_move_as_that_move(seed, rules, plies):
    game = random_game(seed, rules, plies)
    before = game.position
    for move in game.legal_moves():
        verdict = explain(before, before.play(move), rules, earlier=game.positions()[:-1])
        assert verdict.verdict in (Verdict.MOVE, Verdict.AMBIGUOUS)
        assert (move,) in verdict.candidates


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), rules=RULE_SETS, plies=st.integers(0, 120),
       short=st.booleans())
def test_pdn_write_then_read_gives_the_same_game(seed, rules, plies, short):
    game = random_game(seed, rules, plies)
    again = read_game(write_game(game, {"White": "ก \"x\"", "Black": "ข"}, short=short))
    assert again.game.positions() == game.positions()
    assert again.game.result() == game.result()
    assert again.tags["White"] == "ก \"x\""


@settings(max_examples=200, deadline=None)
@given(before=positions, after=positions)
def test_referee_never_raises_on_random_position_pairs(before, after):
    verdict = explain(before, after)
    assert verdict.reason
    if verdict.verdict is Verdict.MOVE:
        assert verdict.move in before.legal_moves()


@settings(max_examples=200, deadline=None)
@given(position=positions)
def test_fen_round_trips_for_any_position(position):
    assert Position.from_fen(position.fen()) == position
