"""The stories a settled reading may tell: every board the rules allow next, as pure functions.

:func:`engine.changes.hypotheses` says what may happen from a position. A story adds what
the tracker knows and the engine does not: the set-ups a game may start from, the side
that may make a game's first move, the steps the board still shows undone (captured men
not lifted, a new king not stacked), and, while an alert is open, its board standing or
the opponent playing on from it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Mapping

from makhos.engine import Colour, Move, Piece, Position, Rules
from makhos.engine.game import Game
from makhos.engine.position import Board, place
from makhos.engine.changes import Hypothesis, Verdict, hypotheses
from makhos.engine.squares import BIT
from makhos.events.game import movers


class StoryKind(enum.Enum):
    START = "start"  # a known set-up, perhaps with its first moves made, or the referee's start
    GAME = "game"  # a hypothesis from the game position
    ALERT_UNCHANGED = "alert unchanged"  # the irregular board still stands
    STOOD = "stood"  # the opponent played on from the irregular board
    MISMATCH = "mismatch"  # no story fits: the board as read
    GAP = "gap"  # plies played while the board was unseen (tracker.gaps)


@dataclass(frozen=True)
class Story:
    kind: StoryKind
    board: Board
    hypothesis: Hypothesis | None = None  # GAME
    rules: Rules | None = None  # START: the rules of the set-up recognised
    move: Move | None = None  # STOOD: the move made from the irregular board
    moves: tuple[Move, ...] = ()  # START: the first moves already made when first seen
    mover: Colour | None = None  # GAME, GAP, STOOD and START with moves: who makes the first of them
    lines: tuple[tuple[Move, ...], ...] = ()  # GAP: the lines that explain the board
    gap: float | None = None  # GAME and GAP after a gap: seconds the board was unseen
    # (not part of the decision)
    turn: Colour | None = None  # START from a position the referee named: the side to move
    against: tuple[int, ...] = ()  # MISMATCH: the squares that contradict the likeliest story
    # (not part of the decision)

    @property
    def decision(self) -> tuple[object, ...]:
        """What acting on the story would do; variants differing only in what is still
        pending (men not lifted, a king not stacked) lead to the same decision."""
        h = self.hypothesis
        board = self.board if self.kind in (StoryKind.START, StoryKind.MISMATCH) else None
        return (self.kind, board, h.verdict if h else None, h.moves if h else (),
                h.plies_back if h else 0, h.landed_on if h else None, self.move, self.moves,
                self.lines)


@dataclass(frozen=True)
class OpenBoard:
    """The board of the alert a tracker waits on."""

    position: Position  # its turn is the side that would play on
    either_side: bool = False  # a change no side made by moving: either side may play on


def start_stories(variants: list[Rules], fixed_first_mover: bool) -> list[Story]:
    """Each set-up of ``variants`` (the configured one first), and the configured one with
    its first move or two already made: a camera that finds the board late (or a hand in
    the way) still sees the start."""
    stories = []
    for index, rules in enumerate(variants):
        start = Game(rules)
        stories.append(Story(StoryKind.START, start.position.board, rules=rules))
        if index > 0:
            continue
        for side in movers(start, fixed_first_mover):
            first = start.position.with_turn(side)
            for move in first.legal_moves(rules):
                after = first.play(move)
                stories.append(Story(StoryKind.START, after.board, rules=rules, moves=(move,),
                                     mover=side))
                stories += [Story(StoryKind.START, after.play(reply).board, rules=rules,
                                  moves=(move, reply), mover=side)
                            for reply in after.legal_moves(rules)]
    return stories


def game_stories(game: Game, fixed_first_mover: bool, overlay: Mapping[int, Piece],
                 alert: OpenBoard | None, stop: tuple[Move, int] | None = None) -> list[Story]:
    """Every story from the game's position, the alert's board standing, and play going
    on from it. A misread does not become the record this way: play goes on from a board
    only when the next board read is that board with a legal move made, confirmed like
    any move; a misread that passes leaves the game's own stories to explain the move.
    ``stop``: the chain and landing the camera saw a chain stop on; two chains stopped
    and answered may leave the same board, and the one seen is the story told."""
    position = game.position
    found = [(h, position.turn) for h in hypotheses(position, game.rules, game.positions()[:-1])]
    if stop is not None:
        found.sort(key=lambda hm: not (hm[0].verdict is Verdict.STOPPED_AND_REPLIED
                                       and (hm[0].moves[0], hm[0].landed_on) == stop))
    for side in movers(game, fixed_first_mover):
        if side is not position.turn:
            # Either side's first move is a move, not a move out of turn.
            other = position.with_turn(side)
            found = [(h, mover) for h, mover in found if h.verdict is not Verdict.WRONG_SIDE]
            found += [(Hypothesis(Verdict.MOVE, (m,), other.play(m).board), side)
                      for m in other.legal_moves(game.rules)]
    stories = []
    if alert is not None:
        # Listed first: where the game's stories predict the same board (the alert's own
        # change, or its reply read as two plies), the board seen and played on wins.
        board = alert.position
        stories.append(Story(StoryKind.ALERT_UNCHANGED, board.board))
        sides = (board.turn, board.turn.opponent) if alert.either_side else (board.turn,)
        for side in sides:
            on = board.with_turn(side)
            stories += [Story(StoryKind.STOOD, on.play(m).board, move=m, mover=side)
                        for m in on.legal_moves(game.rules)]
    return stories + [Story(StoryKind.GAME, with_overlay(h.board, position, overlay), h, mover=mover)
                      for h, mover in found]


def with_overlay(board: Board, position: Position, overlay: Mapping[int, Piece]) -> Board:
    """A predicted board with the known pending differences applied where untouched."""
    shown = board
    for square, piece in overlay.items():
        bit = BIT[square]
        if all((a & bit) == (b & bit) for a, b in zip(board, position.board)):
            shown = place(shown, square, piece)
    return shown


def settled(board: Board, position: Position, overlay: Mapping[int, Piece]) -> Board:
    """A board read with the known pending differences done where it still shows them (a
    king not stacked yet is the game's king, a captured man not lifted yet is gone): the
    board an attempt made meanwhile is told from, and stands as."""
    read, done = Position(*board, turn=position.turn), board
    for square, piece in overlay.items():
        if read.piece_at(square) == piece:
            done = place(done, square, position.piece_at(square))
    return done
