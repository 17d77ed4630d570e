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
from makhos.engine.changes import Hypothesis, Pending, Verdict, hypotheses
from makhos.engine.gaps import IrregularLine
from makhos.engine.squares import BIT, row_col
from makhos.events.game import movers

from .parity import OtherParity


class StoryKind(enum.Enum):
    START = "start"  # a known set-up, perhaps with its first moves made, or the referee's start
    GAME = "game"  # a hypothesis from the game position
    ALERT_UNCHANGED = "alert unchanged"  # the irregular board still stands
    STOOD = "stood"  # play went on from the irregular board: its ``hypothesis`` from there
    MISMATCH = "mismatch"  # no story fits: the board as read
    GAP = "gap"  # plies played while the board was unseen (tracker.gaps)


#: What a board played on from an irregular one never is: the board unchanged or taken back.
_NOT_PLAYED_ON = (Verdict.UNCHANGED, Verdict.TAKEBACK)


@dataclass(frozen=True)
class Story:
    kind: StoryKind
    board: Board
    hypothesis: Hypothesis | None = None  # GAME; STOOD: from the irregular board
    rules: Rules | None = None  # START: the rules of the set-up recognised
    moves: tuple[Move, ...] = ()  # START: the first moves already made when first seen
    mover: Colour | None = None  # GAME, GAP, STOOD and START with moves: who makes the first of them
    lines: tuple[tuple[Move, ...], ...] = ()  # GAP: the lines that explain the board
    gap: float | None = None  # GAME and GAP after a gap: seconds the board was unseen
    # (not part of the decision)
    turn: Colour | None = None  # START from a position the referee named: the side to move
    against: tuple[int, ...] = ()  # the squares the reading contradicts it on, as a misread
    # (not part of the decision)
    then: Hypothesis | None = None  # STOOD: the same side moving again after ``hypothesis``
    # (WRONG_SIDE, from the board its first ply left)
    irregular: IrregularLine | None = None  # GAP: the line, with one irregular ply, that
    # explains the board where no legal line does (``lines`` then empty)
    on_alert: bool = False  # GAP: the lines (or the line with an irregular ply) go on from the
    # open irregular alert's board, which stands as played on
    reread: OtherParity | None = None  # GAME: a ply legal only after the record's last plies
    # are read with the other side to move after them (tracker.parity), done first
    unconfirmed: bool = False  # GAP: a line with one irregular ply to the same board, which
    # the glimpses lean to though not clearly (tracker.gaps.irregular_lead): the plies
    # recorded are the tracker's guess (not part of the decision)

    @property
    def plies(self) -> int:
        """GAP: the plies its line holds (the line with an irregular ply, or the legal lines,
        which are all as long); 0 for a story of no gap."""
        if self.irregular is not None:
            return self.irregular.plies
        return len(self.lines[0]) if self.lines else 0

    @property
    def decision(self) -> tuple[object, ...]:
        """What acting on the story would do; variants differing only in what is still
        pending (men not lifted, a king not stacked) lead to the same decision."""
        h = self.hypothesis
        # A board no story explains is one board whichever kind its pieces are read as: the
        # reader's man/king call wavers (#42), and acting on it gives each piece the kind
        # the game gave it (:func:`carried`).
        board = (self.board if self.kind is StoryKind.START
                 else self.board[:2] if self.kind is StoryKind.MISMATCH else None)
        return (self.kind, board, h.verdict if h else None, h.moves if h else (),
                h.plies_back if h else 0, h.landed_on if h else None, self.moves,
                self.lines, self.then.moves if self.then else (), self.irregular, self.on_alert, self.reread)


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
    stories: list[Story] = []
    later: list[Story] = []
    twice: list[Story] = []
    if alert is not None:
        # Listed first: where the game's stories predict the same board (the alert's own
        # change, or its reply read as two plies), the board seen and played on wins; but a
        # board the game's own plies explain (a chain stopped, then finished) is theirs
        # before it is the irregular mover moving again, or two plies at once.
        board = alert.position
        stories.append(Story(StoryKind.ALERT_UNCHANGED, with_overlay(board.board, position, overlay)))
        sides = (board.turn, board.turn.opponent) if alert.either_side else (board.turn,)
        for side in sides:
            # Play goes on from the irregular board as from any position: a move, a capture
            # missed again (a game under other rules misses capture after capture), two plies
            # before the camera settles, the irregular mover moving again. The board going
            # back is no story of it (the irregular mover stepping back is a correction).
            on = board.with_turn(side)
            for h in hypotheses(on, game.rules):
                if (h.verdict in _NOT_PLAYED_ON or h.board == position.board
                        or (alert.either_side and h.verdict is Verdict.WRONG_SIDE)):
                    continue
                first = h.verdict in (Verdict.MOVE, Verdict.MISSED_CAPTURE)
                shown = with_overlay(h.board, position, overlay)  # a king not stacked yet, as the game's
                (stories if first else later).append(Story(StoryKind.STOOD, shown, h, mover=side))
                if first and not h.pending.removals:
                    twice += [Story(StoryKind.STOOD, with_overlay(board, position, overlay), h,
                                    mover=side, then=again)
                              for again, board in _moved_again(on, h, game.rules)]
    simpler = stories + [Story(StoryKind.GAME, with_overlay(h.board, position, overlay), h, mover=mover)
                         for h, mover in found] + later
    # Last of all, and only for pieces on squares no simpler story puts them on (a king
    # read as a man must not make a side move twice); the capture missed then made late
    # before the capture then another move (the camera cannot tell which came first when
    # one hand covers both).
    occupied = {s.board[:2] for s in simpler}
    twice = [s for s in twice if s.board[:2] not in occupied]
    twice.sort(key=lambda s: not (s.hypothesis is not None and s.then is not None
                                  and s.hypothesis.verdict is Verdict.MISSED_CAPTURE
                                  and s.then.moves[0].is_capture))
    return simpler + twice


def _moved_again(on: Position, first: Hypothesis, rules: Rules) -> list[tuple[Hypothesis, Board]]:
    """The side that made ``first`` from ``on`` moving again before its opponent did (a move
    out of turn, its plain moves included: a capture is compulsory only in turn), each with
    the board shown: a king of either ply not stacked yet still a man.

    A game under other rules goes on irregularly: after an irregular board stood, a side
    may make two plies under one hand (log8's 7-3 with 29x22 due, then 29x22), which no
    story of one ply from the irregular board explains. These stories come after every
    other, so the board is theirs only where nothing simpler predicts it."""
    side = on.turn
    after = Position(*first.settled, turn=side)
    legal = after.legal_moves(rules)
    moves = legal + after.plain_moves() if legal and legal[0].is_capture else legal
    out = []
    for move in moves:
        board = after.play(move).board
        shown = board
        for square in first.pending.crownings - {move.start}:
            shown = place(shown, square, Piece.of(side, False))
        if move.crowns:
            out.append((Hypothesis(Verdict.WRONG_SIDE, (move,), board, Pending(crownings=frozenset({move.end}))),
                        place(shown, move.end, Piece.of(side, False))))
        out.append((Hypothesis(Verdict.WRONG_SIDE, (move,), board), shown))
    return out


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
    king not stacked yet is the game's king, a captured man not lifted yet is gone), its
    pieces keeping who they are (:func:`carried`): the board an attempt made meanwhile is
    told from, and stands as."""
    read, done = Position(*board, turn=position.turn), board
    for square, piece in overlay.items():
        if read.piece_at(square) == piece:
            done = place(done, square, position.piece_at(square))
    return carried(done, position)


def carried(board: Board, position: Position) -> Board:
    """A board read, each piece keeping the kind the game gave it.

    The reader's man/king call is its weakest (a real stacked king seen side-on reads as a
    man far more often than not), while a piece changes kind only by crowning, which the
    rules see. So a piece read on its own square keeps its kind, and a side's one piece
    that left its square for one new square takes its kind along: a king that moved
    against the rules is still a king, a man that moved is still a man unless it reached
    the far row.
    """
    read, out = Position(*board, turn=position.turn), board
    for square in range(1, 33):
        seen, known = read.piece_at(square), position.piece_at(square)
        if seen is not None and known is not None and seen.colour is known.colour and seen != known:
            out = place(out, square, known)
    for colour in Colour:
        gone = [s for s in range(1, 33) if (p := position.piece_at(s)) is not None
                and p.colour is colour and not _same_side(read.piece_at(s), colour)]
        came = [s for s in range(1, 33) if (p := read.piece_at(s)) is not None
                and p.colour is colour and not _same_side(position.piece_at(s), colour)]
        if len(gone) == 1 and len(came) == 1:
            piece = position.piece_at(gone[0])
            assert piece is not None
            crowns = not piece.is_king and row_col(came[0])[0] == (0 if colour is Colour.DARK else 7)
            out = place(out, came[0], Piece.of(colour, piece.is_king or crowns))
    return out


def _same_side(piece: Piece | None, colour: Colour) -> bool:
    return piece is not None and piece.colour is colour
