"""#35: a search that cannot go stale. One searcher used for a whole game (as the live
analysis and ``makhos analyse`` use it) answers exactly as a fresh searcher does.

The two games are those of the issue, where the searcher kept its killers, history and
transposition table between positions: in the first it played ``15. 25-22??`` (refuted
by ``18x25``), in the second ``17... 18-23??`` (refuted by ``27x18x9``); a fresh search
of the same position, history and budget plays neither.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from makhos.engine import CapturedRemoval, Position, Rules
from makhos.engine.game import Game
from makhos.engine.search import Analysis, GamePosition, Limits, Searcher

LOSS = ("1. 26-23 7-11 2. 25-22 8-12 3. 28-24 6-9 4. 24-19 2-6 5. 22-18 6-10 6. 18-15 11x18"
        " 7. 23x14x7 3x10 8. 27-24 9-14 9. 24-20 1-6 10. 20-16 4-8 11. 29-25 14-18 12. 31-27 6-9"
        " 13. 30-26 10-14 14. 19-15 12x19")
DRAW = ("1. 26-23 5-9 2. 25-21 8-11 3. 30-25 6-10 4. 21-17 9-14 5. 17-13 14-18 6. 23x14 10x17"
        " 7. 25-21 17-22 8. 27-23 11-16 9. 32-27 16-20 10. 28-24 7-10 11. 23-19 10-14 12. 13-9 1-6"
        " 13. 9-5 2-7 14. 5-1 14-18 15. 1x10 7x14 16. 19-16 4-8 17. 16-12")
#: The issue's match: immediate removal (the setting the outside engine plays).
RULES = Rules(captured_removal=CapturedRemoval.IMMEDIATE)


def _game(text: str) -> Game:
    game = Game(RULES)
    for token in text.split():
        if not token.endswith("."):
            game.play_text(token)
    return game


def _same(analysis: Analysis) -> Analysis:
    """An analysis without its wall time, the one field that may differ."""
    return replace(analysis, seconds=0.0)


@pytest.mark.parametrize("text, mover", [(LOSS, 0), (DRAW, 1)], ids=["loss", "draw"])
def test_one_searcher_for_the_whole_game_answers_as_fresh_ones(text, mover):
    """Every position of the game in order (the analyst's way), at a node budget: the
    reused searcher's answer equals a fresh one's in every field but the time."""
    game = _game(text)
    reused = Searcher(RULES)
    for index in range(len(game.plies) + 1):
        at = GamePosition.of(game, index)
        limits = Limits(nodes=4_000 if index % 2 != mover else 12_000)
        assert _same(reused.search_at(at, limits)) == _same(Searcher(RULES).search_at(at, limits)), index


@pytest.mark.parametrize("text, blunder", [(LOSS, "25-22"), (DRAW, "18-23")], ids=["loss", "draw"])
def test_the_blunders_of_the_issue_are_not_played(text, blunder):
    """At the issue's budget (160,000 nodes) after a game of earlier searches."""
    game = _game(text)
    reused = Searcher(RULES)
    for index in range(len(game.plies) % 2, len(game.plies), 2):  # the mover's earlier positions
        reused.search_at(GamePosition.of(game, index), Limits(nodes=2_000))
    at = GamePosition.of(game, len(game.plies))
    found = reused.search_at(at, Limits(nodes=160_000))
    assert str(found.best) != blunder
    assert _same(found) == _same(Searcher(RULES).search_at(at, Limits(nodes=160_000)))


def test_an_earlier_search_changes_nothing():
    """A searcher that solved an ending and searched a middle game with a history answers
    the next position as a new one: no kept score (mate distances, a repetition's draw)
    and no kept move order."""
    searcher = Searcher()
    searcher.search(Position.from_fen("B:W10,11:BK18,26"), Limits(depth=8))
    kings = Game(Rules(), start=Position.from_fen("B:WK1,K3:BK30,K32"))
    for text in ("30-26", "1-5", "26-30", "5-1"):
        kings.play_text(text)
    searcher.search_at(GamePosition.of(kings, 4), Limits(depth=6))
    for position in (Position.start(), Position.from_fen("B:WK1,K3:BK30,K32")):
        assert _same(searcher.search(position, Limits(depth=7))) == _same(Searcher().search(position, Limits(depth=7)))


def test_excluding_the_best_move_gives_the_next_best():
    """The margin the bench's agreement is judged by: of the king's two captures, 18x8
    is left out and 18x5 is the answer, scored lower."""
    position = Position.from_fen("B:W9,10,11:BK18,26")
    best = Searcher().search(position, Limits(depth=8))
    assert str(best.best) == "18x8"
    other = Searcher().search(position, Limits(depth=8), exclude=[best.best])
    assert other.best is not None and other.best != best.best and other.best in position.legal_moves()
    assert other.score.value < best.score.value
    everything = Searcher().search(position, Limits(depth=2), exclude=position.legal_moves())
    assert everything.best is None


def test_a_draw_by_the_games_history_is_not_stored_as_the_positions_score():
    """Dark shuttles a king back to where it stood: with the game's history, moving back
    is a draw on this line only, so the root's table entry keeps its move but no score;
    searched without that history, nothing above the root can recur and the entry holds."""
    game = Game(Rules(), Position.from_fen("B:WK1:BK32,K28"))
    for text in ("32-27", "1-5", "27-32", "5-1"):
        game.play_text(text)
    at = GamePosition.of(game, len(game.plies))
    root = (at.position.dark, at.position.light, at.position.kings, True, 1 << 20)
    with_history = Searcher()
    with_history.search_at(at, Limits(depth=4))
    assert with_history._tree.tt[root][0] == -1 and with_history._tree.tt[root][3] is not None
    alone = Searcher()
    alone.search(at.position, Limits(depth=4))
    assert alone._tree.tt[root][0] >= 1  # a score later visits of the position may cut on


def test_keep_table_keeps_the_table_and_nothing_else():
    searcher = Searcher(keep_table=True)
    searcher.search(Position.start(), Limits(depth=5))
    kept = len(searcher._tree.tt)
    assert kept > 0
    after = Position.start().play(Position.start().legal_moves()[0])
    searcher.search(after, Limits(depth=1))
    assert len(searcher._tree.tt) >= kept
    assert searcher._tree.killers[3] == [None, None]  # the depth-5 search's killers are gone
