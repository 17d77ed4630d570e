"""BoardSession: one camera, one board, from frames to logged events.

Events are appended to the log before the session hands them on, so whatever shows an
event (the live page, a PDN download) can only show what is already stored. A worker's
session writes through an :class:`~events.outbox.Outbox` instead (the camera must not wait
on the network): it accepts each event, keeps it and sends it in order, and what shows
events still reads them from the log. Between frames the session reads the log back to
the tracker: its own events come back numbered (a referee decision names an alert by its
seq), and referee decisions and camera notices, which others append, are applied to its
record.
"""

from __future__ import annotations

import os
import time as clock

import numpy as np

from makhos.engine import Piece, Position
from makhos.engine.game import Game
from makhos.engine.pdn import Numbering
from makhos.engine.starts import start_boards
from makhos.events import EventKind, EventLog, GameEvent
from makhos.events.details import CameraNotice, CameraStatus, ReaderAdapted
from makhos.events.game import replay
from makhos.events.outbox import Outbox
from makhos.tracker import GameTracker
from makhos.tracker.tracker import NoGame, Playing
from makhos.vision.pipeline import BoardReader, FrameResult, GameKnowledge, sides_misread
from makhos.vision.reading import Reading
from makhos.vision.start_check import board_labels

from .health import HealthWatch
from .unstarted import StartWatch

#: Seconds (wall clock) between two looks at the log.
DECISION_POLL = 0.25
#: Events after which the board is a position the game accepted: the reader learns from it.
#: A crowning alone is not one: the opponent stacks the king and goes on to move under the
#: same hand, so the frame that confirmed it often shows that move made already (julie-log8
#: taken up at ply 3 was taught 17-14 undone, and lost the game); the king is learnt with
#: the next position accepted.
ACCEPTED = frozenset({EventKind.MOVE, EventKind.BOARD_MATCHED, EventKind.TAKEBACK})
#: What the camera notice says when the light on the board changed under the reader.
RELIT_NOTICE = "the light changed: re-reading"


def shown(position: Position, overlay: dict[int, Piece], crowned_at: dict[int, int], plies: int) -> str:
    """What the board shows on each square (labels in square order) where the game has
    proved it: the position, except squares still pending (``overlay``: a man not lifted,
    a king not stacked), which are '?'. A king whose crowning is a ply old or more counts
    as stacked (the opponent crowns before moving): that is how the reader learns a king
    it still reads as a man.
    """
    out = []
    for square in range(1, 33):
        piece = position.piece_at(square)
        stacked = (piece is not None and piece.is_king
                   and crowned_at.get(square, plies) < plies)
        if square in overlay and not stacked:
            out.append("?")
        else:
            out.append("." if piece is None else piece.value)
    return "".join(out)


def crowned_at(game: Game) -> dict[int, int]:
    """Each square a man was crowned on by a legal ply, and that ply's number (the last, where
    several were): :func:`shown` takes a king a ply old or more as stacked."""
    return {ply.move.end: number for number, ply in enumerate(game.plies, start=1)
            if ply.move is not None and ply.move.crowns and not ply.is_irregular}


class BoardSession:
    def __init__(self, reader: BoardReader | None, tracker: GameTracker,
                 log: EventLog | Outbox | None = None, seen: int | None = None) -> None:
        """``reader``: None where readings come made (a replayed game: :meth:`observe`).
        ``seen``: the last seq the tracker already knows (a tracker resumed from the log);
        by default everything logged before this session is history."""
        self.reader = reader
        self.tracker = tracker
        self.log = log
        self.last: FrameResult | None = None
        self.image: np.ndarray | None = None  # the frame ``last`` was made of (a review's picture)
        self.health = HealthWatch()
        self.unstarted = StartWatch()
        history = self._history()
        self._seen = (history[-1].seq if history else 0) if seen is None else seen
        # What the reader kept in the log with the current game (refits and lessons, in
        # order; ``GameLearning``), and the refit in force among them.
        self._kept: list[str] = []
        self._kept_game: int | None = None  # the game they were kept with
        self._in_force: str | None = None
        # A game taken up from its log: frames up to its last event only warm the vision
        # (the follower's and gate's views), as the log holds what they show already.
        self._history_until = tracker.resumed
        self._polled = -np.inf
        self._in_play = False  # whether the reader was told a game is in play
        self._relit_said = False  # the light changed and that was said (``_relit``)
        self._untaught: int | None = None  # plies of a board the game took and never taught (``_teach``)
        self._tell_reader(self._kept_by_reader(history), in_play=False)
        taken_up = None if self.reader is None else self.reader.adaptation
        # A refit the reader fit anew on taking up the game is kept like any other (feed).
        self._in_force = taken_up if taken_up in self._kept else None

    def read_with(self, reader: BoardReader) -> None:
        """Read from now on with ``reader`` (corners saved on the calibration page), told
        what the game knows as the first one was."""
        self.reader = reader
        self._tell_reader(tuple(self._kept), in_play=not isinstance(self.tracker.phase, NoGame))

    def _tell_reader(self, kept: tuple[str, ...], in_play: bool) -> None:
        """Hand the reader what the game knows: the set-ups the tracker looks for, the board
        of a game in progress (found again mid-game, numbered as the log has it), whether a
        game is in play, and what the reader kept with the game (its refits and lessons)."""
        if self.reader is None:
            return
        game = self.tracker.game
        going = game is not None and game.result() is None
        self.reader.follow(GameKnowledge(tuple(start_boards(self.tracker.rules)),
                                         game.position.board if going and game is not None else None,
                                         in_play, kept))
        self._in_play = in_play

    def _kept_by_reader(self, history: list[GameEvent]) -> tuple[str, ...]:
        """What the reader kept with a game taken up mid-way (its refits and lessons, in the
        order kept), to read and learn with again; nothing for a game over or none."""
        game = self.tracker.game
        if game is None or game.result() is not None:
            return ()
        number = self.tracker.logged_game.current.number
        self._kept_game = number
        self._kept = [e.detail.adaptation for e in history
                      if isinstance(e.detail, ReaderAdapted) and e.game == number]
        return tuple(self._kept)

    def feed(self, image: np.ndarray, time: float) -> list[GameEvent]:
        """Process one frame; returns the events it caused, already stored (or, behind an
        outbox, accepted: numbered once the log takes them)."""
        if self.reader is None:
            raise ValueError("a session without a reader takes readings (observe), not frames")
        self.last, self.image = self.reader.process(image, time), image
        if self._history_until is not None and time <= self._history_until:
            return []
        if self.last.glimpse is not None:
            self.tracker.glimpse(self.last.glimpse)
        events = self.observe(time, self.last.reading)
        lesson = self._teach(events)
        if lesson is not None:
            events.append(self._keep(time, lesson))
        events += self._relit(time, self.last.reading)
        if self.reader.adaptation != self._in_force:
            if not isinstance(self.tracker.phase, NoGame):  # kept with the game it started
                self._in_force = self.reader.adaptation
                if self._in_force is not None:
                    events.append(self._keep(time, self._in_force))
        if not self._in_play and not isinstance(self.tracker.phase, NoGame):
            self._tell_reader((), in_play=True)
        status = self.health.update(self.last, isinstance(self.tracker.phase, Playing),
                                    self._unexplained(self.last.reading),
                                    moved=any(e.kind in ACCEPTED for e in events))
        if status is not None:
            assert self.health.health is not None  # update() has just set it
            events.append(self.camera_notice(time, status, self.health.health.describe()))
        status = self.unstarted.update(self.last, isinstance(self.tracker.phase, NoGame),
                                       self.reader.start_verdict)
        if status is not None:
            events.append(self.camera_notice(time, status, self.unstarted.reason))
        return events

    def _unexplained(self, reading: Reading | None) -> tuple[int, ...]:
        """The squares on which a settled reading puts another side (or none) than the board
        the game shows, or an open alert's board, where they are more than a misread's few:
        a board read but followed by no story. The health raises it when it lasts, so a
        recording that has stopped following the game says so instead of waiting unheard."""
        game = self.tracker.game
        if reading is None or game is None:
            return ()
        boards = [shown(game.position, self.tracker.overlay, crowned_at(game), len(game.plies))]
        alert = self.tracker.alert
        if alert is not None and alert.fen is not None:
            boards.append(shown(Position.from_fen(alert.fen), {}, {}, 0))
        fewest = min((sides_misread(reading.probabilities, board) for board in boards), key=len)
        return fewest if len(fewest) > self.tracker.config.misread_squares else ()

    def _teach(self, events: list[GameEvent]) -> str | None:
        """A position the game accepted is a labelled picture of this board: hand the reader
        what its squares show (after the events are stored: never on the way to a move).
        A start the tracker confirmed adapts a reader that never saw it (``BoardReader.started``).
        Only a read of the accepted board is taught it: one that puts other sides on more
        squares than a misread's few shows another board (a crowning confirmed on a frame
        where the next move was already made under the same hand: taught the board before
        that move, the reader read every later frame as it, and julie-log4 taken up on the
        camera's next file took the move back). Returns the reader's lesson, to keep with
        the game."""
        game = self.tracker.game
        started = any(e.kind is EventKind.GAME_STARTED for e in events)
        accepted = any(e.kind in ACCEPTED for e in events)
        if self.reader is None or self.tracker.alert is not None or game is None:
            return None
        if not (started or accepted):
            return self._taught_later(game)
        board = shown(game.position, self.tracker.overlay, crowned_at(game), len(game.plies))
        if started:
            self.reader.started(board)
        reading = None if self.last is None else self.last.reading
        if not accepted or reading is None \
                or len(sides_misread(reading.probabilities, board)) > self.tracker.config.misread_squares:
            # The read shows more than a misread's few off the board: no label of it, but a
            # later read of the same board may be one.
            self._untaught = len(game.plies) if accepted else None
            return None
        self._untaught = None
        return self.reader.learn(board)

    def _taught_later(self, game: Game) -> str | None:
        """A board the game took on a frame read too far off it to teach (a hand leaving,
        or a reader that has never been taught misreading dark squares as men: kingplay
        70021, 3-4 squares off on each ply's frame) is taught on a later settled read of it,
        while no ply follows, within a misread's few of it and nearer it than any board a
        legal ply leads to (a frame that already shows the next ply is no label of this
        one). Untaught, the reader misread the board after plies made under a sleeve on
        3-6 squares more than the plies changed, and no gap's line explained it."""
        reading = None if self.last is None else self.last.reading
        if self._untaught is None or reading is None or self._untaught != len(game.plies) \
                or self.reader is None:
            return None
        board = shown(game.position, self.tracker.overlay, crowned_at(game), len(game.plies))
        off = len(sides_misread(reading.probabilities, board))
        if off > self.tracker.config.misread_squares:
            return None
        if any(len(sides_misread(reading.probabilities, board_labels(game.position.play(move)))) <= off
               for move in game.position.legal_moves()):
            return None
        self._untaught = None
        return self.reader.learn(board)

    def _relit(self, time: float, reading: Reading | None) -> list[GameEvent]:
        """A read made in new light (``Reading.relit``: a shadow fell, a lamp went off) that
        puts other sides than the game's board on more squares than a ply changes
        (``relit_squares``) is the reader's doing: said once as a camera notice, and the
        tracker records no board of it (``GameTracker``). If nothing moved over the board
        since the game last taught the reader, the board is still the one the game accepted:
        the reader adapts on the new frame with it (``BoardReader.relight``), as on the
        start, and reads through the new light. If a hand crossed the board, plies may have
        been made under it (kingplay 70012: two, as a shadow fell): the reader weighs the
        boards they can lead to against the frame and adapts on the squares those it
        supports agree on (``GameTracker.boards_since``), and on which the boards it may
        also show agree with them where they fit as well (``GameTracker.boards_doubted``,
        ``GameTracker.plies_beyond``), and the tracker then explains the board read through
        the new light as any other."""
        game = self.tracker.game
        if reading is None:
            return []  # covered: the light is what the next read says
        if not reading.relit:
            self._relit_said = False
            return []
        if self.reader is None or game is None or self.tracker.alert is not None:
            return []
        board = shown(game.position, self.tracker.overlay, crowned_at(game), len(game.plies))
        if len(sides_misread(reading.probabilities, board)) <= self.tracker.config.relit_squares:
            return []
        events = []
        if not self._relit_said:
            self._relit_said = True
            events.append(self.camera_notice(time, CameraStatus.RELIT, RELIT_NOTICE))
        tracker = self.tracker
        self.reader.relight(board, tracker.boards_since(), tracker.boards_doubted(), tracker.plies_beyond())
        return events

    def _keep(self, time: float, kept: str) -> GameEvent:
        """Keep what the reader learnt (its refit on the start or on positions the game
        accepted, or a lesson) with the game, stored."""
        game = self.tracker.game
        number = self.tracker.logged_game.current.number
        if self._kept_game != number:  # a new game: what the reader kept before is done with
            self._kept, self._kept_game = [], number
        self._kept.append(kept)
        return self._store(GameEvent(self.tracker.board_id, EventKind.READER_ADAPTED, time, game=number,
                                     ply=None if game is None else len(game.plies),
                                     detail=ReaderAdapted(kept)))

    def camera_notice(self, time: float, status: CameraStatus | CameraNotice,
                      reason: str | None = None) -> GameEvent:
        """Say what became of the camera (lost, back, ended, the board unreadable, a source
        taken up), stored. A recording that ended first stores what the tracker makes of
        the board left on it (:meth:`GameTracker.ended`), and, where no game started, why
        not (:meth:`StartWatch.ended`), so that the log of such a recording says it."""
        detail = status if isinstance(status, CameraNotice) else CameraNotice(status)
        if detail.status is CameraStatus.ENDED:
            for made in self.tracker.ended(time):
                self._store(made)
            verdict = None if self.reader is None else self.reader.start_verdict
            if isinstance(self.tracker.phase, NoGame) and self.unstarted.ended(time, verdict):
                self.camera_notice(time, CameraStatus.UNREADABLE, self.unstarted.reason)
        game = self.tracker.game
        event = self._store(GameEvent(self.tracker.board_id, EventKind.CAMERA, time,
                                      game=self.tracker.logged_game.current.number, ply=None if game is None else len(game.plies),
                                      reason=reason, detail=detail))
        if self.log is None:  # no log to read it back from: the tracker's logged game takes it now
            self.tracker.logged(event)
        return event

    def observe(self, time: float, reading: Reading | None) -> list[GameEvent]:
        """Take a Reading made without this session's reader (a replayed game in a hall
        bench or test): the same decisions, tracker and log as a camera frame."""
        self._read_back()
        events = [self._store(event) for event in self.tracker.observe(time, reading)]
        if events and self.check_replay:
            self.assert_one_truth()
        return events

    #: ``MAKHOS_CHECK_REPLAY=1``: after every event, check that the tracker's game is the
    #: replay of the log (a debugging aid: it reads the whole log each time).
    check_replay = os.environ.get("MAKHOS_CHECK_REPLAY") == "1"

    def assert_one_truth(self) -> None:
        """The live tracker's game is the game the log replays to, ply for ply: whatever the
        tracker believes, a restarted worker or the server would believe too."""
        if self.log is None:
            return
        if isinstance(self.log, Outbox):
            self.log.flush(10.0)  # wait until the log has all
        self._polled = -np.inf
        self._read_back()
        events = self.log.read_board(self.tracker.board_id)
        logged = replay(events, self.tracker.board_id, self.tracker.rules).current
        live = self.tracker.game
        logged_positions = logged.game.positions() if logged.set_up else []
        live_positions = live.positions() if live is not None else []
        if logged_positions != live_positions:
            raise AssertionError(f"board {self.tracker.board_id}: the tracker's game ({len(live_positions)} "
                                 f"positions) is not the log's ({len(logged_positions)}) after seq "
                                 f"{events[-1].seq if events else 0}")

    def _store(self, event: GameEvent) -> GameEvent:
        """The event as logged (numbered), before anyone is shown it; behind an outbox, as
        accepted (kept, and numbered when the log takes it)."""
        if isinstance(self.log, Outbox):
            self.log.accept(event)
            return event
        return self.log.append(event) if self.log is not None else event

    def pdn(self, tags: dict[str, str] | None = None,
            numbering: Numbering = Numbering.FIRST_MOVER) -> str | None:
        """The PDN of the current game, None before a game has started."""
        record = self.tracker.logged_game.current
        return record.pdn(tags, times=False, numbering=numbering) if record.set_up else None

    def resumed(self, now: float) -> str | None:
        """What the recorder says at start-up when it takes up a game from its log: which
        game, at which ply, and ``now - `` the last event's time later (in the log's time
        base: a video's seconds, or the wall clock)."""
        last, record = self.tracker.resumed, self.tracker.logged_game.current
        if last is None or not record.set_up:
            return None
        state = "over" if record.result is not None else f"at ply {len(record.moves)}"
        return (f"resuming game {record.number} from the log {state}, "
                f"{max(now - last, 0.0):.0f} s after its last event")

    def _history(self) -> list[GameEvent]:
        """Every event of the board's log so far."""
        return self.log.read_board(self.tracker.board_id) if self.log is not None else []

    def _read_back(self) -> None:
        now = clock.monotonic()
        if self.log is None or now - self._polled < DECISION_POLL:
            return
        self._polled = now
        for event in self.log.read(self.tracker.board_id, after=self._seen):
            self._seen = event.seq
            self.tracker.logged(event)
