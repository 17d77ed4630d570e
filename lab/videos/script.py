"""Script an over-the-board game as shots: what stands on the board, and where the hand is.

The script is pure game logic (no images): a random game played the way people play it,
with the hand bringing each move, multiple captures shown one jump at a time, captured men
lifted late, crowning stacked late by the opponent, and irregularities injected on purpose.
Beside the shots it keeps the truth: the game as it should be recorded and the events a
referee should see, each with the frame where the board settles.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from makhos.engine import Colour, Move, Piece, Position, Rules
from makhos.engine.game import Game
from makhos.engine.squares import row_col, square_at

FPS = 30
_WAIT = 8  # plies an injected kind may wait for a position that allows it
Board = dict[int, str]  # square -> 'd', 'D', 'l', 'L'

#: Injected irregularities: the catalogue of docs/RULES.md (each named by the rule the
#: tracker must report), and a takeback. Each that opens an alert ends corrected or played on.
IRREGULARITIES = ("too far", "sideways", "backwards", "own piece jumped", "false capture",
                  "king beyond", "missed capture", "partial chain", "wrong side", "two plies",
                  "crowning", "piece added", "piece removed", "impossible position",
                  "position changed", "takeback")


@dataclass(frozen=True)
class Shot:
    """A run of frames. ``board`` stands until the middle of the shot, then ``after``
    (the hand has put a piece down); ``path`` is the hand's fingertip route in board units
    (x = col + 0.5, y = row + 0.5 of the board's dark-side frame), empty for no hand. With
    no hand and an ``after``, ``board`` cross-fades into ``after`` over the shot (a game
    made of one photo per move, joined by an editor's plain cross-fade)."""

    board: Board
    frames: int
    path: tuple[tuple[float, float], ...] = ()
    side: str = "dark"  # the side the arm comes from
    after: Board | None = None


@dataclass(frozen=True)
class TruthEvent:
    """What the tracker should report, from ``frame`` on (the frame the hand has left)."""

    frame: int
    kind: str  # "start", "move", "irregularity", "stood" (played on), "corrected" (taken
    # back: ``move`` the attempt), "takeback"
    rule: str | None = None  # an irregularity's kind, as the tracker names it
    move: str | None = None


@dataclass
class GameScript:
    rules: Rules
    shots: list[Shot] = field(default_factory=list)
    events: list[TruthEvent] = field(default_factory=list)
    game: Game | None = None

    @property
    def frames(self) -> int:
        return sum(s.frames for s in self.shots)


def board_of(position: Position) -> Board:
    return {s: p.value for s, p in position.pieces().items()}


def _centre(square: int) -> tuple[float, float]:
    row, col = row_col(square)
    return col + 0.5, row + 0.5


class _Scripter:
    def __init__(self, rng: random.Random, rules: Rules, corrected: float = 0.5,
                 fade_every: int = 0) -> None:
        self.rng = rng
        self.corrected = corrected  # the chance that an irregularity is taken back
        self.fade_every = fade_every  # every so many changes a cross-fade, not a hand (0: none)
        self.script = GameScript(rules)
        self.game = Game(rules)
        self.board: Board = board_of(self.game.position)
        self.frame = 0
        self.changes = 0

    # ------------------------------------------------------------ shots

    def still(self, low: float, high: float) -> None:
        frames = int(self.rng.uniform(low, high) * FPS)
        self.script.shots.append(Shot(dict(self.board), frames))
        self.frame += frames

    def hand(self, side: Colour, squares: list[int], after: Board) -> None:
        """The arm comes in from the side's edge, visits the squares, and leaves."""
        edge = 9.2 if side is Colour.DARK else -1.2
        first, last = _centre(squares[0]), _centre(squares[-1])
        path = ((first[0] + self.rng.uniform(-1, 1), edge),) + tuple(_centre(s) for s in squares) + (
            (last[0] + self.rng.uniform(-1, 1), edge),)
        frames = int(self.rng.uniform(0.5, 0.9) * FPS) + 5 * len(squares)
        self.changes += 1
        if self.fade_every and self.changes % self.fade_every == 0:
            path = ()
        self.script.shots.append(Shot(dict(self.board), frames, path, side.value, dict(after)))
        self.board = dict(after)
        self.frame += frames

    def truth(self, kind: str, rule: str | None = None, move: str | None = None) -> None:
        self.script.events.append(TruthEvent(self.frame, kind, rule, move))

    # ------------------------------------------------------------ playing

    def play(self, move: Move, lift_late: bool, jump_by_jump: bool) -> None:
        """The side to move plays ``move`` by hand, as people do."""
        position = self.game.position
        side = position.turn
        current = move.start
        if jump_by_jump:
            for landing in move.path[1:-1]:
                after = dict(self.board)
                after[landing] = after.pop(current)
                self.hand(side, [current, landing], after)
                current = landing
                self.still(0.3, 1.0)  # the camera sees the chain one jump at a time
        after = dict(self.board)
        after[move.end] = after.pop(current)  # a crowned man is stacked later, by the opponent
        if not lift_late:
            for square in move.captured:
                after.pop(square, None)
        self.hand(side, [current, move.end], after)
        self.game.play(move)
        self.truth("move", move=str(move))
        if lift_late and move.captured:
            self.still(0.3, 1.2)
            after = {s: p for s, p in self.board.items() if s not in move.captured}
            self.hand(side, list(move.captured), after)
        if move.crowns:
            self.still(0.5, 4.0)  # the opponent stacks the king a few seconds later
            after = dict(self.board)
            after[move.end] = after[move.end].upper()
            self.hand(side.opponent, [move.end], after)

    def legal_turn(self) -> None:
        moves = self.game.legal_moves()
        move = self.rng.choice(moves)
        self.play(move, lift_late=self.rng.random() < 0.4, jump_by_jump=self.rng.random() < 0.6)
        self.still(0.8, 2.5)

    # ------------------------------------------------------------ irregularities

    def inject(self, kind: str) -> bool:
        """Play one irregularity and its aftermath; False when the position does not allow it."""
        played: bool = getattr(self, "_" + kind.replace(" ", "_"))()
        return played

    def _aftermath(self, before: Board, after: Board, hand: Colour, route: list[int],
                   rule: str, plays_on: tuple[Colour, ...], move: Move | None = None) -> bool:
        """The hand of ``hand`` makes the irregular board ``after`` (visiting ``route``); then
        either it is corrected (the board goes back, a legal move follows) or a side of
        ``plays_on`` plays on from it and the change stands (RULES.md, Irregularities)."""
        self.hand(hand, route, after)
        self.truth("irregularity", rule)
        if rule == "partial chain":
            self.still(2.8, 3.5)  # the tracker waits for the chain to rest (chain_patience)
        else:
            self.still(1.0, 2.0)
        side = self.rng.choice(plays_on)
        irregular = Position.from_pieces({s: Piece(p) for s, p in after.items()}, side)
        replies = [m for m in irregular.legal_moves(self.game.rules) if not m.crowns]
        if self.rng.random() < 1 - self.corrected and replies:
            self.game.play_irregular(irregular, rule, move)
            self.truth("stood", rule)
            self.play(self.rng.choice(replies), lift_late=False, jump_by_jump=False)
        else:
            self.hand(hand, route[::-1], before)  # corrected
            self.truth("corrected", rule, None if move is None else str(move))
            self.still(0.5, 1.0)
            self.legal_turn()
        self.still(0.8, 2.0)
        return True

    def _step(self, start: int, end: int, taken: tuple[int, ...], rule: str) -> bool:
        """The side to move moves its piece from ``start`` to ``end`` against the rules."""
        side = self.game.position.turn
        after = dict(self.board)
        after[end] = after.pop(start)
        for square in taken:
            after.pop(square)
        move = Move((start, end), taken)
        return self._aftermath(dict(self.board), after, side, [start, end], rule,
                               (side.opponent,), move)

    def _men_steps(self, rows: int, cols: tuple[int, ...]) -> list[tuple[int, int, int | None]]:
        """(start, end, square between) for the side to move's men going ``rows`` rows forward
        (negative: back) and a column offset of ``cols``, onto an empty square short of the
        far row."""
        side = self.game.position.turn
        forward = -1 if side is Colour.DARK else 1
        out = []
        for square, piece in self.game.position.pieces().items():
            if piece.colour is not side or piece.is_king:
                continue
            row, col = row_col(square)
            for dc in cols:
                target = square_at(row + forward * rows, col + dc)
                if target is None or target in self.board or row_col(target)[0] in (0, 7):
                    continue
                middle = square_at(row + forward * rows // 2, col + dc // 2) if abs(rows) == 2 else None
                out.append((square, target, middle))
        return out

    def _too_far(self) -> bool:
        options = [(a, b) for a, b, m in self._men_steps(2, (-2, 2)) if m not in self.board]
        return bool(options) and self._step(*self.rng.choice(options), (), "too far")

    def _sideways(self) -> bool:
        options = [(a, b) for a, b, _ in self._men_steps(0, (-2, 2))]
        return bool(options) and self._step(*self.rng.choice(options), (), "sideways")

    def _backwards(self) -> bool:
        options = [(a, b) for a, b, _ in self._men_steps(-1, (-1, 1))]
        return bool(options) and self._step(*self.rng.choice(options), (), "backwards")

    def _own_piece_jumped(self) -> bool:
        side = self.game.position.turn
        options = [(a, b) for a, b, m in self._men_steps(2, (-2, 2))
                   if m is not None and (p := self.game.position.piece_at(m)) is not None
                   and p.colour is side]
        return bool(options) and self._step(*self.rng.choice(options), (), "own piece jumped")

    def _false_capture(self) -> bool:
        """A man jumps over an empty square and an enemy piece elsewhere is lifted."""
        side = self.game.position.turn
        enemies = [s for s, p in self.game.position.pieces().items() if p.colour is not side]
        options = [(a, b, e) for a, b, m in self._men_steps(2, (-2, 2)) if m not in self.board
                   for e in enemies]
        if not options:
            return False
        start, end, enemy = self.rng.choice(options)
        return self._step(start, end, (enemy,), "false capture")

    def _king_beyond(self) -> bool:
        """A king takes a piece and lands further than the square right behind it."""
        position = self.game.position
        options = []
        for move in position.legal_moves(self.game.rules):
            piece = position.piece_at(move.start)
            if not move.is_capture or len(move.path) != 2 or piece is None or not piece.is_king:
                continue
            (r0, c0), (r1, c1) = row_col(move.start), row_col(move.end)
            dr, dc = (r1 - r0) // abs(r1 - r0), (c1 - c0) // abs(c1 - c0)
            beyond = square_at(r1 + dr, c1 + dc)
            if beyond is not None and beyond not in self.board:
                options.append((move.start, beyond, move.captured))
        return bool(options) and self._step(*self.rng.choice(options), "king beyond")

    def _missed_capture(self) -> bool:
        position = self.game.position
        plain = [m for m in position.plain_moves() if not m.crowns] if position.has_capture() else []
        if not plain:
            return False
        move = self.rng.choice(plain)
        return self._step(move.start, move.end, (), "missed capture")

    def _king_missed_capture(self) -> bool:
        """A king's plain move while a capture was compulsory (a flying king's capture may
        lie far along a diagonal, easy to overlook)."""
        position = self.game.position
        plain = [m for m in position.plain_moves() if _is_king(position.piece_at(m.start))
                 ] if position.has_capture() else []
        if not plain:
            return False
        move = self.rng.choice(plain)
        return self._step(move.start, move.end, (), "missed capture")

    def _king_partial_chain(self) -> bool:
        """A king's capture chain stopped after its first jump, the taken piece lifted."""
        chains = [m for m in self.game.legal_moves() if len(m.path) > 2
                  and _is_king(self.game.position.piece_at(m.start))]
        if not chains:
            return False
        chain = self.rng.choice(chains)
        return self._step(chain.start, chain.path[1], chain.captured[:1], "partial chain")

    def _partial_chain(self) -> bool:
        """A capture chain stopped after its first jump, the taken piece lifted."""
        chains = [m for m in self.game.legal_moves() if len(m.path) > 2 and not
                  (self.game.position.piece_at(m.start) or Piece.DARK_MAN).is_king]
        if not chains:
            return False
        chain = self.rng.choice(chains)
        return self._step(chain.start, chain.path[1], chain.captured[:1], "partial chain")

    def _stop_and_reply(self) -> bool:
        """A capture chain stopped after its first jump, its man lifted, and the opponent's
        reply from there at once: no pause, a glance's, or about a second (less than the
        chain's patience), so the camera may never see the stopped chain rest."""
        position = self.game.position
        chains = [m for m in position.legal_moves(self.game.rules) if len(m.path) > 2]
        options = []
        for chain in chains:
            after = dict(self.board)
            after[chain.path[1]] = after.pop(chain.start)
            after.pop(chain.captured[0])
            pieces = {s: Piece(p) for s, p in after.items()}
            stopped = Position.from_pieces(pieces, position.turn.opponent)
            options += [(chain, after, stopped, r) for r in stopped.legal_moves(self.game.rules)
                        if not r.crowns]
        if not options:
            return False
        chain, after, stopped, reply = self.rng.choice(options)
        shown = Move(chain.path[:2], chain.captured[:1])
        self.hand(position.turn, [chain.start, chain.path[1], chain.captured[0]], after)
        self.truth("irregularity", "partial chain", str(shown))
        self.game.play_irregular(stopped, "partial chain", shown)
        self.truth("stood", "partial chain", str(shown))
        pause = self.rng.choice((0.0, 0.4, 1.1))
        if pause:
            self.still(pause, pause + 0.2)
        self.play(reply, lift_late=False, jump_by_jump=False)
        self.still(0.8, 2.0)
        return True

    def _wrong_side(self) -> bool:
        if not self.game.plies:
            return False
        position = self.game.position
        other = position.with_turn(position.turn.opponent)
        moves = [m for m in other.legal_moves(self.game.rules) if not m.is_capture and not m.crowns]
        if not moves:
            return False
        move = self.rng.choice(moves)
        before, after = self._set_aside(move.start, move.end)
        return self._aftermath(before, after, other.turn, [move.start, move.end], "wrong side",
                               (position.turn,), move)

    def _set_aside(self, move_from: int, move_to: int) -> tuple[Board, Board]:
        before = dict(self.board)
        after = dict(self.board)
        after[move_to] = after.pop(move_from)
        return before, after

    def _two_plies(self) -> bool:
        """A move and its reply made while the camera sees only hands (one shot)."""
        position = self.game.position
        firsts = [m for m in position.legal_moves(self.game.rules) if not m.is_capture and not m.crowns]
        pairs = [(m, r) for m in firsts for r in position.play(m).legal_moves(self.game.rules)
                 if not r.is_capture and not r.crowns]
        if not pairs:
            return False
        first, reply = self.rng.choice(pairs)
        after = dict(self.board)
        after[first.end] = after.pop(first.start)
        after[reply.end] = after.pop(reply.start)
        self.hand(position.turn, [first.start, first.end, reply.start, reply.end], after)
        self.game.play(first)
        self.truth("move", move=str(first))
        self.game.play(reply)
        self.truth("move", move=str(reply))
        self.truth("irregularity", "two plies")
        self.still(0.8, 2.0)
        return True

    def _crowning(self) -> bool:
        """A man crowns and the opponent moves without stacking it, then stacks it."""
        side = self.game.position.turn
        crowning = [m for m in self.game.legal_moves() if m.crowns and not m.is_capture]
        if not crowning:
            return False
        move = self.rng.choice(crowning)
        after = dict(self.board)
        after[move.end] = after.pop(move.start)
        self.hand(side, [move.start, move.end], after)
        self.game.play(move)
        self.truth("move", move=str(move))
        self.still(0.8, 1.5)
        replies = [m for m in self.game.legal_moves() if not m.is_capture and not m.crowns]
        if not replies:
            return True  # the game goes on with the king to stack by the next turn
        reply = self.rng.choice(replies)
        after = dict(self.board)
        after[reply.end] = after.pop(reply.start)
        self.hand(side.opponent, [reply.start, reply.end], after)
        self.game.play(reply)
        self.truth("move", move=str(reply))
        self.truth("irregularity", "crowning")
        self.still(0.8, 1.5)
        after = dict(self.board)
        after[move.end] = after[move.end].upper()
        self.hand(side.opponent, [move.end], after)
        self.still(0.8, 1.5)
        return True

    def _no_move_change(self, after: Board, route: list[int], rule: str) -> bool:
        """Pieces added, removed or shifted by a hand: no side moved, either may play on."""
        side = self.game.position.turn
        hand = self.rng.choice([Colour.DARK, Colour.LIGHT])
        return self._aftermath(dict(self.board), after, hand, route, rule, (side,))

    def _empty_inner_squares(self) -> list[int]:
        return [s for s in range(5, 29) if s not in self.board]

    def _man_added(self, beyond_set_up: bool, rule: str) -> bool:
        """A man put on an empty square for a side that lost pieces, or (``beyond_set_up``)
        for a side that has all it began with: a board play cannot produce."""
        start = Position.start(self.game.rules)
        sides = [c for c in Colour
                 if (self.game.position.count(c) >= start.count(c)) is beyond_set_up]
        empty = self._empty_inner_squares()
        if not sides or not empty:
            return False
        square, colour = self.rng.choice(empty), self.rng.choice(sides)
        after = dict(self.board)
        after[square] = Piece.of(colour, False).value
        return self._no_move_change(after, [square], rule)

    def _piece_added(self) -> bool:
        return self._man_added(False, "piece added")

    def _piece_removed(self) -> bool:
        square = self.rng.choice(sorted(self.board))
        after = {s: p for s, p in self.board.items() if s != square}
        return self._no_move_change(after, [square], "piece removed")

    def _impossible_position(self) -> bool:
        return self._man_added(True, "impossible position")

    def _position_changed(self) -> bool:
        """Two pieces shifted to empty squares at once (a sleeve across the board)."""
        empty = self._empty_inner_squares()
        pieces = sorted(self.board)
        if len(empty) < 2 or len(pieces) < 2:
            return False
        moved, targets = self.rng.sample(pieces, 2), self.rng.sample(empty, 2)
        after = dict(self.board)
        for square, target in zip(moved, targets):
            after[target] = after.pop(square)
        return self._no_move_change(after, [moved[0], targets[0], moved[1], targets[1]],
                                    "position changed")

    def _takeback(self) -> bool:
        moves = [m for m in self.game.legal_moves() if not m.is_capture and not m.crowns]
        if len(moves) < 2:
            return False
        first, second = self.rng.sample(moves, 2)
        side = self.game.position.turn
        before, after = self._set_aside(first.start, first.end)
        self.hand(side, [first.start, first.end], after)
        self.game.play(first)
        self.truth("move", move=str(first))
        self.still(1.0, 2.0)
        self.hand(side, [first.end, first.start], before)
        self.game.take_back()
        self.truth("takeback")
        self.still(1.0, 2.0)
        self.play(second, lift_late=False, jump_by_jump=False)
        self.still(0.8, 2.0)
        return True


def _is_king(piece: Piece | None) -> bool:
    return piece is not None and piece.is_king


#: Irregular king play (issue #42): each injected kind is named by the rule the tracker
#: reports ("missed capture", "partial chain").
KING_IRREGULARITIES = ("king missed capture", "king partial chain")

#: The corrections set's kinds: attempts a player takes back (always, there), and a chain
#: stopped early answered at once.
CORRECTIONS = ("too far", "sideways", "backwards", "own piece jumped", "false capture",
               "missed capture", "wrong side", "stop and reply")


def script_game(seed: int, rules: Rules | None = None, plies: int = 24,
                irregularities: int = 2, kinds: tuple[str, ...] = IRREGULARITIES,
                corrected: float = 0.5, fade_every: int = 0) -> GameScript:
    """A scripted game of about ``plies`` plies with ``irregularities`` of ``kinds`` injected
    at random, each that opens an alert taken back with the chance ``corrected``; every
    ``fade_every``-th change of the board a cross-fade instead of a hand (0: never)."""
    rng = random.Random(seed)
    scripter = _Scripter(rng, rules or Rules(), corrected, fade_every)
    scripter.still(1.0, 2.0)
    scripter.truth("start")
    due = sorted(rng.sample(range(2, max(plies, 3)), k=min(irregularities, max(plies - 2, 0))))
    kind, waited = None, 0
    while (len(scripter.game.plies) < plies or (kind and len(scripter.game.plies) < plies + _WAIT)) \
            and scripter.game.result() is None:
        if due and len(scripter.game.plies) >= due[0]:
            # Drawn at random; a kind the position does not allow yet (a chain to stop, a
            # king to land beyond) is waited for, then another is played instead.
            kind = kind or rng.choice(kinds)
            others = rng.sample(kinds, len(kinds)) if waited >= _WAIT else []
            if any(scripter.inject(k) for k in (kind, *others)):
                kind, waited = None, 0
                due.pop(0)
                continue
            waited += 1
        scripter.legal_turn()
    scripter.still(1.5, 2.5)
    scripter.script.game = scripter.game
    return scripter.script
