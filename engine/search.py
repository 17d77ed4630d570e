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
rules stay in one place.

>>> analysis = Searcher().search(Position.from_fen("B:W10,11:BK18,26"), Limits(depth=6))
>>> str(analysis.score), str(analysis.best)
('win in 5', '18x8')
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from .game import Game
from .move import Move
from .movegen import Effect, capture_effects, has_capture, legal_effects, play_effect
from .position import Position
from .rules import CapturedRemoval, Colour, Rules
from .squares import BIT, BOARD_MASK

#: The score of a win on the spot; a win in n plies scores ``MATE - n``.
MATE = 100_000
#: Scores beyond this are forced ends, not evaluations.
MATE_BOUND = MATE - 1_000
#: The deepest line the search follows (extensions included).
MAX_PLY = 400
#: "No count is running": more plies than any search can reach.
NO_COUNT = 1 << 20

_EXACT, _LOWER, _UPPER = 0, 1, 2
#: Late-move reductions: quiet moves from this index on are searched a ply shallower first
#: (two plies from the second index on), and again at full depth if they look good.
_LMR_FROM, _LMR_TWO_FROM = 2, 5
_INFINITY = MATE + 1
#: ``_Run.repeated`` when no repetition was met: beyond any index of the path.
_NO_REPEAT = 1 << 30


class EndgameProbe(Protocol):
    """What the search needs from an endgame table (:class:`engine.endgame.EndgameTable`)."""

    max_pieces: int

    def probe_sides(self, mine: int, theirs: int, kings: int, up: bool) -> int | None:
        """The stored value for the side to move (``up``: dark): 0 a draw, ``d + 1`` a win
        and ``-(d + 1)`` a loss in ``d`` plies; None beyond the table."""
        ...


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
class Evaluation:
    """The weights of the static evaluation, in hundredths of a man."""

    man: int = 100
    king: int = 260
    back_row: int = 12  # a man still on its own back row guards the crowning squares
    tempo: int = 3  # per row a man has advanced, more as the board empties (see evaluate)
    mobility: int = 3  # per plain move more than the opponent has


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


class _Stop(Exception):
    """A limit ran out in the middle of an iteration."""


Key = tuple[int, int, int, bool, int]  # mine, theirs, kings, up, plies the count allows
Board4 = tuple[int, int, int, bool]  # mine, theirs, kings, up: what repetition compares


@dataclass
class _Run:
    """Mutable bookkeeping of one search call (one root position)."""

    deadline: float | None
    node_limit: int | None
    reduce: bool = True  # late-move reductions (off when solving: they could hide a shorter win)
    probe: EndgameProbe | None = None
    nodes: int = 0
    guessed: int = 0  # positions judged by the evaluation (horizon leaves), for Analysis.exact
    #: The line from the game's last irreversible move to here; None marks a capture or a
    #: man move, after which nothing earlier can recur.
    path: list[Board4 | None] = field(default_factory=list)
    #: The lowest index of ``path`` that a repetition draw in the subtree being searched
    #: matched (:data:`_NO_REPEAT` when none did). A node whose subtree repeated a position
    #: above it (an ancestor, or the game's history) has a value that holds only on this
    #: line: it is not stored as a score (see :meth:`Searcher._pvs`).
    repeated: int = 0
    exclude: frozenset[Effect] = frozenset()  # root moves left out (Searcher.search's exclude)


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
    the history): its entries hold no score that rests on a repetition (see ``_pvs``), so
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
        self._immediate = self.rules.captured_removal is CapturedRemoval.IMMEDIATE
        # After a capture or a man move the count starts again (online rule) or stops (a claim).
        self._count_reset = NO_COUNT if self.rules.count_on_claim else 2 * self.rules.count_rule_moves
        self._tt: dict[Key, tuple[int, int, int, Effect | None]] = {}
        self._table_entries = table_entries
        self._keep_table = keep_table
        self._killers: list[list[Effect | None]] = []
        self._history: tuple[dict[Effect, int], dict[Effect, int]] = ({}, {})
        self._clear()
        self._run = _Run(None, None)
        #: Per phase (more than 8 pieces, 8 or fewer), per side (dark, light): the men's
        #: square values summed over each 9-bit slice of the bitboard (see _men_table).
        self._men_tables = (
            (_men_table(self.evaluation, Colour.DARK, 1), _men_table(self.evaluation, Colour.LIGHT, 1)),
            (_men_table(self.evaluation, Colour.DARK, 3), _men_table(self.evaluation, Colour.LIGHT, 3)),
        )

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
        self._run = run = _Run(deadline, limits.nodes, reduce=not solve, probe=probe)
        run.exclude = frozenset(effect_of(position, move) for move in exclude)
        run.path = list(_repeatable(history, position))
        self._clear()  # nothing of an earlier position steers this one (see the class)
        mine, theirs, up = _sides(position)
        kings = position.kings
        if not [e for e in legal_effects(mine, theirs, kings, up, self._immediate) if e not in run.exclude]:
            return Analysis(Score(-MATE), None, (), 0, 0, time.perf_counter() - started, True)

        max_depth = limits.depth if limits.depth is not None else MAX_PLY
        best: tuple[int, int, bool] | None = None  # score, depth, exact
        line: list[Effect] = []  # the principal variation of the last complete iteration
        for depth in range(1, max_depth + 1):
            guessed = run.guessed
            try:
                score = self._aspirated(mine, theirs, kings, up, depth, quiet_left, best[0] if best else 0)
            except _Stop:
                if best is None:  # not even depth 1: finish it whatever the limit says
                    run.deadline = run.node_limit = None
                    score = self._root(mine, theirs, kings, up, 1, -_INFINITY, _INFINITY, quiet_left)
                    best, line = (score, 1, False), self._line(mine, theirs, kings, up, quiet_left, 1)
                # Else the last complete iteration answers (#44), never the root's table entry:
                # a pass of the aspiration window that failed low stores the move with the
                # highest upper bound, which is no choice at all (a stopped search once answered
                # with such a move, which loses by force, and the score of another).
                break
            exact = run.guessed == guessed
            best = (score, depth, exact)
            line = self._line(mine, theirs, kings, up, quiet_left, depth)
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
        mobility = _plain_move_count(mine, theirs, position.kings, up)
        return self._evaluate(mine, theirs, position.kings, up, mobility)

    def _clear(self) -> None:
        """Forget every earlier search: transposition table (unless kept), killers, history."""
        if not self._keep_table or len(self._tt) > self._table_entries:
            self._tt.clear()
        self._killers = [[None, None] for _ in range(MAX_PLY + 1)]
        self._history = ({}, {})

    # ------------------------------------------------------------ the tree

    def _aspirated(self, mine: int, theirs: int, kings: int, up: bool, depth: int,
                   quiet_left: int, guess: int) -> int:
        """One iteration in a window around the last score, widened when the score falls out."""
        if depth < 3 or abs(guess) > MATE_BOUND:
            return self._root(mine, theirs, kings, up, depth, -_INFINITY, _INFINITY, quiet_left)
        margin = 40
        while margin <= 1_000:
            alpha, beta = guess - margin, guess + margin
            score = self._root(mine, theirs, kings, up, depth, alpha, beta, quiet_left)
            if alpha < score < beta:
                return score
            margin *= 4
        return self._root(mine, theirs, kings, up, depth, -_INFINITY, _INFINITY, quiet_left)

    def _root(self, mine: int, theirs: int, kings: int, up: bool, depth: int,
              alpha: int, beta: int, quiet_left: int) -> int:
        path = self._run.path
        size = len(path)  # the root goes on the path below it (in _pvs), once: a line back
        self._run.repeated = _NO_REPEAT  # to it is its own cycle, not a debt to the history
        try:
            return self._pvs(mine, theirs, kings, up, depth, alpha, beta, 0, quiet_left)
        finally:
            del path[size:]  # what a stopped iteration left on it, too

    def _pvs(self, mine: int, theirs: int, kings: int, up: bool, depth: int,
             alpha: int, beta: int, ply: int, quiet_left: int) -> int:
        """The negamax value of a position within (alpha, beta), from the side to move."""
        run = self._run
        run.nodes += 1
        if not run.nodes & 1023:
            self._check_limits()
        path = run.path
        if ply:
            probe = run.probe
            if probe is not None and (mine | theirs).bit_count() <= probe.max_pieces:
                found = probe.probe_sides(mine, theirs, kings, up)
                if found is not None:
                    return _table_score(found, ply)
        if ply and quiet_left <= 0:  # the count has run out: a draw, unless this side cannot move
            return 0 if legal_effects(mine, theirs, kings, up, self._immediate) else ply - MATE
        if depth <= 0 or ply >= MAX_PLY:
            return self._quiesce(mine, theirs, kings, up, alpha, beta, ply)

        moves = legal_effects(mine, theirs, kings, up, self._immediate)
        if not ply and run.exclude:
            moves = [effect for effect in moves if effect not in run.exclude]
        if not moves:
            return ply - MATE
        if ply and path[-1] is not None:
            # back where this side stood before on this line: the repetition's shuttle
            here = (mine, theirs, kings, up)
            if here in path:
                index = path.index(here)
                if index < run.repeated:
                    run.repeated = index
                return 0
        key = (mine, theirs, kings, up, quiet_left)

        entry = self._tt.get(key)
        tt_move: Effect | None = None
        if entry is not None:
            e_depth, e_flag, e_score, tt_move = entry
            if e_depth >= depth and ply:
                if e_score > MATE_BOUND:
                    e_score -= ply
                elif e_score < -MATE_BOUND:
                    e_score += ply
                if e_flag == _EXACT or (e_flag == _LOWER and e_score >= beta) or (
                    e_flag == _UPPER and e_score <= alpha
                ):
                    if e_depth < MAX_PLY:
                        run.guessed += 1  # the entry stands on evaluations this call does not see
                    return e_score

        capture = bool(moves[0][1])
        killers = self._killers[ply]
        if len(moves) > 1:
            if capture:
                moves.sort(key=_captured_count, reverse=True)
            else:
                hist = self._history[up]
                moves.sort(key=lambda e: hist.get(e, 0), reverse=True)
                for killer in (killers[1], killers[0]):
                    if killer is not None and killer in moves:
                        moves.remove(killer)
                        moves.insert(0, killer)
            if tt_move is not None and tt_move in moves:
                moves.remove(tt_move)
                moves.insert(0, tt_move)

        guessed_before = run.guessed
        # Only a line of king moves can come back to a position, so without kings nothing
        # below this node repeats one above it: the bookkeeping is skipped.
        track = kings != 0
        if track:
            repeated_before = run.repeated
            run.repeated = _NO_REPEAT
            own_index = len(path)  # where this node stands on the path below it
        original_alpha = alpha
        best_score = -_INFINITY
        best_move: Effect | None = None
        # A single legal reply (most captures) costs no depth: the line goes on as if unforced.
        next_depth = depth if len(moves) == 1 else depth - 1
        may_reduce = run.reduce and depth >= 3 and not capture
        count_reset = self._count_reset
        child_ply = ply + 1
        here = (mine, theirs, kings, up)
        other = not up
        search = self._pvs
        # No try/finally for the path: a search stopped by its limits starts the next afresh.
        for index, effect in enumerate(moves):
            moved, captured, toggle = effect
            if captured or not moved & kings:
                child_quiet = count_reset
                path.append(None)
            else:
                child_quiet = quiet_left - 1 if quiet_left < NO_COUNT else NO_COUNT
                path.append(here)
            m, t, k = mine ^ moved, theirs ^ captured, (kings & ~captured) ^ toggle
            if index == 0:
                score = -search(t, m, k, other, next_depth, -beta, -alpha, child_ply, child_quiet)
            else:
                reduce = 0
                if (may_reduce and index >= _LMR_FROM and effect != killers[0]
                        and effect != killers[1] and toggle in (0, moved)):
                    reduce = 2 if index >= _LMR_TWO_FROM and depth >= 6 else 1
                score = -search(t, m, k, other, next_depth - reduce, -alpha - 1, -alpha, child_ply, child_quiet)
                if score > alpha and (reduce or score < beta):
                    score = -search(t, m, k, other, next_depth, -beta, -alpha, child_ply, child_quiet)
            path.pop()
            if score > best_score:
                best_score, best_move = score, effect
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if not capture:
                            if killers[0] != effect:
                                killers[1], killers[0] = killers[0], effect
                            hist = self._history[up]
                            hist[effect] = hist.get(effect, 0) + depth * depth
                        break

        if best_score >= beta:
            flag = _LOWER
        elif best_score > original_alpha:
            flag = _EXACT
        else:
            flag = _UPPER
        stored = best_score
        if stored > MATE_BOUND:
            stored += ply
        elif stored < -MATE_BOUND:
            stored -= ply
        if track:
            repeated = run.repeated
            if repeated < repeated_before:
                run.repeated = repeated
            else:
                run.repeated = repeated_before
            if repeated < own_index:
                # The value rests on a draw by repeating a position above this node: it holds
                # on this line only (another path here, or another game history, may not
                # repeat). Keep the move for the ordering, never the score for a cut.
                self._tt[key] = (-1, flag, stored, best_move)
                return best_score
        # An entry whose subtree met no evaluation holds at any depth: it is the game's value.
        self._tt[key] = (MAX_PLY if run.guessed == guessed_before else depth, flag, stored, best_move)
        return best_score

    def _quiesce(self, mine: int, theirs: int, kings: int, up: bool,
                 alpha: int, beta: int, ply: int) -> int:
        """Past the horizon: play out the compulsory captures, then judge the quiet position."""
        run = self._run
        run.nodes += 1
        if not run.nodes & 1023:
            self._check_limits()
        probe = run.probe
        if probe is not None and ply and (mine | theirs).bit_count() <= probe.max_pieces:
            found = probe.probe_sides(mine, theirs, kings, up)
            if found is not None:
                return _table_score(found, ply)
        if not has_capture(mine, theirs, kings, up) or ply >= MAX_PLY:
            mobility = _plain_move_count(mine, theirs, kings, up)
            if not mobility:
                return ply - MATE  # no piece or no move: lost, and known for certain
            run.guessed += 1
            return self._evaluate(mine, theirs, kings, up, mobility)
        best = -_INFINITY
        moves = capture_effects(mine, theirs, kings, up, self._immediate)
        if len(moves) > 1:
            moves.sort(key=_captured_count, reverse=True)
        for effect in moves:
            m, t, k = play_effect(mine, theirs, kings, effect)
            score = -self._quiesce(t, m, k, not up, -beta, -alpha, ply + 1)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best

    def _evaluate(self, mine: int, theirs: int, kings: int, up: bool, mobility: int) -> int:
        """Material, kings, the back row, tempo and mobility, from the side to move
        (``mobility``: its number of plain moves)."""
        w = self.evaluation
        my_men, their_men = mine & ~kings, theirs & ~kings
        score = w.man * (my_men.bit_count() - their_men.bit_count()) + w.king * (
            (mine & kings).bit_count() - (theirs & kings).bit_count())
        tables = self._men_tables[(mine | theirs).bit_count() <= 8]
        mine_t, theirs_t = (tables[0], tables[1]) if up else (tables[1], tables[0])
        score += (mine_t[0][my_men & 511] + mine_t[1][(my_men >> 9) & 511]
                  + mine_t[2][(my_men >> 18) & 511] + mine_t[3][my_men >> 27])
        score -= (theirs_t[0][their_men & 511] + theirs_t[1][(their_men >> 9) & 511]
                  + theirs_t[2][(their_men >> 18) & 511] + theirs_t[3][their_men >> 27])
        their_mobility = _plain_move_count(theirs, mine, kings, not up)
        return score + w.mobility * (min(mobility, 20) - min(their_mobility, 20))

    def _check_limits(self) -> None:
        if len(self._tt) > self._table_entries:  # a long search: room for the rest of it
            self._tt.clear()
        run = self._run
        if run.node_limit is not None and run.nodes >= run.node_limit:
            raise _Stop
        if run.deadline is not None and time.perf_counter() >= run.deadline:
            raise _Stop

    # ------------------------------------------------------------ the answer

    def _line(self, mine: int, theirs: int, kings: int, up: bool, quiet_left: int,
              depth: int) -> list[Effect]:
        """The line the transposition table holds, until it ends or repeats: the principal
        variation, taken on the bitboards after each iteration (microseconds) because the
        next, if stopped, leaves the table holding its own lines."""
        line: list[Effect] = []
        seen: set[Board4] = set()
        while (here := (mine, theirs, kings, up)) not in seen and len(line) < depth + 20:
            seen.add(here)
            entry = self._tt.get((mine, theirs, kings, up, quiet_left))
            effect = entry[3] if entry else None
            if effect is None:  # past the stored line: a forced reply still belongs to it
                forced = legal_effects(mine, theirs, kings, up, self._immediate)
                if len(forced) != 1:
                    break
                effect = forced[0]
            line.append(effect)
            moved, captured, _ = effect
            if captured or not moved & kings:
                quiet_left = self._count_reset
            elif quiet_left < NO_COUNT:
                quiet_left -= 1
            theirs, mine, kings = play_effect(mine, theirs, kings, effect)
            up = not up
        return line

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


def _table_score(stored: int, ply: int) -> int:
    """A table's stored value (0 a draw, ``d + 1`` a win and ``-(d + 1)`` a loss in ``d``
    plies) as a search score ``ply`` plies from the root."""
    if stored > 0:
        return MATE - ply - (stored - 1)
    if stored < 0:
        return ply + (-stored - 1) - MATE
    return 0


def _captured_count(effect: Effect) -> int:
    return effect[1].bit_count()


def _plain_move_count(mine: int, theirs: int, kings: int, up: bool) -> int:
    """Plain moves of the side ``mine`` (men forward one square, kings any distance)."""
    empty = BOARD_MASK & ~(mine | theirs)
    men = mine & ~kings
    if up:
        count = ((men >> 4) & empty).bit_count() + ((men >> 5) & empty).bit_count()
    else:
        count = ((men << 4) & empty).bit_count() + ((men << 5) & empty).bit_count()
    my_kings = mine & kings
    if my_kings:
        for step in (4, 5):
            ray = (my_kings << step) & empty
            while ray:
                count += ray.bit_count()
                ray = (ray << step) & empty
            ray = (my_kings >> step) & empty
            while ray:
                count += ray.bit_count()
                ray = (ray >> step) & empty
    return count


MenTable = tuple[list[int], list[int], list[int], list[int]]


def _men_table(weights: Evaluation, colour: Colour, tempo_factor: int) -> MenTable:
    """What the men of one side are worth beyond their material, by where they stand.

    A man on its own back row guards the crowning squares (``back_row``); every row it has
    advanced adds ``tempo * tempo_factor``: early on (factor 1) a far-advanced man is as
    much a target as a threat, once the board thins out (factor 3) the nearer a man is to
    crowning the more it is worth. The values are summed per 9-bit slice of the ghost
    layout (two rows and a ghost bit), so a lookup per slice scores all the men at once.
    """
    value = [0] * 35
    for square in range(1, 33):
        row = (square - 1) // 4  # 0 is the far row, where dark crowns
        advanced = 7 - row if colour is Colour.DARK else row
        value[BIT[square].bit_length() - 1] = weights.tempo * tempo_factor * advanced + (
            weights.back_row if advanced == 0 else 0)
    slices: list[list[int]] = []
    for base in (0, 9, 18, 27):
        width = min(9, 35 - base)
        slices.append([sum(value[base + i] for i in range(width) if chunk >> i & 1) for chunk in range(1 << width)])
    return slices[0], slices[1], slices[2], slices[3]
