"""A board's record, replayed from its log: the one place where the log's rules live.

Every reader folds a board's events through :meth:`LoggedGame.apply`, in log order: the
server's view state (``server/state.py``), a tracker restored after a restart
(``GameTracker.restore``) and the live tracker itself, which applies each event it makes
as it makes it. So the three cannot disagree about what the log means, as python-chess's
PGN reader, engine and SVG cannot disagree about ``Board.push``.

The rules of the replay:

- The first move decides the first mover: before the first ply either side may move
  (unless the first mover is fixed), and a first ply by the side not to move makes that
  side the first mover (RULES.md: who moves first is a setting; tournaments toss for it).
- An attempt taken back stands before the next ply: an alert closed as corrected that
  names the change (``alert_closed`` with ``move``) is a correction of the ply that
  follows, written in the score as ``{corrected: ...}`` (logs before #33 name none).
- The board is the truth: a move whose FEN the engine does not reach from the game's
  position stands as an irregular ply at that FEN (RULES.md, "Irregularities and the
  referee").
- A game the referee starts from a position names its side to move: a FEN's, or for the
  board the camera reads next, the one the decision names; the camera's tracker logs that
  board as the game's ``game_started``, which carries the named side on.
- A referee decision names the alert it answers by the alert's seq; a decision that no
  longer fits (no such alert, nothing to take back, a move that is not legal) changes
  nothing, because the log is append-only and a reader must go on past it.

Pure Python over :mod:`engine`: no clock reads, no I/O, so the same events always give
the same record, and a restarted reader shows what it showed before.

This module is the fold alone. What it folds into lives where a reader looks for it: the
per-move clock and the events' time base in :mod:`events.clock`, match scheduling in
:mod:`events.match`, a recorded ply as the score and the board page show it in
:mod:`events.moves`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Iterable

from makhos.engine import Colour, Move, MoveText, Position, Rules
from makhos.engine.game import Game, Result
from makhos.engine.pdn import Correction, Numbering, write_game

from .clock import MOVE_SECONDS, WALL_CLOCK, WARNING_SECONDS, Clock
from .decisions import (AcceptMove, Acknowledge, ChooseLine, CorrectMove, Dismiss, GrantExtraTime,
                        NewGame, RefereeAction, SetPlayers, SetResult, TakeBack)
from .details import (AlertClosed, AlertEnding, BoardMatched, BoardMismatch, CameraNotice,
                      CameraStatus, ClockLevel, ClockSignal, Crowned, CrowningPending, Detail,
                      GameOver, GameStarted, Irregularity, IrregularityKind, MovePlayed, Takeback)
from .event import GameEvent
from .match import Match, match_of, name_players
from .moves import MoveEntry

#: Public names, those that moved to :mod:`events.clock`, :mod:`events.match` and
#: :mod:`events.moves` included: code that imported them from here goes on working.
__all__ = ["BOARD_ALERTS", "MOVE_SECONDS", "WALL_CLOCK", "WARNING_SECONDS", "Alert", "AlertKind",
           "Clock", "MatchGame", "LoggedGame", "Match", "MoveEntry", "described", "line_moves",
           "movers", "replay"]


class AlertKind(str, enum.Enum):
    """What an open alert is about; the pages show each kind its own way."""

    IRREGULARITY = "irregularity"  # waits for a correction, or for the opponent to play on
    NOTICE = "notice"  # passes with the next ply (a crowning not stacked in time)
    BOARD_MISMATCH = "board_mismatch"  # no move explains the board
    CLOCK = "clock"  # the move's time is up
    CAMERA = "camera"  # the camera is lost


#: Alerts about a board that may stand as a ply (the referee's accept_move).
BOARD_ALERTS = (AlertKind.IRREGULARITY, AlertKind.BOARD_MISMATCH)

_DEFAULT_REASON = {
    AlertKind.IRREGULARITY: "irregular move",
    AlertKind.NOTICE: "irregular move",
    AlertKind.BOARD_MISMATCH: "no move explains the board",
    AlertKind.CLOCK: "2:00 — time is up for this move",
    AlertKind.CAMERA: "camera lost",
}


@dataclass(slots=True)
class Alert:
    """Something the referee must look at: open until an event or a decision closes it."""

    seq: int | None  # the seq of the event that raised it; None until the log numbers it
    kind: AlertKind
    reason: str
    side: Colour | None
    time: float
    detail: Detail
    fen: str | None = None  # the board the alert is about (the irregular position)
    move: str | None = None  # the irregular change as a path, when one describes it
    acknowledged: bool = False

    @property
    def rule(self) -> IrregularityKind | None:
        if isinstance(self.detail, BoardMismatch):
            return self.detail.rule or IrregularityKind.ILLEGAL
        return self.detail.rule if isinstance(self.detail, Irregularity) else None

    @property
    def standing(self) -> str:
        """What the record says of the alert's board when it stands as a ply: an irregular
        change by its reason, a board no move explains as an irregular position change."""
        if self.kind is AlertKind.BOARD_MISMATCH:
            return f"irregular position change: {self.reason}"
        return self.reason

    def raised_by(self, event: GameEvent) -> bool:
        """Whether ``event`` (as read back from the log) is the one that raised this alert."""
        return (self.seq is None and event.time == self.time and event.reason == self.reason
                and event.fen == self.fen and event.detail == self.detail)


@dataclass
class MatchGame:
    """One game of the board's match."""

    number: int
    rules: Rules
    game: Game
    set_up: bool = False  # begun by a game_started event (a set-up seen or confirmed)
    started: float | None = None  # the time of the event that began it, or of its first ply
    turn_named: bool = False  # begun from a position that names the side to move (a FEN)
    from_board: bool = False  # the referee starts it from the board the camera reads next
    moves: list[MoveEntry] = field(default_factory=list)
    extra_used: dict[Colour, list[int]] = field(
        default_factory=lambda: {Colour.DARK: [], Colour.LIGHT: []})
    attempts: list[Correction] = field(default_factory=list)  # taken back since the last ply

    @property
    def result(self) -> Result | None:
        return self.game.result()

    @property
    def awaits_board(self) -> bool:
        """Whether the game waits for the camera's reading of the board to start from."""
        return self.from_board and not self.set_up

    def pdn(self, tags: dict[str, str] | None = None, times: bool = True,
            numbering: Numbering = Numbering.FIRST_MOVER) -> str:
        """The game's PDN: each ply's time on the clock (``times``) and the plies seen
        after a gap marked so (``{after a gap of 12 s}``), numbered by ``numbering``."""
        notes = {index: ("", m.note) for index, m in enumerate(self.moves) if m.note}
        return write_game(self.game, tags, move_seconds=[m.spent for m in self.moves] if times else (),
                          notes=notes, numbering=numbering, corrections=self.corrections)

    @property
    def corrections(self) -> dict[int, list[Correction]]:
        """The attempts taken back, by the index of the ply that followed them (the game's
        length for those no ply has followed yet)."""
        out = {index: list(m.corrections) for index, m in enumerate(self.moves) if m.corrections}
        if self.attempts:
            out[len(self.moves)] = list(self.attempts)
        return out

    # The first move decides the first mover: these three are the whole rule.

    def movers(self, fixed: bool) -> tuple[Colour, ...]:
        """Who may make the next ply: the side to move, or before the first ply either
        side, unless the first mover is ``fixed``."""
        return movers(self.game, fixed or self.turn_named)

    def position_for(self, side: Colour | None) -> Position:
        """The position a ply by ``side`` is played from: the game's, or before the first
        ply by the side not to move, the start with ``side`` to move."""
        if side is not None and self._makes_first_mover(side):
            return self.game.start.with_turn(side)
        return self.game.position

    def first_move_by(self, side: Colour | None) -> None:
        """A first ply by the side not to move makes it the first mover."""
        if side is not None and self._makes_first_mover(side):
            self.rules = self.rules.with_(first_mover=side)
            self.game = Game(self.rules, self.game.start.with_turn(side))

    def _makes_first_mover(self, side: Colour) -> bool:
        return not self.turn_named and not self.game.plies and side is not self.game.position.turn

    def correction(self, text: str, replace_last: bool) -> Move | None:
        """The one legal move ``text`` names, if any: in the position before the last ply
        when it replaces that ply, else (an alert's change was never recorded) now."""
        if replace_last and not self.game.plies:
            return None
        before = self.game.plies[-1].before if replace_last else self.game.position
        try:
            wanted = MoveText.parse(text)
        except ValueError:
            return None
        matches = [m for m in before.legal_moves(self.rules) if wanted.matches(m)]
        return matches[0] if len(matches) == 1 else None


def movers(game: Game, fixed: bool) -> tuple[Colour, ...]:
    """Who may make the next ply of ``game`` (see :meth:`MatchGame.movers`)."""
    turn = game.position.turn
    return (turn,) if fixed or game.plies else (turn, turn.opponent)


def line_moves(game: Game, line: str) -> list[Move] | None:
    """The legal moves of ``line`` (moves spaced: ``25-21 5-9 21-17``) played in turn from
    the game's position; None when one of them is not legal there."""
    trial = Game(game.rules, game.position)
    try:
        return [move for text in line.split() if (move := trial.play_text(text).move) is not None]
    except ValueError:
        return None


def described(text: str | None, before: Position, after: Position) -> Move | None:
    """A Move for the path of an irregular ply from ``before`` to ``after``, not checked
    against the rules."""
    try:
        parsed = MoveText.parse(text) if text else None
    except ValueError:
        return None
    return None if parsed is None else parsed.path(before.taken_by(after, parsed.squares[0]))


class LoggedGame:
    """Everything one board's log says after the events applied so far.

    ``rules`` are what a game starts under when its event does not say (the tracker's
    configured rules; the default rules for a server); a referee's ``new_game`` changes
    them for the games that follow.

    >>> from makhos.events import EventKind
    >>> record = replay([GameEvent("1", EventKind.MOVE, 0.0, move="22-18", side=Colour.DARK,
    ...                            fen="W:W1,2,3,4,5,6,7,8:B18,25,26,27,28,29,30,31,32")])
    >>> record.current.moves[0].move, record.current.game.position.turn
    ('22-18', <Colour.LIGHT: 'light'>)
    """

    def __init__(self, board: str, rules: Rules | None = None) -> None:
        self.board = board
        self.rules = rules or Rules()
        self.seq = 0
        # Game 1 under the base rules until events say otherwise: an empty board page still
        # has a position to draw, and a log may begin with moves.
        self.games = [MatchGame(1, self.rules, Game(self.rules))]
        self.alerts: dict[int, Alert] = {}  # by the raising event's seq (negative: not logged)
        self.matches = [Match()]  # the board's matches, one per round, oldest first
        self.clock = Clock()
        self.camera: CameraStatus | None = None
        self.crowning_pending: int | None = None  # a new king not stacked, until the next ply
        self._unlogged = 0

    @property
    def current(self) -> MatchGame:
        return self.games[-1]

    @property
    def match(self) -> Match:
        """The match being played (the last one the referee named)."""
        return self.matches[-1]

    def match_of(self, record: MatchGame) -> Match:
        """The match a game of the board belongs to."""
        return match_of(self.matches, record.number)

    def games_of(self, match: Match) -> list[MatchGame]:
        return [g for g in self.games if self.match_of(g) is match]

    def _name_players(self, named: Match) -> None:
        """The referee names the players: the match being played, or the next (:func:`name_players`)."""
        current = self.current
        begun = any(g.moves or g.result for g in self.games_of(self.match))
        name_players(self.matches, named, begun, current.number + (1 if current.moves or current.result else 0))

    # ------------------------------------------------------------ what the tracker asks

    def board_alert(self) -> Alert | None:
        """The latest open alert about a board that could stand (an irregular change, or a
        board no move explains): what a correction, or the opponent playing on, answers."""
        for alert in reversed(self.alerts.values()):
            if alert.kind in BOARD_ALERTS and alert.fen is not None and not self.stands(alert):
                return alert
        return None

    def replaces_last(self, seq: int | None) -> bool:
        """Whether a correction (of alert ``seq``, or None: of the last ply) replaces the
        game's last ply: a misread ply, or an alert's board that stands; else the
        correction is played from the game's position, the alert's attempt never recorded."""
        return seq is None or (seq in self.alerts and self.stands(self.alerts[seq]))

    def stands(self, alert: Alert) -> bool:
        """Whether ``alert``'s board already stands as the game's last ply, the alert left
        open: a recording that ended on an irregular attempt nobody answered keeps it in
        the record, and the referee may still judge it. Nothing waits on its board."""
        plies = self.current.game.plies
        return (alert.fen is not None and bool(plies) and plies[-1].is_irregular
                and plies[-1].after.board == Position.from_fen(alert.fen).board)

    @property
    def mismatch(self) -> bool:
        """Whether a board that no move explains is open (only the referee makes one stand)."""
        return any(a.kind is AlertKind.BOARD_MISMATCH for a in self.alerts.values())

    def number(self, event: GameEvent) -> None:
        """Give the seq the log gave ``event`` to the alert it raised (a live tracker's
        events are applied before the log numbers them; a decision names alerts by seq)."""
        for key, alert in list(self.alerts.items()):
            if event.seq and alert.raised_by(event):
                alert.seq = event.seq
                self.alerts = {(event.seq if k == key else k): a for k, a in self.alerts.items()}
                return

    # ------------------------------------------------------------ folding

    def apply(self, event: GameEvent) -> None:
        """Fold one event in; events must come in log order."""
        if event.seq:
            self.seq = event.seq
        detail = event.detail
        match detail:
            case GameStarted():
                self._game_started(event, detail)
            case MovePlayed():
                self._move(event, detail)
            case Irregularity(open=opens):
                self._raise(event, AlertKind.IRREGULARITY if opens else AlertKind.NOTICE)
            case AlertClosed(alert=seq, how=how):
                if how is AlertEnding.CORRECTED and event.move:
                    reason = event.reason or _DEFAULT_REASON[AlertKind.IRREGULARITY]
                    self.current.attempts.append(Correction(event.move, reason))
                if seq is None:
                    self._close(AlertKind.IRREGULARITY)
                else:
                    self.alerts.pop(seq, None)
            case Takeback(plies=plies):
                self._take_back(plies, event.time)
            case CrowningPending(square=square):
                self.crowning_pending = square
            case Crowned(square=square):
                if self.crowning_pending == square:
                    self.crowning_pending = None
            case BoardMismatch():
                self._raise(event, AlertKind.BOARD_MISMATCH)
            case BoardMatched():
                self._close(AlertKind.BOARD_MISMATCH)
            case ClockSignal(level=level, seconds=seconds):
                self.clock.level = level
                self.clock.signalled.add(seconds)
                if level is ClockLevel.RED:
                    self._raise(event, AlertKind.CLOCK)
            case GameOver(outcome=outcome):
                if self.current.result is None:
                    self._game_over(Result(outcome, event.reason or "declared"), event.time)
            case CameraNotice(status=status):
                self.camera = status
                self._close(AlertKind.CAMERA)
                if status in (CameraStatus.LOST, CameraStatus.UNREADABLE):
                    self._raise(event, AlertKind.CAMERA)
                if status is CameraStatus.ENDED:
                    # No move can come, and no camera will see a king stacked: the clock
                    # would only run on, and a pending crowning never end.
                    self.clock.stop(event.time)
                    self.crowning_pending = None
            case RefereeAction():
                self._decide(event, detail)
            # An Unreadable detail, or a kind without a rule here: nothing changes.

    def _game_started(self, event: GameEvent, detail: GameStarted) -> None:
        rules = detail.rules or self.rules
        start = Position.from_fen(event.fen) if event.fen else Position.start(rules)
        self._start_game(event.game, rules, start, event.time, set_up=True,
                         turn_named=detail.turn_named)

    def _start_game(self, number: int, rules: Rules, start: Position, time: float,
                    set_up: bool, turn_named: bool = False, from_board: bool = False) -> None:
        if not self.current.moves and self.current.result is None:
            # A game with no move and no result is no game: announced twice (the referee,
            # then the tracker seeing the set-up) it is one game, and never counts in the match.
            self.games.pop()
        self.games.append(MatchGame(number, rules, Game(rules, start), set_up=set_up, started=time,
                                     turn_named=turn_named, from_board=from_board))
        self.alerts.clear()
        self.crowning_pending = None
        self.clock = Clock(side=start.turn, started=time)

    def _move(self, event: GameEvent, detail: MovePlayed) -> None:
        if detail.stood_for is not None and detail.stood_for not in self.alerts:
            # The referee chose a line through the gap before the tracker, which reads the
            # log a moment later, let the likeliest stand: the referee's line is the record.
            return
        record = self.current
        if not detail.irregular:  # a ply against the rules never names the first mover
            record.first_move_by(event.side)
        game = record.game
        before = game.position
        after = Position.from_fen(event.fen) if event.fen else None
        move = game.move_named(event.move)
        # ``reason`` alone may be a note ("path uncertain"); ``irregular`` marks a change
        # that broke a rule and stood.
        if move is not None and not detail.irregular and (after is None or before.play(move) == after):
            game.play(move)
        else:
            after = after or before
            game.play_irregular(after, event.reason or "irregular",
                                move or described(event.move, before, after))
        self._record_ply(record, before, event.time, detail.gap, detail.unconfirmed)

    def _game_over(self, result: Result, time: float) -> None:
        """The game ends: its clock stops, and nothing that waited on a next ply is open."""
        self.current.game.declare(result)
        self.clock.stop(time)
        self.crowning_pending = None
        self._close(AlertKind.CLOCK, AlertKind.NOTICE)

    def _record_ply(self, record: MatchGame, before: Position, time: float,
                    gap: float | None = None, unconfirmed: bool = False) -> None:
        """A ply in the move list; one seen after a gap has no time on the clock (when it
        was played is not known)."""
        ply = record.game.plies[-1]
        captured = list(before.taken_by(ply.after))
        if record.started is None:  # a log that begins with moves: the game began with them
            record.started = time
        record.moves.append(MoveEntry(
            ply=len(record.game.plies), side=ply.mover,
            move=str(ply.move) if ply.move else None, fen=ply.after.fen(), captured=captured,
            irregular=ply.irregularity, time=time,
            spent=None if gap is not None else self.clock.spent(time), gap=gap,
            unconfirmed=unconfirmed, corrections=tuple(record.attempts)))
        record.attempts.clear()
        self._restart_clock(record, time)
        self.crowning_pending = None
        self._close(AlertKind.CLOCK, AlertKind.NOTICE)  # a ply answers the clock, ends a notice

    def _restart_clock(self, record: MatchGame, time: float) -> None:
        self.clock = Clock(side=record.game.position.turn, started=time)

    def _take_back(self, plies: int, time: float) -> None:
        record = self.current
        plies = min(plies, len(record.moves))
        if plies:
            record.game.take_back(plies)
            del record.moves[-plies:]
        self._restart_clock(record, time)

    def _raise(self, event: GameEvent, kind: AlertKind) -> None:
        if not event.seq:
            self._unlogged -= 1
        key = event.seq or self._unlogged
        self.alerts[key] = Alert(event.seq or None, kind, event.reason or _DEFAULT_REASON[kind],
                                 event.side, event.time, event.detail, event.fen, event.move)

    def _close(self, *kinds: AlertKind) -> None:
        for key in [k for k, a in self.alerts.items() if a.kind in kinds]:
            del self.alerts[key]

    def _decide(self, event: GameEvent, action: RefereeAction) -> None:
        record = self.current
        match action:
            case Acknowledge(alert=seq):
                if seq in self.alerts:
                    self.alerts[seq].acknowledged = True
            case AcceptMove(alert=seq):
                alert = self.alerts.pop(seq, None)
                if alert is not None and alert.fen and alert.kind in BOARD_ALERTS and not self.stands(alert):
                    before = record.game.position
                    after = Position.from_fen(alert.fen)
                    record.game.play_irregular(after, alert.standing,
                                               described(alert.move, before, after))
                    self._record_ply(record, before, event.time)
            case Dismiss(alert=seq):
                self.alerts.pop(seq, None)
            case CorrectMove(move=text, alert=seq):
                last = self.replaces_last(seq)
                move = record.correction(text, replace_last=last)
                if move is not None:
                    spent = None
                    if last:  # the last ply was misread (or stood): it took the time it took
                        spent = record.moves[-1].spent
                        self._take_back(1, event.time)
                    before = record.game.position
                    record.game.play(move)
                    self._record_ply(record, before, event.time)
                    if last:
                        record.moves[-1].spent = spent
                if seq is not None:
                    self.alerts.pop(seq, None)
            case ChooseLine(alert=seq, line=line):
                alert = self.alerts.get(seq)
                if alert is not None and isinstance(alert.detail, Irregularity) and alert.detail.lines:
                    if self._play_line(record, line, event.time, alert.detail.gap):
                        del self.alerts[seq]
            case TakeBack(plies=plies):
                self._take_back(plies, event.time)
            case SetResult(outcome=outcome, reason=reason):
                self._game_over(Result(outcome, reason), event.time)
            case NewGame(rules=rules, fen=fen, from_board=from_board, turn=turn):
                try:
                    new_rules = Rules.from_dict({**self.rules.to_dict(), **rules})
                    start = Position.from_fen(fen) if fen else Position.start(new_rules)
                except ValueError:
                    return  # settings that do not go with the board's: no new game
                self.rules = new_rules
                if turn is not None:  # from the board (parse_action lets turn go with it only):
                    start = start.with_turn(turn)  # the rules' start stands in until it is read
                named = fen is not None or turn is not None
                # From a position the game has no opening to force, and its side to move is
                # named: a first ply by the other side is irregular, not a new first mover.
                self._start_game(event.game, new_rules.with_(forced_opening=()) if named else new_rules,
                                 start, event.time, set_up=False, turn_named=named,
                                 from_board=from_board)
            case SetPlayers(first=first, second=second, round=round_, games=games):
                self._name_players(Match(first.strip(), second.strip(), round_.strip(), games))
            case GrantExtraTime(side=side, minutes=minutes):
                record.extra_used[side].append(minutes)
                if self.clock.side is side:
                    self.clock.extra_seconds += 60 * minutes
                    self.clock.signalled.clear()  # the marks fall due again, later

    def _play_line(self, record: MatchGame, line: str, time: float, gap: float | None) -> bool:
        """The plies of ``line`` played after a gap, when every one is legal in turn; False
        (nothing played) otherwise."""
        moves = line_moves(record.game, line)
        for move in moves or ():
            before = record.game.position
            record.game.play(move)
            self._record_ply(record, before, time, gap)
        return bool(moves)


def replay(events: Iterable[GameEvent], board: str | None = None,
           rules: Rules | None = None) -> LoggedGame:
    """The record of a board's events, oldest first (``board``: the first event's, by default)."""
    events = list(events)
    record = LoggedGame(board if board is not None else (events[0].board if events else ""), rules)
    for event in events:
        record.apply(event)
    return record

