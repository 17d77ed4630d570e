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

from engine import Colour, Move, Piece, Position, Rules
from engine.game import Game
from engine.squares import row_col

FPS = 30
Board = dict[int, str]  # square -> 'd', 'D', 'l', 'L'

#: Injected irregularities and what the tracker must report for each.
IRREGULARITIES = ("missed capture", "illegal move", "wrong side", "takeback", "knocked piece")


@dataclass(frozen=True)
class Shot:
    """A run of frames. ``board`` stands until the middle of the shot, then ``after``
    (the hand has put a piece down); ``path`` is the hand's fingertip route in board units
    (x = col + 0.5, y = row + 0.5 of the board's dark-side frame), empty for no hand."""

    board: Board
    frames: int
    path: tuple[tuple[float, float], ...] = ()
    side: str = "dark"  # the side the arm comes from
    after: Board | None = None


@dataclass(frozen=True)
class TruthEvent:
    """What the tracker should report, from ``frame`` on (the frame the hand has left)."""

    frame: int
    kind: str  # "move", "irregularity", "mismatch", "takeback"
    rule: str | None = None
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
    def __init__(self, rng: random.Random, rules: Rules) -> None:
        self.rng = rng
        self.script = GameScript(rules)
        self.game = Game(rules)
        self.board: Board = board_of(self.game.position)
        self.frame = 0

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
        return getattr(self, "_" + kind.replace(" ", "_"))()

    def _set_aside(self, move_from: int, move_to: int) -> tuple[Board, Board]:
        before = dict(self.board)
        after = dict(self.board)
        after[move_to] = after.pop(move_from)
        return before, after

    def _missed_capture(self) -> bool:
        position = self.game.position
        plain = position.plain_moves() if position.has_capture() else []
        if not plain:
            return False
        move = self.rng.choice(plain)
        side = position.turn
        before, after = self._set_aside(move.start, move.end)
        if move.crowns:
            return False
        self.hand(side, [move.start, move.end], after)
        self.truth("irregularity", "missed capture")
        self.still(1.0, 2.0)
        irregular = Position.from_pieces({s: Piece(p) for s, p in after.items()}, side.opponent)
        replies = [m for m in irregular.legal_moves(self.game.rules) if not m.crowns]
        if self.rng.random() < 0.5 and replies:
            self.game.play_irregular(irregular, "missed capture", move)
            self.play(self.rng.choice(replies), lift_late=False, jump_by_jump=False)
        else:
            self.hand(side, [move.end, move.start], before)  # corrected
            self.still(0.5, 1.0)
            self.legal_turn()
        self.still(0.8, 2.0)
        return True

    def _illegal_move(self) -> bool:
        position = self.game.position
        side = position.turn
        backward = 1 if side is Colour.DARK else -1
        options = []
        for square, piece in position.pieces().items():
            if piece.colour is side and not piece.is_king:
                row, col = row_col(square)
                for dc in (-1, 1):
                    target = _square_at(row + backward, col + dc)
                    if target and target not in self.board:
                        options.append((square, target))
        if not options:
            return False
        start, end = self.rng.choice(options)
        before, after = self._set_aside(start, end)
        self.hand(side, [start, end], after)
        self.truth("mismatch", "illegal move")
        self.still(1.0, 2.0)
        self.hand(side, [end, start], before)
        self.still(0.5, 1.0)
        self.legal_turn()
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
        self.hand(other.turn, [move.start, move.end], after)
        self.truth("irregularity", "wrong side")
        self.still(1.0, 2.0)
        self.hand(other.turn, [move.end, move.start], before)
        self.still(0.5, 1.0)
        self.legal_turn()
        return True

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

    def _knocked_piece(self) -> bool:
        square = self.rng.choice(sorted(self.board))
        before = dict(self.board)
        after = dict(self.board)
        after.pop(square)
        side = self.rng.choice([Colour.DARK, Colour.LIGHT])
        self.hand(side, [square], after)
        self.truth("mismatch", "pieces")
        self.still(1.0, 2.0)
        self.hand(side, [square], before)
        self.still(0.8, 1.5)
        return True


def _square_at(row: int, col: int) -> int | None:
    from engine.squares import square_at

    return square_at(row, col)


def script_game(seed: int, rules: Rules | None = None, plies: int = 24,
                irregularities: int = 2) -> GameScript:
    """A scripted game of about ``plies`` plies with ``irregularities`` injected at random."""
    rng = random.Random(seed)
    scripter = _Scripter(rng, rules or Rules())
    scripter.still(1.0, 2.0)
    scripter.truth("start")
    due = sorted(rng.sample(range(2, max(plies, 3)), k=min(irregularities, max(plies - 2, 0))))
    turn = seed  # each video starts the round of kinds at a different one, so all occur
    while len(scripter.game.plies) < plies and scripter.game.result() is None:
        if due and len(scripter.game.plies) >= due[0]:
            kinds = IRREGULARITIES[turn % len(IRREGULARITIES):] + IRREGULARITIES[:turn % len(IRREGULARITIES)]
            turn += 1
            for kind in kinds:
                if scripter.inject(kind):
                    break
            due.pop(0)
            continue
        scripter.legal_turn()
    scripter.still(1.5, 2.5)
    scripter.script.game = scripter.game
    return scripter.script
