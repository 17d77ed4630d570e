"""GameTracker: settled readings in, a refereed game and its events out.

Each settled reading is scored against every story the rules allow (:mod:`tracker.stories`)
and a story is chosen only when it is clearly the best (:mod:`tracker.choice`); it is acted
on once it has been chosen for ``confirm_readings`` readings in a row. Acting means making
events, and the tracker's game is nothing but those events replayed
(:class:`events.record.BoardRecord`), the same replay the server and a restarted tracker
use: what the tracker believes is what its log says.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterable

from engine import Colour, Move, Piece, Position, Rules
from engine.game import Game
from engine.referee import Hypothesis, Pending, Verdict, describe, describe_change
from events import EventKind, GameEvent
from events.details import (AlertClosed, AlertEnding, BoardMatched, BoardMismatch,
                            CrowningPending, GameOver, GameStarted, Irregularity,
                            IrregularityKind, MovePlayed, Takeback)
from events.record import Alert, BoardRecord
from vision.reading import CLASS_INDEX, Reading

from .choice import Candidates, best_story
from .config import TrackerConfig
from .starts import start_rules
from .stories import OpenBoard, Story, StoryKind, game_stories, start_stories

__all__ = ["GameTracker", "NoGame", "Over", "Playing", "TRACKER_KINDS", "TrackerConfig"]

#: The kinds of event a tracker makes; others in a board's log (referee decisions, camera
#: notices) come from elsewhere and are applied when read back.
TRACKER_KINDS = frozenset(EventKind) - {EventKind.REFEREE, EventKind.CAMERA}

#: Probability at which a square shows what the game says, so a pending step is done.
_SETTLED = 0.8


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


@dataclass
class _Streak:
    story: Story
    count: int
    since: float
    acted: bool = False


class GameTracker:
    """Keeps one board's game in step with what the camera settles on."""

    def __init__(self, board: str, rules: Rules | None = None,
                 config: TrackerConfig | None = None) -> None:
        self.board_id = board
        self.config = config or TrackerConfig()
        self.record = BoardRecord(board, rules)
        # Squares where the board may still differ from the game in a known way: captured
        # men not lifted yet (the piece still there) and new kings not stacked (a man).
        self.overlay: dict[int, Piece] = {}
        self._crowning_alerted: set[int] = set()
        self._streak: _Streak | None = None
        self._cache: tuple[tuple[object, ...], Candidates] | None = None

    # ------------------------------------------------------------ what it knows

    @property
    def rules(self) -> Rules:
        """The rules a new game's set-up is looked for under."""
        return self.record.rules

    @property
    def phase(self) -> Phase:
        current = self.record.current
        if not current.set_up:
            return NoGame()
        return Over(current.game) if current.result is not None else Playing(current.game)

    @property
    def game(self) -> Game | None:
        """The game in progress or just over; None before a set-up was seen."""
        phase = self.phase
        return None if isinstance(phase, NoGame) else phase.game

    @property
    def alert(self) -> Alert | None:
        """The open alert whose board waits on a correction or on play going on."""
        return self.record.board_alert()

    # ------------------------------------------------------------ input

    def observe(self, time: float, reading: Reading | None) -> list[GameEvent]:
        """Take one frame's outcome: a settled reading, or None while the board is covered."""
        events = self._clock_events(time)
        if reading is None:
            self._streak = None
            return events
        story = best_story(reading, self._candidates(), self.config)
        if story is None:
            self._streak = None
            return events
        if self._streak and self._streak.story.decision == story.decision:
            self._streak.count += 1
        else:
            self._streak = _Streak(story, 1, time)
        streak = self._streak
        needed = (self.config.confirm_mismatch if story.kind is StoryKind.MISMATCH
                  else self.config.confirm_readings)
        if not streak.acted and streak.count >= needed:
            streak.acted = True
            events += self._act(story, time)
        events += self._patience(time)
        self._settle_overlay(reading)
        return events

    def start_from(self, position: Position, time: float) -> list[GameEvent]:
        """Start a game from any position (read from the board, confirmed by the referee)."""
        return self._start(self.rules, position, time)

    def restore(self, events: Iterable[GameEvent]) -> int:
        """Take up a board's game where its log leaves it; returns the last seq.

        A worker killed mid-game restarts with a fresh tracker; replaying the log puts it
        where it was, so nothing logged is said again and whatever happened meanwhile is
        explained against the right position. What the log does not hold is harmless:
        captured men not lifted yet are read as the move's pending removals again.
        """
        last = 0
        for event in events:
            last = event.seq or last
            self._apply(event)
        return last

    def logged(self, event: GameEvent) -> None:
        """An event read back from the board's log: one of the tracker's own (now numbered,
        so a referee decision can name its alert), or a decision or notice from elsewhere,
        which is applied once (the event is the decision; nothing is emitted for it)."""
        if event.kind in TRACKER_KINDS:
            self.record.number(event)
        else:
            self._apply(event)

    # ------------------------------------------------------------ the record

    def _apply(self, event: GameEvent) -> None:
        current = self.record.current
        self.record.apply(event)
        if self.record.current is not current:  # a new game: nothing of the old one pends
            self.overlay, self._crowning_alerted = {}, set()
        if isinstance(event.detail, CrowningPending) and event.side is not None:
            # The new king still shows as a man until the opponent stacks it.
            self.overlay[event.detail.square] = Piece.of(event.side, False)

    def _emit(self, kind: EventKind, time: float, game: int | None = None,
              **fields: Any) -> GameEvent:
        """Make an event, apply it, and return it with the plies it leaves."""
        event = GameEvent(self.board_id, kind, time,
                          game=self.record.current.number if game is None else game, **fields)
        self._apply(event)
        current = self.record.current
        return replace(event, ply=len(current.game.plies) if current.set_up else None)

    # ------------------------------------------------------------ choosing a story

    def _candidates(self) -> Candidates:
        """The stories of the tracker's state, rebuilt only when that state changes."""
        phase = self.phase
        alert = self.alert
        if isinstance(phase, Playing):
            game = phase.game
            key: tuple[object, ...] = (
                id(self.record.current), id(game), len(game.plies), game.position,
                tuple(sorted(self.overlay.items())), id(alert), self.record.mismatch)
        else:
            key = (type(phase), self.rules)
        if self._cache is None or self._cache[0] != key:
            fixed = self.config.first_mover is not None
            if isinstance(phase, Playing):
                board = None if alert is None or alert.fen is None else OpenBoard(
                    Position.from_fen(alert.fen), can_stand=not self.record.mismatch)
                stories = game_stories(phase.game, fixed, self.overlay, board)
            else:
                stories = start_stories(self._start_rules(), fixed)
            self._cache = (key, Candidates.of(stories))
        return self._cache[1]

    def _start_rules(self) -> list[Rules]:
        return [self._configured(rules) for rules in start_rules(self.rules)]

    def _configured(self, rules: Rules) -> Rules:
        """The rules with the configured first mover, if one is configured."""
        mover = self.config.first_mover
        return rules if mover is None else rules.with_(first_mover=mover)

    def _settle_overlay(self, reading: Reading) -> None:
        """Forget pending differences the board no longer shows (men lifted, king stacked)."""
        game = self.game
        if game is None:
            return
        for square in list(self.overlay):
            wanted = CLASS_INDEX[game.position.piece_at(square)]
            if reading.probabilities[square - 1, wanted] > _SETTLED:
                del self.overlay[square]

    # ------------------------------------------------------------ acting

    def _act(self, story: Story, time: float) -> list[GameEvent]:
        phase = self.phase
        if story.kind is StoryKind.START:
            assert story.rules is not None
            events = self._start(story.rules, None, time)
            if story.moves and story.mover is not None:
                events += self._play(story.moves, story.mover, Pending(), time)
            return events
        if isinstance(phase, NoGame):
            return []
        if story.kind is StoryKind.MISMATCH:
            return self._mismatch(phase.game, story, time)
        if story.kind is StoryKind.ALERT_UNCHANGED:
            return []  # the irregular board still stands: still waiting for a correction
        events = self._matched(phase.game, time)
        if story.kind is StoryKind.STOOD:
            assert story.move is not None
            return events + self._stood(story.move, time)
        h = story.hypothesis
        assert h is not None and story.mover is not None
        if h.verdict is Verdict.UNCHANGED:
            if self.alert is not None:
                events.append(self._close_alert(time, AlertEnding.CORRECTED))
            return events
        if h.verdict in (Verdict.MOVE, Verdict.TWO_PLIES):
            return events + self._play(h.moves, story.mover, h.pending, time)
        if h.verdict is Verdict.TAKEBACK:
            if self.alert is not None:  # the board went back past the irregular change
                events.append(self._close_alert(time, AlertEnding.CORRECTED))
            after = phase.game.positions()[-1 - h.plies_back]
            return events + [self._emit(EventKind.TAKEBACK, time, fen=after.fen(),
                                        reason=f"{h.plies_back} ply(s) taken back",
                                        detail=Takeback(h.plies_back))]
        if h.verdict is Verdict.PARTIAL_CHAIN:
            return events  # the chain may go on: _patience raises the alert if it rests
        return events + self._irregular(phase.game, h, time)

    def _start(self, rules: Rules, position: Position | None, time: float) -> list[GameEvent]:
        rules = self._configured(rules)
        start = position or Position.start(rules)
        current = self.record.current
        number = current.number + 1 if current.set_up else current.number
        return [self._emit(EventKind.GAME_STARTED, time, game=number, fen=start.fen(),
                           side=start.turn, detail=GameStarted(rules))]

    def _play(self, moves: tuple[Move, ...], mover: Colour, pending: Pending,
              time: float) -> list[GameEvent]:
        """Each move as a move event (``mover`` makes the first), then what they leave."""
        events = []
        side = mover
        for move in moves:
            record = self.record.current
            before = record.position_for(side)
            forced = record.game.forced_move()
            events += self._crowning_check(side, time)
            ambiguous = _same_board_moves(before, move, record.rules) if len(moves) == 1 else []
            note = "path uncertain: " + ", ".join(ambiguous) if ambiguous else None
            events.append(self._emit(EventKind.MOVE, time, move=str(move),
                                     fen=before.play(move).fen(), side=side, reason=note,
                                     detail=MovePlayed(move.captured, ambiguous=tuple(ambiguous))))
            if forced is not None and not forced.matches(move):
                events.append(self._alert(time, f"deviation from the forced opening "
                                          f"({' - '.join(map(str, forced.squares))} was due)",
                                          IrregularityKind.FORCED_OPENING, side))
            side = self.record.current.game.position.turn
        events += self._record_pending(pending, time)
        alert = self.alert
        if alert is not None and alert.rule is IrregularityKind.PARTIAL_CHAIN:
            events.append(self._close_alert(time, AlertEnding.CHAIN_FINISHED))
        return events + self._result_events(time)

    def _record_pending(self, pending: Pending, time: float) -> list[GameEvent]:
        game = self.record.current.game
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

    def _crowning_check(self, mover: Colour, time: float) -> list[GameEvent]:
        """The side that had to stack a new king moves without doing so: a notice."""
        events = []
        position = self.record.current.game.position
        for square, shown in self.overlay.items():
            king = position.piece_at(square)
            if (king is not None and king.is_king and not shown.is_king and king.colour is mover.opponent
                    and square not in self._crowning_alerted):
                self._crowning_alerted.add(square)
                events.append(self._alert(time, f"crowning not done on {square}: "
                                          f"{mover.value} moved without stacking the new king",
                                          IrregularityKind.CROWNING, mover, opens=False))
        return events

    def _irregular(self, game: Game, h: Hypothesis, time: float) -> list[GameEvent]:
        position = game.position
        explanation = describe(position, [h], game.positions()[:-1], game.rules)
        mover = position.turn.opponent if h.verdict is Verdict.WRONG_SIDE else position.turn
        board = Position(*h.board, turn=mover.opponent)
        return [self._alert(time, explanation.reason, IrregularityKind(h.verdict.value), mover,
                            missed=tuple(str(m) for m in explanation.missed), fen=board.fen(),
                            move=str(h.moves[-1]) if h.moves else None)]

    def _mismatch(self, game: Game, story: Story, time: float) -> list[GameEvent]:
        position = game.position
        seen = Position(*story.board, turn=position.turn.opponent)
        differing = tuple(s for s in range(1, 33) if seen.piece_at(s) != position.piece_at(s))
        return [self._emit(EventKind.BOARD_MISMATCH, time, fen=seen.fen(), side=position.turn,
                           reason=describe_change(position, seen), detail=BoardMismatch(differing))]

    def _matched(self, game: Game, time: float) -> list[GameEvent]:
        if not self.record.mismatch:
            return []
        return [self._emit(EventKind.BOARD_MATCHED, time, fen=game.position.fen(),
                           detail=BoardMatched())]

    def _stood(self, reply: Move, time: float) -> list[GameEvent]:
        """The opponent played on: the irregular change stands, then his move is played."""
        alert = self.alert
        assert alert is not None and alert.fen is not None
        mover = self.record.current.game.position.turn
        events = [self._emit(EventKind.MOVE, time, move=alert.move, fen=alert.fen, side=mover,
                             reason=alert.reason, detail=MovePlayed(irregular=True)),
                  self._close_alert(time, AlertEnding.STOOD)]
        position = self.record.current.game.position
        events.append(self._emit(EventKind.MOVE, time, move=str(reply), fen=position.play(reply).fen(),
                                 side=position.turn, detail=MovePlayed(reply.captured)))
        return events + self._result_events(time)

    def _patience(self, time: float) -> list[GameEvent]:
        """A chain that rests unfinished past its patience is a chain stopped early."""
        streak, phase = self._streak, self.phase
        if (streak is None or not streak.acted or self.alert is not None
                or not isinstance(phase, Playing) or streak.story.kind is not StoryKind.GAME
                or streak.story.hypothesis is None
                or streak.story.hypothesis.verdict is not Verdict.PARTIAL_CHAIN
                or time - streak.since < self.config.chain_patience):
            return []
        return self._irregular(phase.game, streak.story.hypothesis, time)

    def _close_alert(self, time: float, how: AlertEnding) -> GameEvent:
        alert = self.alert
        return self._emit(EventKind.ALERT_CLOSED, time, reason=alert.reason if alert else None,
                          detail=AlertClosed(how))

    def _result_events(self, time: float) -> list[GameEvent]:
        game = self.record.current.game
        result = game.result()
        if result is None:
            return []
        return [self._emit(EventKind.RESULT, time, reason=result.reason, fen=game.position.fen(),
                           detail=GameOver(result.outcome))]

    def _clock_events(self, time: float) -> list[GameEvent]:
        phase = self.phase
        if not isinstance(phase, Playing):
            return []
        side = phase.game.position.turn
        return [self._emit(EventKind.CLOCK, time, side=side, detail=signal)
                for signal in self.record.clock.due(time)]

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

