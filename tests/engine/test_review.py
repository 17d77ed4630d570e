"""A game's review: what a move costs against the best one, and what is never charged."""

from __future__ import annotations

from makhos.engine import Position
from makhos.engine.analysis import NOISE, PlyReview
from makhos.engine.search import Analysis, Score

START = Position.from_fen("B:W1,2,3,4,5,6,7,8:B25,26,27,28,29,30,31,32")
BEST, OTHER = START.legal_moves()[:2]


def _review(played, before: int, after: int) -> PlyReview:
    analysis = Analysis(Score(before), BEST, (BEST,), 6, 1_000, 0.1, False)
    return PlyReview(0, played, analysis, Score(after), irregular=False)


def test_the_best_move_itself_is_never_charged_nor_marked():
    # The "1. 22-17 cost 0.12 (best 22-17)": the position after the best move, searched
    # on its own, came back lower than the search before it said. A deeper look, not a cost.
    for after in (-12, -60, -400):
        found = _review(BEST, 0, after)
        assert found.cost == 0 and found.mark == "" and ", best" not in found.comment()


def test_a_cost_under_the_search_noise_is_not_charged():
    assert _review(OTHER, 0, -(NOISE - 1)).cost == 0
    assert _review(OTHER, 0, -NOISE).cost == NOISE  # from the noise up, the whole cost counts
    blunder = _review(OTHER, 0, -200)
    assert blunder.cost == 200 and blunder.mark == "??" and f"best {BEST}" in blunder.comment()
