"""The tree under a search: the principal-variation search, the quiescence search and the
static evaluation, on :mod:`engine.movegen`'s bitboards (:class:`engine.search.Searcher`
drives it and turns its answer into moves).

This module and the move generator are the engine's hot path: the package's build compiles
them with mypyc where it can (``setup.py``), and the same source runs as plain Python where
it cannot (:mod:`engine.native`). So everything here is strictly typed plain code on ints,
tuples, lists and dicts, with no state outside a :class:`Tree`: mypyc turns it into C
calls and unboxed integers, and the two paths give the same answers node for node.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Final, Protocol

from .movegen import Effect, capture_effects, has_capture, legal_effects, play_effect
from .rules import Colour
from .squares import BIT, BOARD_MASK

#: The score of a win on the spot; a win in n plies scores ``MATE - n``.
MATE: Final = 100_000
#: Scores beyond this are forced ends, not evaluations.
MATE_BOUND: Final = MATE - 1_000
#: The deepest line the search follows (extensions included).
MAX_PLY: Final = 400
#: "No count is running": more plies than any search can reach.
NO_COUNT: Final = 1 << 20

_EXACT: Final = 0
_LOWER: Final = 1
_UPPER: Final = 2
#: Late-move reductions: quiet moves from this index on are searched a ply shallower first
#: (two plies from the second index on), and again at full depth if they look good.
_LMR_FROM: Final = 2
_LMR_TWO_FROM: Final = 5
#: Beyond any score: the widest window.
INFINITY: Final = MATE + 1
#: ``Run.repeated`` when no repetition was met: beyond any index of the path.
_NO_REPEAT: Final = 1 << 30


class EndgameProbe(Protocol):
    """What the search needs from an endgame table (:class:`engine.endgame.EndgameTable`)."""

    max_pieces: int

    def probe_sides(self, mine: int, theirs: int, kings: int, up: bool) -> int | None:
        """The stored value for the side to move (``up``: dark): 0 a draw, ``d + 1`` a win
        and ``-(d + 1)`` a loss in ``d`` plies; None beyond the table."""
        ...


@dataclass(frozen=True, slots=True)
class Evaluation:
    """The weights of the static evaluation, in hundredths of a man."""

    man: int = 100
    king: int = 260
    back_row: int = 12  # a man still on its own back row guards the crowning squares
    tempo: int = 3  # per row a man has advanced, more as the board empties (see evaluate)
    mobility: int = 3  # per plain move more than the opponent has


class Stop(Exception):
    """A limit ran out in the middle of an iteration."""


Key = tuple[int, int, int, bool, int]  # mine, theirs, kings, up, plies the count allows
Board4 = tuple[int, int, int, bool]  # mine, theirs, kings, up: what repetition compares


@dataclass
class Run:
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
    #: line: it is not stored as a score (see :meth:`Tree._pvs`).
    repeated: int = 0
    exclude: frozenset[Effect] = frozenset()  # root moves left out (Searcher.search's exclude)


class Tree:
    """The search's tables and the recursive search over them, for one rule set.

    :class:`engine.search.Searcher` owns one, clears it for every call (its docstring says
    why) and reads the principal variation from ``tt`` after each iteration.
    """

    def __init__(self, immediate: bool, count_reset: int, evaluation: Evaluation,
                 table_entries: int, keep_table: bool) -> None:
        self.immediate = immediate
        #: What the count becomes after a capture or a man move (NO_COUNT: it stops).
        self.count_reset = count_reset
        self.evaluation = evaluation
        self.tt: dict[Key, tuple[int, int, int, Effect | None]] = {}
        self.table_entries = table_entries
        self.keep_table = keep_table
        self.killers: list[list[Effect | None]] = []
        self.history: tuple[dict[Effect, int], dict[Effect, int]] = ({}, {})
        self.clear()
        self.run = Run(None, None)
        #: Per phase (more than 8 pieces, 8 or fewer), per side (dark, light): the men's
        #: square values summed over each 9-bit slice of the bitboard (see _men_table).
        self.men_tables = (
            (_men_table(evaluation, Colour.DARK, 1), _men_table(evaluation, Colour.LIGHT, 1)),
            (_men_table(evaluation, Colour.DARK, 3), _men_table(evaluation, Colour.LIGHT, 3)),
        )

    def clear(self) -> None:
        """Forget every earlier search: transposition table (unless kept), killers, history."""
        if not self.keep_table or len(self.tt) > self.table_entries:
            self.tt.clear()
        self.killers = [[None, None] for _ in range(MAX_PLY + 1)]
        self.history = ({}, {})

    # ------------------------------------------------------------ the tree

    def aspirated(self, mine: int, theirs: int, kings: int, up: bool, depth: int,
                  quiet_left: int, guess: int) -> int:
        """One iteration in a window around the last score, widened when the score falls out."""
        if depth < 3 or abs(guess) > MATE_BOUND:
            return self.root(mine, theirs, kings, up, depth, -INFINITY, INFINITY, quiet_left)
        margin = 40
        while margin <= 1_000:
            alpha, beta = guess - margin, guess + margin
            score = self.root(mine, theirs, kings, up, depth, alpha, beta, quiet_left)
            if alpha < score < beta:
                return score
            margin *= 4
        return self.root(mine, theirs, kings, up, depth, -INFINITY, INFINITY, quiet_left)

    def root(self, mine: int, theirs: int, kings: int, up: bool, depth: int,
             alpha: int, beta: int, quiet_left: int) -> int:
        path = self.run.path
        size = len(path)  # the root goes on the path below it (in _pvs), once: a line back
        self.run.repeated = _NO_REPEAT  # to it is its own cycle, not a debt to the history
        try:
            return self._pvs(mine, theirs, kings, up, depth, alpha, beta, 0, quiet_left)
        finally:
            del path[size:]  # what a stopped iteration left on it, too

    def _pvs(self, mine: int, theirs: int, kings: int, up: bool, depth: int,
             alpha: int, beta: int, ply: int, quiet_left: int) -> int:
        """The negamax value of a position within (alpha, beta), from the side to move."""
        run = self.run
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
            return 0 if legal_effects(mine, theirs, kings, up, self.immediate) else ply - MATE
        if depth <= 0 or ply >= MAX_PLY:
            return self._quiesce(mine, theirs, kings, up, alpha, beta, ply)

        moves = legal_effects(mine, theirs, kings, up, self.immediate)
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

        entry = self.tt.get(key)
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
        killers = self.killers[ply]
        if len(moves) > 1:
            if capture:
                moves.sort(key=_captured_count, reverse=True)
            else:
                hist = self.history[up]
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
        best_score = -INFINITY
        best_move: Effect | None = None
        # A single legal reply (most captures) costs no depth: the line goes on as if unforced.
        next_depth = depth if len(moves) == 1 else depth - 1
        may_reduce = run.reduce and depth >= 3 and not capture
        count_reset = self.count_reset
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
                            hist = self.history[up]
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
                self.tt[key] = (-1, flag, stored, best_move)
                return best_score
        # An entry whose subtree met no evaluation holds at any depth: it is the game's value.
        self.tt[key] = (MAX_PLY if run.guessed == guessed_before else depth, flag, stored, best_move)
        return best_score

    def _quiesce(self, mine: int, theirs: int, kings: int, up: bool,
                 alpha: int, beta: int, ply: int) -> int:
        """Past the horizon: play out the compulsory captures, then judge the quiet position."""
        run = self.run
        run.nodes += 1
        if not run.nodes & 1023:
            self._check_limits()
        probe = run.probe
        if probe is not None and ply and (mine | theirs).bit_count() <= probe.max_pieces:
            found = probe.probe_sides(mine, theirs, kings, up)
            if found is not None:
                return _table_score(found, ply)
        if not has_capture(mine, theirs, kings, up) or ply >= MAX_PLY:
            mobility = plain_move_count(mine, theirs, kings, up)
            if not mobility:
                return ply - MATE  # no piece or no move: lost, and known for certain
            run.guessed += 1
            return self.evaluate(mine, theirs, kings, up, mobility)
        best = -INFINITY
        moves = capture_effects(mine, theirs, kings, up, self.immediate)
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

    def evaluate(self, mine: int, theirs: int, kings: int, up: bool, mobility: int) -> int:
        """Material, kings, the back row, tempo and mobility, from the side to move
        (``mobility``: its number of plain moves)."""
        w = self.evaluation
        my_men, their_men = mine & ~kings, theirs & ~kings
        score = w.man * (my_men.bit_count() - their_men.bit_count()) + w.king * (
            (mine & kings).bit_count() - (theirs & kings).bit_count())
        tables = self.men_tables[(mine | theirs).bit_count() <= 8]
        mine_t, theirs_t = (tables[0], tables[1]) if up else (tables[1], tables[0])
        score += (mine_t[0][my_men & 511] + mine_t[1][(my_men >> 9) & 511]
                  + mine_t[2][(my_men >> 18) & 511] + mine_t[3][my_men >> 27])
        score -= (theirs_t[0][their_men & 511] + theirs_t[1][(their_men >> 9) & 511]
                  + theirs_t[2][(their_men >> 18) & 511] + theirs_t[3][their_men >> 27])
        their_mobility = plain_move_count(theirs, mine, kings, not up)
        return score + w.mobility * (min(mobility, 20) - min(their_mobility, 20))

    def _check_limits(self) -> None:
        if len(self.tt) > self.table_entries:  # a long search: room for the rest of it
            self.tt.clear()
        run = self.run
        if run.node_limit is not None and run.nodes >= run.node_limit:
            raise Stop
        if run.deadline is not None and time.perf_counter() >= run.deadline:
            raise Stop

    # ------------------------------------------------------------ the answer

    def line(self, mine: int, theirs: int, kings: int, up: bool, quiet_left: int,
             depth: int) -> list[Effect]:
        """The line the transposition table holds, until it ends or repeats: the principal
        variation, taken on the bitboards after each iteration (microseconds) because the
        next, if stopped, leaves the table holding its own lines."""
        line: list[Effect] = []
        seen: set[Board4] = set()
        while (here := (mine, theirs, kings, up)) not in seen and len(line) < depth + 20:
            seen.add(here)
            entry = self.tt.get((mine, theirs, kings, up, quiet_left))
            effect = entry[3] if entry else None
            if effect is None:  # past the stored line: a forced reply still belongs to it
                forced = legal_effects(mine, theirs, kings, up, self.immediate)
                if len(forced) != 1:
                    break
                effect = forced[0]
            line.append(effect)
            moved, captured, _ = effect
            if captured or not moved & kings:
                quiet_left = self.count_reset
            elif quiet_left < NO_COUNT:
                quiet_left -= 1
            theirs, mine, kings = play_effect(mine, theirs, kings, effect)
            up = not up
        return line


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


def plain_move_count(mine: int, theirs: int, kings: int, up: bool) -> int:
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
