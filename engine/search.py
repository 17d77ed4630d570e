"""A game-tree search for commentators: the score, the best move and the line behind it.

Iterative deepening over a principal-variation search (alpha-beta with null windows) with a
transposition table keyed on the bitboards, move ordering by the table's move, two killers
per ply and a history table, late-move reductions for quiet moves far down the list, and a
quiescence search that never stops on a position with a capture: captures are compulsory,
so such a position has no static value (the side to move must take).

Scores are from the side to move, in hundredths of a man. A forced end found by the search
(or read from the endgame table) is ``MATE - plies`` for a win and its negative for a loss;
:class:`Score` turns both into words. Draws by the rules are 0: a position that recurs on
the line since the last capture or man move (the repetition rule's shuttle: whoever wants
the draw repeats once more), and the count rule when it is running.

The search plays on :mod:`engine.movegen`'s bitboards directly (an :data:`~engine.movegen.Effect`
per move) and turns moves back into :class:`~engine.move.Move` only for the answer, so the
rules stay in one place. The tree itself (the recursive search, its tables and the
evaluation) is :mod:`engine.tree`, the part the build compiles; this module drives it.

>>> analysis = Searcher().search(Position.from_fen("B:W10,11:BK18,26"), Limits(depth=6))
>>> str(analysis.score), str(analysis.best)
('win in 5', '18x8')
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from .game import Game
from .move import Move
from .movegen import Effect, legal_effects
from .position import Position
from .rules import CapturedRemoval, Colour, Rules
from .squares import BIT
from .tree import INFINITY, MAX_PLY, NO_COUNT, Board4, Run, Stop, Tree, plain_move_count
# The scores' bounds and the evaluation's weights are the search's words too (re-exported).
from .tree import MATE as MATE, MATE_BOUND as MATE_BOUND
from .tree import EndgameProbe as EndgameProbe, Evaluation as Evaluation


@dataclass(frozen=True, slots=True)
class Score:
    """A score from the side to move: hundredths of a man, or a forced end.

    >>> str(Score(135)), str(Score(-40)), str(Score(MATE - 7)), str(Score(-(MATE - 6)))
    ('+1.35', '-0.40', 'win in 7', 'loss in 6')
    """

    value: int

    @property
    def is_forced(self) -> bool:
        """A forced end (win or loss in a known number of plies), not an evaluation."""
        return abs(self.value) > MATE_BOUND

    @property
    def plies_to_end(self) -> int | None:
        """Plies to the end of the game with best play, for a forced end."""
        return MATE - abs(self.value) if self.is_forced else None

    def negated(self) -> "Score":
        """The same score from the other side."""
        return Score(-self.value)

    def for_dark(self, turn: Colour) -> "Score":
        """The score from dark's side, given who is to move."""
        return self if turn is Colour.DARK else self.negated()

    def __str__(self) -> str:
        if self.is_forced:
            return f"{'win' if self.value > 0 else 'loss'} in {self.plies_to_end}"
        return f"{self.value / 100:+.2f}"


@dataclass(frozen=True, slots=True)
class Limits:
    """When to stop: any limit that is set ends the search; none set searches to the end.

    ``depth`` counts plies of the main search (captures and single replies are extended
    beyond it); ``seconds`` is wall time and ``nodes`` a budget of visited positions, a
    load-independent stand-in for time. The last complete iteration gives the answer.
    """

    depth: int | None = None
    seconds: float | None = None
    nodes: int | None = None



@dataclass(frozen=True, slots=True)
class Analysis:
    """What the search found from one position."""

    score: Score  # from the side to move
    best: Move | None  # None when the side to move has no move (the game is over)
    pv: tuple[Move, ...]  # the principal variation, ``best`` first
    depth: int  # the deepest complete iteration
    nodes: int
    seconds: float
    exact: bool  # no position on the way was judged by the evaluation: the score is the game's value



class Searcher:
    """Searches positions under one rule set.

    ``table`` is an endgame table, probed whenever few enough pieces stand and no count is
    running (the table knows no count). The transposition table holds at most
    ``table_entries`` positions; it is cleared when it grows beyond that.

    **Every call starts from nothing** (#35): the transposition table, the killers and the
    history table are emptied at the start of :meth:`search`, so an analysis is a function
    of its arguments alone (the position, its history and count, the limits) and one
    searcher used for a whole game answers as fresh ones do. They used to be kept between
    calls for a warm start, and that made the search go stale: the killers and history of
    the last position reorder the moves of the next, and late-move reductions search the
    moves late in the order shallower, so the kept tables decided which refutations were
    seen. In the game of #35 (light, ``17... 18-23??``) the kept tables put the refutation
    ``9-6``, five plies down, among the reduced moves; the reused search scored 18-23
    +1.24 where it loses two men, and a fresh one plays 8-11. Entries of the transposition
    table carry the same tree shape (their values came from the last position's ordering
    and reductions), so they go as well: a warm start is worth about a ply at most, and an
    answer that depends on what was searched before cannot be cached, compared or
    reproduced (the server caches analyses by :class:`GamePosition`).

    ``keep_table=True`` keeps the transposition table between calls (never the killers or
    the history): its entries hold no score that rests on a repetition (see ``Tree._pvs``), so
    what it adds is what a deeper search of those positions found; answers then differ from
    a fresh search's where that depth matters. At equal nodes that warm start is worth
    strength in a game (docs/analysis.md, "Figures (#35)").
    """

    def __init__(
        self,
        rules: Rules | None = None,
        *,
        table: EndgameProbe | None = None,
        evaluation: Evaluation | None = None,
        table_entries: int = 2_000_000,
        keep_table: bool = False,
    ) -> None:
        self.rules = rules or Rules()
        self.table = table
        self.evaluation = evaluation or Evaluation()
        # After a capture or a man move the count starts again (online rule) or stops (a claim).
        self._count_reset = NO_COUNT if self.rules.count_on_claim else 2 * self.rules.count_rule_moves
        self._tree = Tree(self.rules.captured_removal is CapturedRemoval.IMMEDIATE, self._count_reset,
                          self.evaluation, table_entries, keep_table)

    # ------------------------------------------------------------ public

    def search(
        self,
        position: Position,
        limits: Limits | None = None,
        *,
        history: Sequence[Position] = (),
        count_left: int | None = None,
        exclude: Sequence[Move] = (),
    ) -> Analysis:
        """Search ``position`` within ``limits``.

        ``history`` lists earlier positions of the game (oldest first) so that a move back
        into one of them scores as the draw by repetition it leads to; ``count_left`` is the
        number of plies the running count rule still allows (:func:`count_plies_left`).
        With no limit at all the search goes on until its score is the game's value.
        ``exclude`` leaves moves of ``position`` out of the search: the best of the others
        and its score, for the margin of the best move (how far ahead it stands: an "only
        move", or noise between near-equal ones). None left: the answer of a lost position.
        """
        limits = limits or Limits()
        started = time.perf_counter()
        deadline = started + limits.seconds if limits.seconds is not None else None
        solve = limits.depth is None and limits.seconds is None and limits.nodes is None
        if count_left is None:  # the online rule's count runs from the start; a claim's does not
            count_left = None if self.rules.count_on_claim else self._count_reset
        quiet_left = NO_COUNT if count_left is None else count_left
        probe = self.table if quiet_left >= NO_COUNT and self._count_reset >= NO_COUNT else None
        tree = self._tree
        tree.run = run = Run(deadline, limits.nodes, reduce=not solve, probe=probe)
        run.exclude = frozenset(effect_of(position, move) for move in exclude)
        run.path = list(_repeatable(history, position))
        tree.clear()  # nothing of an earlier position steers this one (see the class)
        mine, theirs, up = _sides(position)
        kings = position.kings
        if not [e for e in legal_effects(mine, theirs, kings, up, tree.immediate) if e not in run.exclude]:
            return Analysis(Score(-MATE), None, (), 0, 0, time.perf_counter() - started, True)

        max_depth = limits.depth if limits.depth is not None else MAX_PLY
        best: tuple[int, int, bool] | None = None  # score, depth, exact
        line: list[Effect] = []  # the principal variation of the last complete iteration
        for depth in range(1, max_depth + 1):
            guessed = run.guessed
            try:
                score = tree.aspirated(mine, theirs, kings, up, depth, quiet_left, best[0] if best else 0)
            except Stop:
                if best is None:  # not even depth 1: finish it whatever the limit says
                    run.deadline = run.node_limit = None
                    score = tree.root(mine, theirs, kings, up, 1, -INFINITY, INFINITY, quiet_left)
                    best, line = (score, 1, False), tree.line(mine, theirs, kings, up, quiet_left, 1)
                # Else the last complete iteration answers (#44), never the root's table entry:
                # a pass of the aspiration window that failed low stores the move with the
                # highest upper bound, which is no choice at all (a stopped search once answered
                # with such a move, which loses by force, and the score of another).
                break
            exact = run.guessed == guessed
            best = (score, depth, exact)
            line = tree.line(mine, theirs, kings, up, quiet_left, depth)
            if exact:
                break  # the tree ended everywhere: deeper shows nothing new
            if abs(score) > MATE_BOUND and depth >= MATE - abs(score):
                break  # every line as long as the forced end was searched: none is shorter
        assert best is not None
        score, depth, exact = best
        pv = self._moves(position, line)
        return Analysis(Score(score), pv[0] if pv else None, pv, depth, run.nodes,
                        time.perf_counter() - started, exact or abs(score) > MATE_BOUND)

    def analyse_game_position(self, game: Game, index: int, limits: Limits) -> Analysis:
        """Search the position before ply ``index`` of ``game`` (``len(game.plies)``: the last)
        with the game's history and count."""
        return self.search_at(GamePosition.of(game, index), limits)

    def search_at(self, at: "GamePosition", limits: Limits) -> Analysis:
        """Search a position of a game (:meth:`GamePosition.of`) with its history and count."""
        if at.drawn:
            return Analysis(Score(0), None, (), 0, 0, 0.0, True)  # the rules have drawn it
        return self.search(at.position, limits, history=at.history, count_left=at.count_left)

    def evaluate(self, position: Position) -> int:
        """The static evaluation of a position, from the side to move, ignoring captures."""
        mine, theirs, up = _sides(position)
        mobility = plain_move_count(mine, theirs, position.kings, up)
        return self._tree.evaluate(mine, theirs, position.kings, up, mobility)

    def _moves(self, position: Position, line: list[Effect]) -> tuple[Move, ...]:
        """A line of effects from ``position`` as moves."""
        moves: list[Move] = []
        for effect in line:
            move = move_of_effect(position, effect, self.rules)
            if move is None:
                break
            moves.append(move)
            position = position.play(move)
        return tuple(moves)


@dataclass(frozen=True, slots=True)
class GamePosition:
    """A position of a game with everything else its search depends on: the earlier
    positions it could repeat (those since the last capture or man move), the plies the
    count rule still allows, and whether the rules have drawn the game there.

    Two game positions are equal exactly when their searches are the same, whatever the
    games before them: a cache of analyses is keyed on this (with the rules).

    >>> game = Game()
    >>> _ = game.play_text("25-21")
    >>> at = GamePosition.of(game, 1)
    >>> at.position == game.position, at.history, at.drawn
    (True, (), False)
    """

    position: Position
    history: tuple[Position, ...]
    count_left: int | None
    drawn: bool

    @classmethod
    def of(cls, game: Game, index: int) -> "GamePosition":
        """The position before ply ``index`` of ``game`` (``len(game.plies)``: the last)."""
        if not 0 <= index <= len(game.plies):
            raise IndexError(f"a game of {len(game.plies)} plies has no position {index}")
        positions = game.positions()[: index + 1]
        drawn = index == len(game.plies) and (
            game.repetitions() >= game.rules.repetition_threshold or game.count_remaining() == 0)
        return cls(positions[-1], tuple(_reversible_tail(positions[:-1], positions[-1])),
                   count_plies_left(game, index), drawn)


# ---------------------------------------------------------------- helpers


def count_plies_left(game: Game, index: int | None = None) -> int | None:
    """Plies the count rule still allows before ply ``index`` (default: now), or None.

    The online rule (``count_on_claim=False``) draws after ``2 * count_rule_moves`` plies
    without a capture or a man move; a claimed count draws once the claimant has made his
    remaining moves.
    """
    if index is None:
        index = len(game.plies)
    if index == len(game.plies):
        remaining = game.count_remaining()
        if remaining is None:
            return None
        claimant = game.count_claimant
        if claimant is not None:
            return 2 * remaining - (1 if game.position.turn is claimant else 0)
    if game.rules.count_on_claim:
        return None  # a claim is known for the game as it stands, not for earlier positions
    quiet = 0
    for ply in reversed(game.plies[:index]):
        if ply.resets_count:
            break
        quiet += 1
    return max(2 * game.rules.count_rule_moves - quiet, 0)


def effect_of(position: Position, move: Move) -> Effect:
    """The :data:`~engine.movegen.Effect` of a legal move of ``position``."""
    src, dst = BIT[move.start], BIT[move.end]
    captured = 0
    for square in move.captured:
        captured |= BIT[square]
    if position.kings & src:
        toggle = src ^ dst
    else:
        toggle = dst if move.crowns else 0
    return src ^ dst, captured, toggle


def move_of_effect(position: Position, effect: Effect, rules: Rules | None = None) -> Move | None:
    """The first legal move of ``position`` (in :meth:`Position.legal_moves` order) that makes
    ``effect``, or None."""
    for move in position.legal_moves(rules):
        if effect_of(position, move) == effect:
            return move
    return None


def _sides(position: Position) -> tuple[int, int, bool]:
    if position.turn is Colour.DARK:
        return position.dark, position.light, True
    return position.light, position.dark, False


def _reversible_tail(history: Sequence[Position], position: Position) -> list[Position]:
    """The earlier positions of the game that a later one could repeat: those since the last
    capture or man move (each changes the men or the number of pieces for good)."""
    def irreversible(before: Position, after: Position) -> bool:
        return (before.dark & ~before.kings, before.light & ~before.kings,
                (before.dark | before.light).bit_count()) != (
            after.dark & ~after.kings, after.light & ~after.kings, (after.dark | after.light).bit_count())

    tail: list[Position] = []
    later = position
    for earlier in reversed(history):
        if irreversible(earlier, later):
            break
        tail.append(earlier)
        later = earlier
    tail.reverse()
    return tail


def _repeatable(history: Sequence[Position], position: Position) -> list[Board4]:
    """The repeatable earlier positions (:func:`_reversible_tail`) as the search compares them."""
    boards: list[Board4] = []
    for earlier in _reversible_tail(history, position):
        mine, theirs, up = _sides(earlier)
        boards.append((mine, theirs, earlier.kings, up))
    return boards
