"""Acting on a chosen story: the events it means, each applied to the board's record at once.

The tracker's game is nothing but these events replayed (:class:`events.game.LoggedGame`),
the same replay the server and a restored tracker use, so what the tracker believes is what
its log says. Besides the record, :class:`Acts` keeps what the board still shows undone
(captured men not lifted, new kings not stacked): the log does not hold it, and readings
settle it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from makhos.engine import Colour, Move, Piece, Position, Rules
from makhos.engine.game import Game
from makhos.engine.position import Board
from makhos.engine.changes import (Hypothesis, Pending, Verdict, describe, describe_change,
                                   first_ply, missed_reply)
from makhos.engine.sanity import no_start
from makhos.events import EventKind, GameEvent
from makhos.events.details import (AlertClosed, AlertEnding, BoardMatched, BoardMismatch,
                            Crowned, CrowningPending, GameOver, GameStarted, Irregularity,
                            IrregularityKind, MovePlayed, Takeback)
from makhos.events.game import Alert, AlertKind, LoggedGame, line_moves

from .config import TrackerConfig
from .stories import Story, StoryKind, settled


@dataclass(frozen=True)
class NoGame:
    """No game on the board yet (or a new one announced): looking for its set-up."""


@dataclass(frozen=True)
class Playing:
    """A game in progress."""

    game: Game


@dataclass(frozen=True)
class Over:
    """The game has a result: looking for the next set-up, still comparing with this game."""

    game: Game


Phase = NoGame | Playing | Over


class Acts:
    """One board's record and the events that change it."""

    def __init__(self, board: str, rules: Rules | None, config: TrackerConfig) -> None:
        self.board_id = board
        self.config = config
        self.logged_game = LoggedGame(board, rules)
        # Squares where the board may still differ from the game in a known way: captured
        # men not lifted yet (the piece still there) and new kings not stacked (a man).
        self.overlay: dict[int, Piece] = {}
        self._crowning_alerted: set[int] = set()

    @property
    def phase(self) -> Phase:
        current = self.logged_game.current
        if not current.set_up:
            return NoGame()
        return Over(current.game) if current.result is not None else Playing(current.game)

    @property
    def alert(self) -> Alert | None:
        """The open alert whose board waits on a correction or on play going on."""
        return self.logged_game.board_alert()

    def configured(self, rules: Rules) -> Rules:
        """The rules with the configured first mover, if one is configured."""
        mover = self.config.first_mover
        return rules if mover is None else rules.with_(first_mover=mover)

    def apply(self, event: GameEvent) -> None:
        """Apply an event to the record, and what it says of the board still pending."""
        current = self.logged_game.current
        self.logged_game.apply(event)
        if self.logged_game.current is not current:  # a new game: nothing of the old one pends
            self.overlay, self._crowning_alerted = {}, set()
        if isinstance(event.detail, CrowningPending) and event.side is not None:
            # The new king still shows as a man until the opponent stacks it.
            self.overlay[event.detail.square] = Piece.of(event.side, False)
        elif isinstance(event.detail, Crowned):
            self.overlay.pop(event.detail.square, None)
        elif event.kind is EventKind.MOVE and (plies := self.logged_game.current.game.plies):
            landed = plies[-1].move
            if landed is not None:  # what still stood there (a man captured, not lifted) was lifted
                self.overlay.pop(landed.end, None)

    def _emit(self, kind: EventKind, time: float, game: int | None = None,
              **fields: Any) -> GameEvent:
        """Make an event, apply it, and return it with the plies it leaves."""
        event = GameEvent(self.board_id, kind, time,
                          game=self.logged_game.current.number if game is None else game, **fields)
        self.apply(event)
        current = self.logged_game.current
        return replace(event, ply=len(current.game.plies) if current.set_up else None)

    def crowned(self, square: int, colour: Colour, time: float) -> GameEvent:
        """The opponent has stacked the king on ``square``: said, so the pages stop saying
        it is pending."""
        return self._emit(EventKind.CROWNED, time, side=colour, detail=Crowned(square))

    def act(self, story: Story, time: float) -> list[GameEvent]:
        """The events that acting on ``story`` makes, each applied as it is made."""
        phase = self.phase
        if story.kind is StoryKind.START and story.turn is not None:
            assert story.rules is not None
            return self._named_start(story.rules, Position(*story.board, turn=story.turn), time)
        if story.kind is StoryKind.START:
            assert story.rules is not None
            events = self.start(story.rules, None, time)
            if story.moves and story.mover is not None:
                events += self._play(story.moves, story.mover, Pending(), time)
            return events
        if isinstance(phase, NoGame):
            return []
        if story.kind is StoryKind.MISMATCH:
            return self._mismatch(phase.game, story, time)
        if story.kind is StoryKind.ALERT_UNCHANGED:
            return []  # the irregular board still stands: still waiting for a correction
        if story.kind is StoryKind.STOOD:
            assert story.mover is not None  # the irregular board stands, then what followed
            events = self._stand(story.mover, time)
            events += self._explained(self.logged_game.current.game, story, time)
            return events + (self._again(story.then, time) if story.then is not None else [])
        events = self._matched(phase.game, time)
        if story.kind is StoryKind.GAP:
            if story.on_alert:
                assert story.mover is not None  # the attempt stands, its opponent played on unseen
                events += self._stand(story.mover, time)
            return events + (self.gap_irregular(story, time) if story.irregular else self.gap(story, time))
        if story.reread is not None:
            return events + self.reread(story, time)
        alert, h = self.alert, story.hypothesis
        if (alert is not None and alert.kind is AlertKind.IRREGULARITY and h is not None
                and h.verdict in (Verdict.MOVE, Verdict.TWO_PLIES, Verdict.MOVED_AND_MISSED)
                and alert.rule is not IrregularityKind.PARTIAL_CHAIN):
            # Legal play went on from the game's position, not from the irregular board:
            # the attempt was taken back and another move made.
            events.append(self._close_alert(time, AlertEnding.CORRECTED))
        return events + self._explained(phase.game, story, time)

    def _explained(self, game: Game, story: Story, time: float) -> list[GameEvent]:
        """The events of a hypothesis from the game's position (``story.mover`` makes its
        first ply)."""
        h = story.hypothesis
        assert h is not None and story.mover is not None
        events: list[GameEvent] = []
        if h.verdict is Verdict.UNCHANGED:
            if self.alert is not None:
                events.append(self._close_alert(time, AlertEnding.CORRECTED))
            return events
        if h.verdict is Verdict.MOVE:
            return self._play(h.moves, story.mover, h.pending, time, gap=story.gap)
        if h.verdict is Verdict.TWO_PLIES:
            # Both plies are legal and recorded; the referee is told the board skipped one,
            # unless the camera was away (then they are plies of the gap, marked so).
            events += self._play(h.moves, story.mover, h.pending, time, gap=story.gap)
            if story.gap is None:
                reason = describe(game.position, [h]).reason
                events.append(self._alert(time, reason, IrregularityKind.TWO_PLIES, story.mover,
                                          opens=False))
            return events
        if h.verdict is Verdict.TAKEBACK:
            if self.alert is not None:  # the board went back past the irregular change
                events.append(self._close_alert(time, AlertEnding.CORRECTED))
            after = game.positions()[-1 - h.plies_back]
            return events + [self._emit(EventKind.TAKEBACK, time, fen=after.fen(),
                                        reason=f"{h.plies_back} ply(s) taken back",
                                        detail=Takeback(h.plies_back))]
        if h.verdict is Verdict.PARTIAL_CHAIN:
            return events  # the chain may go on: the tracker raises the alert if it rests
        if h.verdict is Verdict.MOVED_AND_MISSED:
            # A legal move, then the reply that missed the capture it offered: the move is
            # recorded, the reply alerted on the board it leaves, waiting as any such board.
            events += self._play(h.moves[:1], story.mover, Pending(), time, gap=story.gap)
            return events + self.irregular(self.logged_game.current.game, missed_reply(h), time)
        if h.verdict in (Verdict.STOPPED_AND_REPLIED, Verdict.MISSED_AND_REPLIED):
            # Two changes in a row: the irregular ply's alert as if its board had settled,
            # then the reply played on from it, so the log reads as when the camera saw it.
            events += self.irregular(game, first_ply(game.position, h), time)
            return events + self._stood(h.moves[1], story.mover.opponent, time, h.pending)
        return events + self.irregular(game, h, time)

    def reread(self, story: Story, time: float) -> list[GameEvent]:
        """A ply legal only after the record's last plies are read with the other side to
        move after them (:mod:`tracker.parity`): those plies taken back, as a correction the
        log keeps, the other line recorded as the record had taken its plies (after a gap, or
        seen), then the ply. Nothing is renumbered unsaid."""
        other, h = story.reread, story.hypothesis
        assert other is not None and h is not None and story.mover is not None
        game = self.logged_game.current.game
        back = len(game.plies) - other.since
        line = " ".join(str(m) for stretch in other.stretches for m in stretch.moves)
        events = [self._emit(EventKind.TAKEBACK, time, fen=game.positions()[other.since].fen(),
                             reason=f"{back} ply(s) read again as {line}: {h.moves[0]} is legal after "
                                    f"them, not after the line first recorded", detail=Takeback(back))]
        side = other.mover
        for stretch in other.stretches:
            events += self._play(stretch.moves, side, Pending(), time, gap=stretch.gap,
                                 unconfirmed=stretch.unconfirmed)
            side = self.logged_game.current.game.position.turn
        return events + self._play(h.moves, story.mover, h.pending, time, gap=story.gap)

    def _again(self, h: Hypothesis, time: float) -> list[GameEvent]:
        """The side that has just moved moves again (``h``, out of turn): its first ply, if
        irregular, stands (its own side played on from it), and the second is alerted on
        the board it leaves, waiting as any irregular board does."""
        events = []
        alert = self.alert
        if alert is not None and alert.fen is not None:
            events += self._stand(Position.from_fen(alert.fen).turn, time)
        return events + self.irregular(self.logged_game.current.game, h, time)

    def start(self, rules: Rules, position: Position | None, time: float,
              turn_named: bool = False) -> list[GameEvent]:
        rules = self.configured(rules)
        start = position or Position.start(rules)
        current = self.logged_game.current
        number = current.number + 1 if current.set_up else current.number
        return [self._emit(EventKind.GAME_STARTED, time, game=number, fen=start.fen(),
                           side=start.turn, detail=GameStarted(rules, turn_named))]

    def _named_start(self, rules: Rules, position: Position, time: float) -> list[GameEvent]:
        """The referee's game from a position (a FEN, or the board read) begins, its side to
        move named; a board no game can start from is said, once, and nothing starts."""
        why = no_start(position, rules)
        if why is None:
            return self.start(rules, position, time, turn_named=True)
        reason = f"no game starts from the board read: {why}"
        fen = position.fen()
        if any(a.fen == fen and a.reason == reason for a in self.logged_game.alerts.values()):
            return []
        return [self._emit(EventKind.IRREGULARITY, time, side=position.turn, reason=reason, fen=fen,
                           detail=Irregularity(IrregularityKind.IMPOSSIBLE, open=False))]

    def gap(self, story: Story, time: float) -> list[GameEvent]:
        """Plies played while the board was unseen: one line, recorded as seen after the
        gap (marked unconfirmed where a line with an irregular ply is nearly as likely:
        ``story.unconfirmed``); several, a notice that lists them for the referee (offline:
        the likeliest, marked unconfirmed)."""
        assert story.mover is not None and story.lines and story.gap is not None
        line = story.lines[0]
        if len(story.lines) == 1 or self.config.offline:
            return self._play(line, story.mover, Pending(), time, gap=story.gap,
                              unconfirmed=len(story.lines) > 1 or story.unconfirmed)
        texts = tuple(" ".join(map(str, candidate)) for candidate in story.lines)
        shown = "; ".join(texts[:3]) + ("; ..." if len(texts) > 3 else "")
        after = Position(*story.board, turn=story.mover if len(line) % 2 == 0 else story.mover.opponent)
        return [self._emit(EventKind.IRREGULARITY, time, side=story.mover, fen=after.fen(),
                           reason=f"{len(line)} plies unseen during a gap of {story.gap:.0f} s: "
                                  f"{len(texts)} lines explain the board ({shown})",
                           detail=Irregularity(IrregularityKind.GAP, lines=texts, gap=story.gap))]

    def gap_irregular(self, story: Story, time: float) -> list[GameEvent]:
        """A line through a gap with one irregular ply (no legal line explains the board): its
        legal plies recorded as seen after the gap, the irregular ply alerted on the board it
        left, as the camera would have; plies played on from that board make it stand (its
        side played on), then are recorded too. Nothing is guessed beyond one irregular ply."""
        line = story.irregular
        assert line is not None and story.mover is not None and story.gap is not None
        events = self._play(line.before, story.mover, Pending(), time, gap=story.gap) if line.before else []
        game = self.logged_game.current.game
        events += self.irregular(game, line.ply, time)
        if not line.after:
            return events
        side = game.position.turn.opponent  # plays on from the irregular board
        events += self._stand(side, time)
        return events + self._play(line.after, side, Pending(), time, gap=story.gap)

    def _play(self, moves: tuple[Move, ...], mover: Colour, pending: Pending,
              time: float, gap: float | None = None, unconfirmed: bool = False,
              stood_for: int | None = None) -> list[GameEvent]:
        """Each move as a move event (``mover`` makes the first), then what they leave;
        ``gap``: seen only after the board was unseen that many seconds (``stood_for``:
        the gap notice whose likeliest line stands)."""
        events = []
        side = mover
        left = next((a for a in self.logged_game.alerts.values() if self.logged_game.stands(a)), None)
        for move in moves:
            record = self.logged_game.current
            before = record.position_for(side)
            forced = record.game.forced_move()
            events += self._crowning_check(side, time)
            ambiguous = _same_board_moves(before, move, record.rules) if len(moves) == 1 else []
            note = "path uncertain: " + ", ".join(ambiguous) if ambiguous else None
            events.append(self._emit(EventKind.MOVE, time, move=str(move),
                                     fen=before.play(move).fen(), side=side, reason=note,
                                     detail=MovePlayed(move.captured, ambiguous=tuple(ambiguous),
                                                       gap=gap, unconfirmed=unconfirmed,
                                                       stood_for=stood_for)))
            if forced is not None and not forced.matches(move):
                events.append(self._alert(time, f"deviation from the forced opening "
                                          f"({' - '.join(map(str, forced.squares))} was due)",
                                          IrregularityKind.FORCED_OPENING, side))
            side = self.logged_game.current.game.position.turn
        events += self._record_pending(pending, time)
        alert = self.alert
        if alert is not None and alert.rule is IrregularityKind.PARTIAL_CHAIN:
            events.append(self._close_alert(time, AlertEnding.CHAIN_FINISHED))
        elif left is not None:  # an alert left open on a board that stood (left_standing): played on
            events.append(self._close_alert(time, AlertEnding.STOOD, left))
        return events + self._result_events(time)

    def _record_pending(self, pending: Pending, time: float) -> list[GameEvent]:
        game = self.logged_game.current.game
        before = game.plies[-1].before
        for square in pending.removals:
            piece = before.piece_at(square)
            if piece is not None:
                self.overlay[square] = piece
        events = []
        for square in pending.crownings:
            king = game.position.piece_at(square)
            assert king is not None
            events.append(self._emit(
                EventKind.CROWNING_PENDING, time, side=king.colour,
                reason=f"{king.colour.value} man on {square} reached the far row: "
                       f"{king.colour.opponent.value} to crown it", detail=CrowningPending(square)))
        return events

    def captured_may_stand(self) -> None:
        """Taken up from the log: the men the game's last ply captured may still stand, as
        they did for the tracker that logged it, which the log does not say (a man lifted is
        no event). Pending, they are read as the capture's removals, not as a piece that
        moved against the rules or as the next move; a square read empty forgets its own at
        the first settled reading, as a man lifted does."""
        game = self.logged_game.current.game
        if not self.logged_game.current.set_up or not game.plies or game.result() is not None:
            return
        last = game.plies[-1]
        for square in () if last.move is None else last.move.captured:
            piece = last.before.piece_at(square)
            if piece is not None and game.position.piece_at(square) is None:
                self.overlay[square] = piece

    def _crowning_check(self, mover: Colour, time: float) -> list[GameEvent]:
        """The side that had to stack a new king moves without doing so: a notice."""
        events = []
        position = self.logged_game.current.game.position
        for square, shown in self.overlay.items():
            king = position.piece_at(square)
            if (king is not None and king.is_king and not shown.is_king and king.colour is mover.opponent
                    and square not in self._crowning_alerted):
                self._crowning_alerted.add(square)
                events.append(self._alert(time, f"crowning not done on {square}: "
                                          f"{mover.value} moved without stacking the new king",
                                          IrregularityKind.CROWNING, mover, opens=False))
        return events

    def irregular(self, game: Game, h: Hypothesis, time: float) -> list[GameEvent]:
        position = game.position
        explanation = describe(position, [h], game.positions()[:-1], game.rules)
        mover = position.turn.opponent if h.verdict is Verdict.WRONG_SIDE else position.turn
        board = Position(*h.settled, turn=mover.opponent)
        return [self._alert(time, explanation.reason, IrregularityKind(h.verdict.value), mover,
                            missed=tuple(str(m) for m in explanation.missed), fen=board.fen(),
                            move=None if h.shown is None else str(h.shown))]

    def _mismatch(self, game: Game, story: Story, time: float) -> list[GameEvent]:
        """A board no story explains, named by the catalogue: one piece moved against the
        rules is an irregular move its opponent may play on from; anything else (pieces
        added, removed, shifted) is a board that does not match, which either side may
        play on from."""
        if self.moved_on(story.board) is not None:
            # The irregular board stands: its side played on from it, the irregular way.
            assert self.alert is not None and self.alert.fen is not None
            events = self._stand(Position.from_fen(self.alert.fen).turn, time)
            return events + self._mismatch(self.logged_game.current.game, story, time)
        position = game.position
        seen = Position(*settled(story.board, position, self.overlay), turn=position.turn)
        change = describe_change(position, seen, game.start)
        rule = IrregularityKind(change.fault.value)
        if change.side is not None:
            board = seen.with_turn(change.side.opponent)
            return [self._alert(time, change.reason, rule, change.side, fen=board.fen(),
                                move=change.move)]
        differing = tuple(s for s in range(1, 33) if seen.piece_at(s) != position.piece_at(s))
        return [self._emit(EventKind.BOARD_MISMATCH, time, fen=seen.fen(), side=position.turn,
                           reason=change.reason, detail=BoardMismatch(differing, rule))]

    def moved_on(self, board: Board) -> Colour | None:
        """The side that moved one piece against the rules on the open irregular alert's
        board to make ``board`` (None: none did). A game under other rules goes on
        irregularly: a man that moved out of turn moves again, a king leaves its diagonal."""
        alert, game = self.alert, self.logged_game.current.game
        if alert is None or alert.kind is not AlertKind.IRREGULARITY or alert.fen is None:
            return None
        irregular = Position.from_fen(alert.fen)
        seen = Position(*settled(board, irregular, {}), turn=irregular.turn)
        return describe_change(irregular, seen, game.start).side

    def _matched(self, game: Game, time: float) -> list[GameEvent]:
        if not self.logged_game.mismatch:
            return []
        return [self._emit(EventKind.BOARD_MATCHED, time, fen=game.position.fen(),
                           detail=BoardMatched())]

    def _stood(self, reply: Move, side: Colour, time: float,
               pending: Pending = Pending()) -> list[GameEvent]:
        """``side`` played on from the open alert's board: the change stands as an irregular
        ply, then the move is played (RULES.md: the game goes on from the board), perhaps
        with steps still ``pending``."""
        events = self._stand(side, time)
        board = self.logged_game.current.game.position.with_turn(side)
        events.append(self._emit(EventKind.MOVE, time, move=str(reply), fen=board.play(reply).fen(),
                                 side=side, detail=MovePlayed(reply.captured)))
        return events + self._record_pending(pending, time) + self._result_events(time)

    def _stand(self, side: Colour, time: float) -> list[GameEvent]:
        """The open alert's board stands as an irregular ply, ``side`` to play on from it.
        Several lines through a gap that no referee chose between stand as the likeliest,
        unconfirmed (its board is the one played on)."""
        alert = self.alert
        assert alert is not None and alert.fen is not None
        record = self.logged_game.current
        mover = record.game.position.turn
        detail = alert.detail
        line = (line_moves(record.game, detail.lines[0])
                if isinstance(detail, Irregularity) and detail.lines else None)
        if line and isinstance(detail, Irregularity):
            events = self._play(tuple(line), mover, Pending(), time, gap=detail.gap,
                                unconfirmed=True, stood_for=alert.seq)
        else:
            events = [self._irregular_ply(alert, side, time)]
        if alert.kind is AlertKind.IRREGULARITY:
            events.append(self._close_alert(time, AlertEnding.STOOD, alert))
        return events + self._matched(self.logged_game.current.game, time)  # the board is the game's now

    def _irregular_ply(self, alert: Alert, side: Colour, time: float) -> GameEvent:
        """The move event of ``alert``'s board standing as a ply, ``side`` to play on. Its
        side is the irregular mover's (a side that moved out of turn or twice is not the
        side that was to move); a board no move explains has no mover: the side to move."""
        assert alert.fen is not None
        board = Position.from_fen(alert.fen).with_turn(side)
        mover = alert.side if alert.kind is AlertKind.IRREGULARITY and alert.side is not None \
            else self.logged_game.current.game.position.turn
        return self._emit(EventKind.MOVE, time, move=alert.move, fen=board.fen(), side=mover,
                          reason=alert.standing, detail=MovePlayed(irregular=True))

    def left_standing(self, time: float) -> list[GameEvent]:
        """The source ended with the open irregular alert's board still on it: nobody took
        the attempt back, nobody played on. The record keeps what the board shows, the
        irregular ply, as RULES.md asks (play continues from the actual board), and its
        alert stays open, never corrected nor answered, for the referee to judge. A board
        no move explains does not stand this way: only the referee makes one stand."""
        alert = self.alert
        if alert is None or alert.kind is not AlertKind.IRREGULARITY or alert.fen is None:
            return []
        return [self._irregular_ply(alert, Position.from_fen(alert.fen).turn, time)]

    def _close_alert(self, time: float, how: AlertEnding, alert: Alert | None = None) -> GameEvent:
        """The open alert (``alert``, one whose board stands already) ends; corrected on the
        board, it names the attempt taken back (its path and reason), which the score keeps
        before the next ply."""
        alert = alert or self.alert
        attempt = alert.move if alert is not None and how is AlertEnding.CORRECTED else None
        return self._emit(EventKind.ALERT_CLOSED, time, reason=alert.reason if alert else None,
                          move=attempt, detail=AlertClosed(how))

    def _result_events(self, time: float) -> list[GameEvent]:
        game = self.logged_game.current.game
        result = game.result()
        if result is None:
            return []
        return [self._emit(EventKind.RESULT, time, reason=result.reason, fen=game.position.fen(),
                           detail=GameOver(result.outcome))]

    def clock_signals(self, time: float) -> list[GameEvent]:
        """The per-move clock's signals due at ``time``, in a game in progress."""
        phase = self.phase
        if not isinstance(phase, Playing):
            return []
        side = phase.game.position.turn
        return [self._emit(EventKind.CLOCK, time, side=side, detail=signal)
                for signal in self.logged_game.clock.due(time)]

    def _alert(self, time: float, reason: str, rule: IrregularityKind, side: Colour,
               opens: bool = True, missed: tuple[str, ...] = (), fen: str | None = None,
               move: str | None = None) -> GameEvent:
        """An irregularity; ``fen`` is the irregular board, which a referee may let stand."""
        return self._emit(EventKind.IRREGULARITY, time, side=side, reason=reason, fen=fen,
                          move=move, detail=Irregularity(rule, opens, missed))


def _same_board_moves(before: Position, move: Move, rules: Rules) -> list[str]:
    """Every legal move that leaves the same board as ``move`` when there are several:
    the path the camera cannot tell."""
    target = before.play(move)
    same = [str(m) for m in before.legal_moves(rules) if before.play(m) == target]
    return same if len(same) > 1 else []

