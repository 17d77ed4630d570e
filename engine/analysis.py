"""A game reviewed move by move: what each move cost against the best one, and the blunders.

Every position of the game is searched once; a move's cost is the score of the best move
minus the score of the move played, both from the mover's side (the latter is the next
position's score, negated). Scores are clipped at ten men so that a forced end counts as
a large but finite swing: a won game thrown into a draw costs ten men, which is a blunder.

The two scores come from two searches, so they disagree a little even when the best move
was played (the second looks one ply further down the line): the best move itself is never
charged, and a cost under :data:`NOISE` is not a cost: ``python -m bench.search reuse``
measures that noise (how far a score moves when the budget doubles, docs/analysis.md).

A board no game reaches, left by an irregular ply (a man on the row where it would have
been crowned), is searched as it stands but without the endgame tables, which hold no value
for it; the review says so at the ply that left it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .game import Game
from .move import Move
from .sanity import impossibility
from .search import Analysis, Limits, Score, Searcher

#: What a forced end counts for when costs are compared, in hundredths of a man.
CLIP = 1_000
#: A move that costs this much or more is a mistake (``?``) or a blunder (``??``).
MISTAKE, BLUNDER = 50, 150
#: Two searches of one line differ by this much without any move being worse: above the
#: 0.15 men that 9 in 10 scores move by when the search's budget doubles.
NOISE = 20


@dataclass(frozen=True, slots=True)
class PlyReview:
    """One ply of a game against the search's view of it."""

    index: int  # the ply's place in the game, from 0
    played: Move | None  # None for an irregular change no move describes
    before: Analysis  # the position the move was played in, from the mover's side
    after: Score  # the move's own value from the mover's side
    irregular: bool
    note: str = ""  # what the record should know of the board it left (an impossible one)

    @property
    def cost(self) -> int:
        """How much worse the move played is than the best, in hundredths of a man (>= 0);
        0 for the best move itself and under the search's :data:`NOISE`."""
        if self.irregular or self.before.best is None or self.played == self.before.best:
            return 0
        cost = _clipped(self.before.score) - _clipped(self.after)
        return cost if cost >= NOISE else 0

    @property
    def mark(self) -> str:
        """``??`` for a blunder, ``?`` for a mistake, else nothing."""
        if self.cost >= BLUNDER:
            return "??"
        if self.cost >= MISTAKE:
            return "?"
        return ""

    def comment(self) -> str:
        """The comment a PDN carries after the move: its score, and the best move if it was not."""
        text = str(self.after)
        best = self.before.best
        if best is not None and self.mark:
            text += f", best {best} ({self.before.score})"
        return text


def review(game: Game, searcher: Searcher, limits: Limits,
           progress: Callable[[int, int], None] | None = None) -> list[PlyReview]:
    """Search every position of ``game`` and compare each move with the best."""
    analyses = []
    total = len(game.plies) + 1
    positions = [game.start] + [ply.after for ply in game.plies]
    impossible = [impossibility(position, game.rules) for position in positions]
    bare = searcher  # for the impossible boards: the same search without the tables
    if searcher.table is not None and any(impossible):
        bare = Searcher(searcher.rules, evaluation=searcher.evaluation)
    for index in range(total):
        by = searcher if impossible[index] is None else bare
        analyses.append(by.analyse_game_position(game, index, limits))
        if progress:
            progress(index + 1, total)
    reviews = []
    for index, ply in enumerate(game.plies):
        after = analyses[index + 1].score
        # After an irregular ply the same side may be to move again: keep the mover's side.
        mover_after = after if ply.after.turn is ply.mover else after.negated()
        why = impossible[index + 1]
        note = "" if why is None or why == impossible[index] else (
            f"the board after it is impossible, {why}: searched without the endgame tables")
        reviews.append(PlyReview(index, ply.move, analyses[index], mover_after, ply.is_irregular, note))
    return reviews


def _clipped(score: Score) -> int:
    return max(-CLIP, min(CLIP, score.value))
