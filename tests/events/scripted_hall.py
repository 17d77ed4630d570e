"""A scripted session at one hall board: a live tracker behind a BoardSession and a log,
a referee and a camera that drops out, through every kind of event and every decision.

The tracker sees certain readings (the vision stage is not under test here); everything
after it runs as in a hall: events are stored before the next frame, the session reads
the log back (numbering the tracker's alerts, applying decisions and camera notices), and
referee decisions are appended to the log as the console appends them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import pytest

from makhos.engine import Colour, Piece, Position, Rules
from makhos.engine.game import Game, Outcome
from makhos.events import EventKind, GameEvent, SQLiteLog
from makhos.events import decisions as ra
from makhos.events.details import CameraNotice, CameraStatus, ReaderAdapted, Unreadable
from makhos.events.game import LoggedGame
from makhos.session import session as session_module
from makhos.session.session import BoardSession
from makhos.tracker import GameTracker
from makhos.vision.reading import Reading

BOARD = "7"


def snapshot(record: LoggedGame, numbered: bool = True) -> dict[str, Any]:
    """A record as plain data to compare: every game with its plies, moves and result, the
    open alerts (with the seqs that name them, when ``numbered``), the clock, the match."""
    return {
        "rules": record.rules,
        "games": [{"number": g.number, "rules": g.rules, "set_up": g.set_up, "start": g.game.start,
                   "plies": [(p.before, p.after, str(p.move) if p.move else None, p.irregularity)
                             for p in g.game.plies],
                   "result": g.result, "moves": [asdict(m) for m in g.moves],
                   "extra_used": {side: list(used) for side, used in g.extra_used.items()}}
                  for g in record.games],
        "alerts": [((key, a.seq) if numbered else (), a.kind, a.reason, a.side, a.time, a.detail,
                    a.fen, a.move, a.acknowledged) for key, a in record.alerts.items()],
        "clock": (record.clock.side, record.clock.started, record.clock.extra_seconds,
                  record.clock.level, sorted(record.clock.signalled)),
        "match": asdict(record.match),
        "camera": record.camera,
        "crowning_pending": record.crowning_pending,
    }


@dataclass
class Hall:
    """One board: its log, its session, and snapshots of the live record as the log grows."""

    log: SQLiteLog = field(default_factory=SQLiteLog)
    time: float = 0.0  # the camera's clock
    wall: float = 1_800_000_000.0  # the referee console's clock
    snapshots: list[tuple[int, dict[str, Any]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.session = BoardSession(None, GameTracker(BOARD), self.log)

    @property
    def tracker(self) -> GameTracker:
        return self.session.tracker

    def events(self) -> list[GameEvent]:
        return self.log.read(BOARD, limit=100_000)

    def _frame(self, reading: Reading | None) -> None:
        self.session.observe(self.time, reading)
        # Its own newest events are numbered when the session next reads the log back.
        self.snapshots.append((len(self.events()), snapshot(self.tracker.logged_game, numbered=False)))

    def show(self, position: Position | str, frames: int = 4, step: float = 1 / 15) -> None:
        if isinstance(position, str):
            position = Position.from_fen(position)
        for _ in range(frames):
            self.time += step
            self._frame(Reading.certain(position, self.time))

    def hand(self, frames: int = 6) -> None:
        for _ in range(frames):
            self.time += 1 / 15
            self._frame(None)

    def wait(self, seconds: int, position: Position) -> None:
        self.show(position, frames=seconds, step=1.0)

    def referee(self, action: ra.RefereeAction, game: int | None = None) -> None:
        self.wall += 7
        number = self.tracker.logged_game.current.number if game is None else game
        self.log.append(action.to_event(BOARD, number, self.wall))

    def camera(self, status: CameraStatus) -> None:
        self.log.append(GameEvent(BOARD, EventKind.CAMERA, self.time,
                                  game=self.tracker.logged_game.current.number,
                                  detail=CameraNotice(status)))

    def alert_seq(self) -> int:
        return max(e.seq for e in self.events() if e.kind in (EventKind.IRREGULARITY,
                                                              EventKind.BOARD_MISMATCH))

    def play(self, game: Game, text: str) -> None:
        game.play_text(text)
        self.hand()
        self.show(game.position)

    def until_capture(self, game: Game) -> None:
        """Quiet moves until the side to move must capture."""
        while not game.legal_moves()[0].is_capture:
            moves = game.legal_moves()
            self.play(game, str(moves[len(game.plies) % len(moves)]))


def play_session(monkeypatch: pytest.MonkeyPatch) -> Hall:
    """The whole script; returns the hall with its log and the live record's snapshots."""
    monkeypatch.setattr(session_module, "DECISION_POLL", 0.0)  # read the log back every frame
    hall = Hall()
    hall.referee(ra.SetPlayers("Somchai", "Malee", "R3", 2), game=1)
    hall.show(Position.start())  # game_started
    game = Game(Rules(first_mover=Colour.LIGHT))  # light moves first: the first move decides
    hall.until_capture(game)
    # A missed capture, acknowledged; the board is put back (corrected), then the capture.
    capture = game.legal_moves()[0]
    hall.hand()
    hall.show(game.position.play(game.position.plain_moves()[0]))
    hall.referee(ra.Acknowledge(hall.alert_seq()))
    hall.hand()
    hall.show(game.position)
    hall.play(game, str(capture))
    # Another missed capture, and the opponent plays on: the irregular move stands.
    hall.until_capture(game)
    plain = game.position.plain_moves()[0]
    irregular = game.position.play(plain)
    hall.hand()
    hall.show(irregular)
    reply = irregular.legal_moves()[0]
    hall.hand()
    hall.show(irregular.play(reply))
    game.play_irregular(irregular, "stood", plain)
    game.play(reply)
    # A piece knocked off the board (a mismatch), put back; a move taken back on the board;
    # then two plies seen at once.
    pieces = game.position.pieces()
    gone = min(s for s, p in pieces.items() if p.colour is Colour.LIGHT)
    hall.hand()
    hall.show(Position.from_pieces({s: p for s, p in pieces.items() if s != gone},
                                   game.position.turn), frames=50)  # past a misread's time
    hall.show(game.position)
    first = game.legal_moves()[0]
    hall.hand()
    hall.show(game.position.play(first))
    hall.hand()
    hall.show(game.position)
    game.play(first)
    game.play(game.legal_moves()[0])
    hall.hand()
    hall.show(game.position)
    # The clock runs out while the camera is away; extra time; then a move.
    hall.camera(CameraStatus.LOST)
    hall.wait(125, game.position)
    hall.camera(CameraStatus.BACK)
    hall.referee(ra.GrantExtraTime(game.position.turn, 5))
    hall.wait(10, game.position)
    hall.play(game, str(game.legal_moves()[0]))
    # The referee replaces the last ply (no alert), then takes one back; the board follows.
    last = game.plies[-1]
    other = next(m for m in last.before.legal_moves(game.rules) if m != last.move)
    hall.referee(ra.CorrectMove(str(other)))
    game.take_back(1)
    game.play(other)
    hall.hand()
    hall.show(game.position)
    hall.referee(ra.TakeBack(1))
    game.take_back(1)
    hall.hand()
    hall.show(game.position)
    # Moves out of turn: one alert dismissed, one accepted.
    for decide in (ra.Dismiss, ra.AcceptMove):
        other_side = game.position.with_turn(game.position.turn.opponent)
        wrong = other_side.play(other_side.legal_moves()[0])
        hall.hand()
        hall.show(wrong)
        hall.referee(decide(hall.alert_seq()))
        if decide is ra.Dismiss:
            hall.hand()
            hall.show(game.position)
            hall.play(game, str(game.legal_moves()[0]))
        else:
            game.play_irregular(Position(*wrong.board, turn=game.position.turn), "accepted")
    # A missed capture the referee corrects (the capture due now) before the board does.
    hall.until_capture(game)
    capture = game.legal_moves()[0]
    hall.hand()
    hall.show(game.position.play(game.position.plain_moves()[0]))
    hall.referee(ra.CorrectMove(str(capture), alert=hall.alert_seq()))
    game.play(capture)
    hall.hand()
    hall.show(game.position)
    # A knocked piece the referee lets stand.
    pieces = game.position.pieces()
    gone = max(s for s, p in pieces.items() if p.colour is game.position.turn.opponent)
    knocked = Position.from_pieces({s: p for s, p in pieces.items() if s != gone}, game.position.turn)
    hall.hand()
    hall.show(knocked, frames=50)  # past a misread's time
    hall.referee(ra.AcceptMove(hall.alert_seq()))
    game.play_irregular(knocked, "accepted")  # no side moved: the same side is still to move
    hall.show(game.position)
    # A malformed entry in the log is skipped by every reader.
    hall.log.append(GameEvent(BOARD, EventKind.REFEREE, hall.wall + 1, detail=Unreadable(
        EventKind.REFEREE, {"action": "take_back", "plies": "all"}, "plies must be a number")))
    for _ in range(3):
        if game.legal_moves():
            hall.play(game, str(game.legal_moves()[-1]))
    hall.referee(ra.SetResult(Outcome.DRAW, "agreement"))

    # Game 2: announced with a forced opening and the 10-move count; dark deviates; the
    # referee replaces light's reply; light wins by resignation.
    hall.referee(ra.NewGame({"count_rule_moves": 10, "forced_opening": ["26-22"]}), game=2)
    second = Game(Rules(count_rule_moves=10, forced_opening=("26-22",)))
    hall.hand()
    hall.show(second.position)
    hall.play(second, "25-21")
    hall.play(second, "5-9")
    hall.referee(ra.CorrectMove("6-10"))
    second.take_back(1)
    second.play_text("6-10")
    hall.hand()
    hall.show(second.position)
    hall.referee(ra.SetResult(Outcome.LIGHT_WINS, "resignation"))

    # Game 3 from a position the referee confirmed: a chain shown jump by jump that rests
    # (chain stopped early), then finishes; the new king is stacked late, after the
    # opponent moved without stacking it; played on to the end.
    hall.wait(3, second.position)
    start = Position.from_fen("B:W15,7,2,20:B19,30")
    for event in hall.tracker.start_from(start, hall.time):
        hall.log.append(event)
    third = Game(hall.tracker.rules, start)
    hall.hand()
    hall.show("W:W15,7,2,20:B10,30", frames=3)
    hall.wait(3, Position.from_fen("W:W7,2,20:B10,30"))
    hall.hand()
    third.play_text("19x10x3")
    unstacked = {**third.position.pieces(), 3: Piece.of(Colour.DARK, False)}
    hall.show(Position.from_pieces(unstacked, third.position.turn))
    third.play_text("20-24")
    del unstacked[20]
    unstacked[24] = Piece.of(Colour.LIGHT, False)
    hall.hand()
    hall.show(Position.from_pieces(unstacked, third.position.turn))
    hall.show(third.position)
    while third.result() is None:
        moves = third.legal_moves()
        hall.play(third, str(moves[len(third.plies) * 7 % len(moves)]))
    # The reader's refit on a start is kept in the log; the replay has no rule for it.
    hall.log.append(GameEvent(BOARD, EventKind.READER_ADAPTED, hall.time,
                              game=hall.tracker.logged_game.current.number,
                              detail=ReaderAdapted('{"kind": "board-reader-adaptation"}')))
    hall.hand(1)  # the session reads the last events back
    return hall
