"""A board's view state, folded from its events: what every page and API call shows.

Pure Python over :mod:`engine` and :mod:`events`: no Flask, no clock reads, no I/O, so
the same events always give the same state (and a restarted server shows what it
showed before). Folding is incremental: :meth:`BoardState.apply` takes one event at a
time, in log order.

The moves are replayed through :class:`engine.game.Game`, which gives the PDN and
checks a referee's correction; the FEN an event carries wins over the engine when they
disagree, because the board is the truth and the record follows it (RULES.md,
"Irregularities and the referee").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine import Colour, Move, MoveText, Position, Rules
from engine.game import Game, Outcome, Result
from engine.pdn import write_game
from events import EventKind, GameEvent

from events import referee as ra
from .config import Scoring

MOVE_SECONDS = 120  # RULES.md: 2 minutes per move
EXTRA_MINUTES_PER_GAME = 10  # two of 5 or one of 10, per side per game


@dataclass(slots=True)
class MoveEntry:
    """One ply of the move list, with what the board page needs to draw it."""

    ply: int  # 1-based
    side: str  # "dark" / "light": who played it
    move: str | None  # full-path PDN; None for an irregular change no move describes
    fen: str  # the position after it
    captured: list[int]  # squares emptied of the opponent's pieces
    irregular: str | None  # the rule it broke, when it stood as an irregular ply
    time: float

    @property
    def number(self) -> int:
        return (self.ply + 1) // 2


@dataclass(slots=True)
class Alert:
    """Something the referee must look at: open until closed by an event or a decision."""

    seq: int
    kind: str  # irregularity, board_mismatch, clock, camera
    reason: str
    side: str | None
    time: float
    detail: dict[str, Any]
    fen: str | None = None  # the board the alert is about (the irregular position)
    acknowledged: bool = False


@dataclass(slots=True)
class Match:
    """Two players over several games; ``first`` moves first in game 1, then they alternate."""

    first: str = ""
    second: str = ""
    round: str = ""
    games: int = 4


@dataclass(slots=True)
class Clock:
    """The per-move clock of the side to move. ``started`` is in the events' time base."""

    side: str = "dark"
    started: float | None = None
    extra_seconds: int = 0
    level: str | None = None  # the tracker's last signal for this move: yellow / red

    @property
    def limit_seconds(self) -> int:
        return MOVE_SECONDS + self.extra_seconds


@dataclass
class GameRecord:
    """One game of the board's match."""

    number: int
    rules: Rules
    game: Game
    moves: list[MoveEntry] = field(default_factory=list)
    extra_used: dict[str, list[int]] = field(default_factory=lambda: {"dark": [], "light": []})

    @property
    def result(self) -> Result | None:
        return self.game.result()

    def first_mover_is_first_player(self) -> bool:
        return self.number % 2 == 1


class BoardState:
    """Everything known about one board after the events applied so far.

    >>> from events import GameEvent, EventKind
    >>> s = BoardState("1")
    >>> s.apply(GameEvent("1", EventKind.MOVE, 0.0, ply=1, move="22-18",
    ...                   fen="W:W1,2,3,4,5,6,7,8:B18,25,26,27,28,29,30,31,32", seq=1))
    >>> s.current.moves[0].move, s.seq
    ('22-18', 1)
    """

    def __init__(self, board: str, scoring: Scoring | None = None) -> None:
        self.board = board
        self.scoring = scoring or Scoring()
        self.seq = 0
        # Game 1 under the default rules until events say otherwise: a tracker may start
        # with moves, and an empty board page still has a position to draw.
        self.games: list[GameRecord] = [GameRecord(1, Rules(), Game(Rules()))]
        self.alerts: dict[int, Alert] = {}
        self.match = Match()
        self.clock = Clock()
        self.camera: str | None = None
        self.crowning_pending: int | None = None

    # ------------------------------------------------------------ folding

    @property
    def current(self) -> GameRecord:
        return self.games[-1]

    def apply(self, event: GameEvent) -> None:
        """Fold one event in; events must come in log order."""
        if event.seq is not None:
            self.seq = event.seq
        handler = _HANDLERS.get(event.kind)
        if handler is not None:
            handler(self, event)

    def _start_game(self, number: int, rules: Rules, fen: str | None, time: float | None) -> None:
        start = Position.from_fen(fen) if fen else Position.start(rules)
        self.games.append(GameRecord(number, rules, Game(rules, start)))
        self.alerts.clear()
        self.crowning_pending = None
        self.clock = Clock(side=start.turn.value, started=time)

    def _drop_unplayed(self) -> None:
        """A game with no move and no result is no game: announced twice (the referee,
        then the tracker seeing the set-up) it is one game, and never counts in the match."""
        if not self.current.moves and self.current.result is None:
            self.games.pop()

    def _game_started(self, event: GameEvent) -> None:
        rules = _rules(event.detail.get("rules"))
        self._drop_unplayed()
        self._start_game(event.game, rules, event.fen, event.time)

    def _move(self, event: GameEvent) -> None:
        record = self.current
        if not record.game.plies and event.side and event.side != record.game.position.turn.value:
            # The other side made the first move: it moves first (as the tracker decides).
            rules = record.rules.with_(first_mover=Colour(event.side))
            record.rules = rules
            record.game = Game(rules, record.game.start.with_turn(rules.first_mover))
            self.clock.side = event.side
        game = record.game
        before = game.position
        after = Position.from_fen(event.fen) if event.fen else None
        move = game.move_named(event.move)
        # ``reason`` alone may be a note ("path uncertain"); ``detail.irregular`` marks a
        # change that broke a rule and stood.
        irregular = bool(event.detail.get("irregular"))
        if move is not None and not irregular and (after is None or before.play(move) == after):
            game.play(move)
        else:
            game.play_irregular(after or before, event.reason or "irregular",
                                move or _described(event.move))
        self._record_ply(record, before, event.time)

    def _record_ply(self, record: GameRecord, before: Position, time: float) -> None:
        ply = record.game.plies[-1]
        opponent = ply.mover.opponent
        captured = sorted(s for s, p in before.pieces().items()
                          if p.colour is opponent and ply.after.piece_at(s) is None)
        record.moves.append(MoveEntry(
            ply=len(record.game.plies), side=ply.mover.value,
            move=str(ply.move) if ply.move else None, fen=ply.after.fen(), captured=captured,
            irregular=ply.irregularity, time=time))
        self._restart_clock(record, time)
        self.crowning_pending = None
        for seq in [s for s, a in self.alerts.items() if a.kind in ("clock", "notice")]:
            del self.alerts[seq]  # a move answers the clock and ends a passing notice

    def _restart_clock(self, record: GameRecord, time: float | None) -> None:
        self.clock = Clock(side=record.game.position.turn.value, started=time)

    def _take_back(self, plies: int, time: float) -> None:
        record = self.current
        plies = min(plies, len(record.moves))
        if plies:
            record.game.take_back(plies)
            del record.moves[-plies:]
        self._restart_clock(record, time)

    def _open_alert(self, event: GameEvent, kind: str, default: str) -> None:
        reason = event.reason or event.detail.get("reason") or default
        self.alerts[event.seq or 0] = Alert(event.seq or 0, kind, str(reason), event.side,
                                            event.time, dict(event.detail), event.fen)

    def _close_alerts(self, kind: str) -> None:
        for seq in [s for s, a in self.alerts.items() if a.kind == kind]:
            del self.alerts[seq]

    def _alert_closed(self, event: GameEvent) -> None:
        seq = event.detail.get("alert")
        if seq is None:
            self._close_alerts("irregularity")
        else:
            self.alerts.pop(seq, None)

    def _clock(self, event: GameEvent) -> None:
        level = event.detail.get("level")
        self.clock.level = level
        if level == "red":
            self._open_alert(event, "clock", "2:00 — time is up for this move")

    def _camera(self, event: GameEvent) -> None:
        self.camera = event.detail.get("status")
        if self.camera == "lost":
            self._open_alert(event, "camera", "camera lost")
        else:
            self._close_alerts("camera")

    def _result(self, event: GameEvent) -> None:
        outcome = event.detail.get("outcome")
        if outcome in ra.OUTCOMES:
            self.current.game.declare(Result(Outcome(outcome), event.reason or "declared"))

    def _referee(self, event: GameEvent) -> None:
        try:
            action = ra.parse_action(event.detail)
        except ra.ActionError:
            return  # the log is append-only: a bad entry is skipped, never fatal to the view
        match action:
            case ra.Acknowledge(alert=seq):
                if seq in self.alerts:
                    self.alerts[seq].acknowledged = True
            case ra.AcceptMove(alert=seq):
                alert = self.alerts.pop(seq, None)
                if alert is not None and alert.fen and alert.kind in ("irregularity", "board_mismatch"):
                    # The irregular board stands as a ply, as the tracker records it.
                    record = self.current
                    before = record.game.position
                    record.game.play_irregular(Position.from_fen(alert.fen), alert.reason)
                    self._record_ply(record, before, event.time)
            case ra.Dismiss(alert=seq):
                self.alerts.pop(seq, None)
            case ra.CorrectMove(move=text, alert=seq):
                record = self.current
                replace_last = seq is None
                move = _correction(record, text, replace_last)
                if move is not None:
                    if replace_last:
                        self._take_back(1, event.time)
                    before = record.game.position
                    record.game.play(move)
                    self._record_ply(record, before, event.time)
                if seq is not None:
                    self.alerts.pop(seq, None)
            case ra.TakeBack(plies=plies):
                self._take_back(plies, event.time)
            case ra.SetResult(outcome=outcome, reason=reason):
                self.current.game.declare(Result(Outcome(outcome), reason))
            case ra.NewGame(rules=rules):
                self._drop_unplayed()
                self._start_game(event.game, Rules.from_dict(rules), None, event.time)
            case ra.SetPlayers(first=first, second=second, round=round_, games=games):
                self.match = Match(first.strip(), second.strip(), round_.strip(), games)
            case ra.GrantExtraTime(side=side, minutes=minutes):
                self.current.extra_used[side].append(minutes)
                if self.clock.side == side:
                    self.clock.extra_seconds += 60 * minutes

    # ------------------------------------------------------------ checking a decision

    def check(self, action: ra.RefereeAction) -> None:
        """Raise ActionError when a well-formed action does not fit the board as it stands."""
        record = self.current
        match action:
            case ra.Acknowledge(alert=seq) | ra.AcceptMove(alert=seq) | ra.Dismiss(alert=seq):
                if seq not in self.alerts:
                    raise ra.ActionError(f"no open alert {seq}")
            case ra.CorrectMove(move=text, alert=seq):
                if seq is not None and seq not in self.alerts:
                    raise ra.ActionError(f"no open alert {seq}")
                if _correction(record, text, seq is None) is None:
                    if seq is None and not record.moves:
                        raise ra.ActionError("no move to correct yet")
                    before = record.game.plies[-1].before if seq is None else record.game.position
                    raise ra.ActionError(f"{text} is not one legal move in {before.fen()} "
                                         "(write the full path when the short form is ambiguous)")
            case ra.TakeBack(plies=plies):
                if plies > len(record.moves):
                    raise ra.ActionError(f"only {len(record.moves)} plies to take back")
            case ra.GrantExtraTime(side=side, minutes=minutes):
                used = record.extra_used[side]
                if sum(used) + minutes > EXTRA_MINUTES_PER_GAME or (minutes == 10 and used):
                    raise ra.ActionError(f"{side} has used {'+'.join(map(str, used))} minutes: "
                                         "the allowance is two of 5 or one of 10 per game")

    # ------------------------------------------------------------ what is shown

    def players_of(self, record: GameRecord) -> dict[str, str]:
        """Which player has dark and light in a game: the first mover alternates."""
        mover, other = self.match.first, self.match.second
        if not record.first_mover_is_first_player():
            mover, other = other, mover
        if record.rules.first_mover is Colour.DARK:
            return {"dark": mover, "light": other}
        return {"dark": other, "light": mover}

    def score(self) -> dict[str, int]:
        """Match points of the two players under the event's scoring."""
        points = {"first": 0, "second": 0}
        for record in self.games:
            result = record.result
            if result is None:
                continue
            mover = record.rules.first_mover
            first_side = mover if record.first_mover_is_first_player() else mover.opponent
            if result.outcome is Outcome.DRAW:
                points["first"] += self.scoring.draw
                points["second"] += self.scoring.draw
            elif result.outcome is Outcome.win_for(first_side):
                points["first"] += self.scoring.win
                points["second"] += self.scoring.loss
            else:
                points["first"] += self.scoring.loss
                points["second"] += self.scoring.win
        return points

    def game_json(self, record: GameRecord) -> dict[str, Any]:
        result = record.result
        last = record.moves[-1] if record.moves else None
        return {
            "number": record.number,
            "rules": record.rules.to_dict(),
            "start_fen": record.game.start.fen(),
            "fen": record.game.position.fen(),
            "turn": record.game.position.turn.value,
            "moves": [_move_json(m) for m in record.moves],
            "last_move": None if last is None else {
                "path": _path(last.move), "captured": last.captured},
            "result": None if result is None else {"outcome": result.outcome.value,
                                                   "reason": result.reason},
            "players": self.players_of(record),
            "extra_used": record.extra_used,
        }

    def to_json(self) -> dict[str, Any]:
        """The full view state, as the board page and ``/api/board/<id>`` give it."""
        record = self.current
        return {
            "board": self.board,
            "seq": self.seq,
            "game": self.game_json(record),
            "clock": {"side": self.clock.side, "started": self.clock.started,
                      "extra_seconds": self.clock.extra_seconds,
                      "limit_seconds": self.clock.limit_seconds, "level": self.clock.level},
            "alerts": [_alert_json(a) for a in sorted(self.alerts.values(), key=lambda a: a.seq)],
            "match": {"first": self.match.first, "second": self.match.second,
                      "round": self.match.round, "games": self.match.games,
                      "score": self.score(),
                      "results": [{"game": r.number, "players": self.players_of(r),
                                   "outcome": r.result.outcome.value if r.result else None}
                                  for r in self.games]},
            "camera": self.camera,
            "crowning_pending": self.crowning_pending,
        }

    def summary(self) -> dict[str, Any]:
        """The hall's line for this board: small enough to send on every event."""
        record = self.current
        result = record.result
        last = record.moves[-1] if record.moves else None
        return {
            "board": self.board,
            "seq": self.seq,
            "game": record.number,
            "fen": record.game.position.fen(),
            "plies": len(record.moves),
            "last_move": None if last is None else {"path": _path(last.move),
                                                    "captured": last.captured},
            "players": self.players_of(record),
            "result": None if result is None else {"outcome": result.outcome.value,
                                                   "reason": result.reason},
            "alert": bool(self.alerts),
            "match": {"first": self.match.first, "second": self.match.second,
                      "round": self.match.round, "score": self.score()},
        }

    def pdn(self, record: GameRecord, event_name: str) -> str:
        """The PDN of one game of this board, with the match's tags."""
        players = self.players_of(record)
        tags = {"Event": event_name, "Round": self.match.round or "?",
                "White": players["light"] or "?", "Black": players["dark"] or "?",
                "Board": self.board, "Game": str(record.number)}
        return write_game(record.game, tags)

    def game(self, number: int) -> GameRecord | None:
        return next((r for r in self.games if r.number == number), None)


_HANDLERS = {
    EventKind.GAME_STARTED: BoardState._game_started,
    EventKind.MOVE: BoardState._move,
    EventKind.IRREGULARITY: lambda s, e: s._open_alert(
        e, "irregularity" if e.detail.get("open", True) else "notice", "irregular move"),
    EventKind.ALERT_CLOSED: BoardState._alert_closed,
    EventKind.TAKEBACK: lambda s, e: s._take_back(int(e.detail.get("plies", 1)), e.time),
    EventKind.CROWNING_PENDING: lambda s, e: setattr(s, "crowning_pending", e.detail.get("square")),
    EventKind.BOARD_MISMATCH: lambda s, e: s._open_alert(e, "board_mismatch",
                                                         "no move explains the board"),
    EventKind.BOARD_MATCHED: lambda s, e: s._close_alerts("board_mismatch"),
    EventKind.CLOCK: BoardState._clock,
    EventKind.RESULT: BoardState._result,
    EventKind.CAMERA: BoardState._camera,
    EventKind.REFEREE: BoardState._referee,
}


def _rules(data: Any) -> Rules:
    if not isinstance(data, dict):
        return Rules()
    try:
        return Rules.from_dict(data)
    except (ValueError, TypeError):
        return Rules()



def _correction(record: GameRecord, text: str, replace_last: bool) -> Move | None:
    """The one legal move ``text`` names, if any: in the position before the last ply when
    it replaces that ply, else (an alert's irregular change was never recorded) now."""
    if replace_last and not record.game.plies:
        return None
    before = record.game.plies[-1].before if replace_last else record.game.position
    try:
        wanted = MoveText.parse(text)
    except ValueError:
        return None
    matches = [m for m in before.legal_moves(record.rules) if wanted.matches(m)]
    return matches[0] if len(matches) == 1 else None


def _described(text: str | None) -> Move | None:
    """A Move for the path of an irregular ply, not checked against the rules."""
    try:
        parsed = MoveText.parse(text) if text else None
    except ValueError:
        return None
    return None if parsed is None else Move(parsed.squares)


def _path(text: str | None) -> list[int]:
    return [int(s) for s in text.replace("x", "-").split("-")] if text else []


def _move_json(m: MoveEntry) -> dict[str, Any]:
    return {"ply": m.ply, "number": m.number, "side": m.side, "move": m.move, "fen": m.fen,
            "path": _path(m.move), "captured": m.captured, "irregular": m.irregular,
            "time": m.time}


def _alert_json(a: Alert) -> dict[str, Any]:
    return {"seq": a.seq, "kind": a.kind, "reason": a.reason, "side": a.side, "time": a.time,
            "detail": a.detail, "acknowledged": a.acknowledged}
