"""GameTracker: settled readings in, a refereed game and its events out.

Each settled reading is scored against every story the rules allow from the current game
(:func:`engine.referee.hypotheses`), plus the known start set-ups and, while an alert is
open, the opponent playing on from the irregular board. A story is acted on once it has
been the clear best (``margin`` nats ahead of any other board) for ``confirm_readings``
readings in a row. A reading that contradicts even the best story on some square (by more
than ``square_tolerance`` nats against that square's most likely class) puts the tracker in the "board does not match" state; the game is kept as it was.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import numpy as np

from engine import Colour, Move, Piece, Position, Rules
from engine.game import Game, Outcome, Result
from engine.position import Board, place
from engine.referee import Hypothesis, Pending, Verdict, describe, describe_change, hypotheses
from engine.squares import BIT
from events import EventKind, GameEvent
from events import referee as decisions
from vision.reading import CLASS_INDEX, Reading

from .clock import MoveClock
from .scoring import SIDE_OF_CLASS, board_classes, log_probabilities, score_boards, worst_square_gap
from .starts import start_rules


@dataclass(frozen=True)
class TrackerConfig:
    """Thresholds of the tracker; log-likelihoods are in nats over the 32 squares."""

    confirm_readings: int = 2  # consecutive settled readings that must agree
    confirm_mismatch: int = 6  # ... before "board does not match" (a misread is brief)
    margin: float = 4.0  # lead of the best story over any story with another board
    square_tolerance: float = 3.0  # how far, on any one square, the best story may trail
    chain_patience: float = 2.0  # seconds a chain may rest unfinished before the alert
    first_mover: Colour | None = None  # None: inferred from the first move


class StoryKind(enum.Enum):
    START = "start"
    GAME = "game"  # a hypothesis from the game position
    ALERT_UNCHANGED = "alert unchanged"  # the irregular board still stands
    STOOD = "stood"  # the opponent played on from the irregular board
    MISMATCH = "mismatch"


@dataclass(frozen=True)
class Story:
    kind: StoryKind
    board: Board
    hypothesis: Hypothesis | None = None
    rules: Rules | None = None  # START: the rules of the set-up recognised
    move: Move | None = None  # STOOD: the opponent's move
    moves: tuple[Move, ...] = ()  # START: the first moves already made when first seen

    @property
    def decision(self) -> tuple:
        """What acting on the story would do; variants differing only in what is still
        pending (men not lifted, a king not stacked) lead to the same decision."""
        h = self.hypothesis
        board = self.board if self.kind in (StoryKind.START, StoryKind.MISMATCH) else None
        return (self.kind, board, h.verdict if h else None, h.moves if h else (), h.plies_back if h else 0,
                h.landed_on if h else None, self.move, self.moves)


@dataclass
class Alert:
    """An irregularity waiting for a correction, or for the opponent to play on."""

    reason: str
    rule: str
    board: Position  # the irregular board; its turn is the side that would play on
    move: Move | None  # the irregular change as a move, when one describes it


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
        self.rules = rules or Rules()
        self.config = config or TrackerConfig()
        self.game: Game | None = None
        self.game_number = 0
        self.alert: Alert | None = None
        self.mismatch = False
        self.clock = MoveClock()
        # Squares where the board may still differ from the game in a known way: captured
        # men not lifted yet (the piece still there) and new kings not stacked (a man).
        self.overlay: dict[int, Piece] = {}
        self._crowning_alerted: set[int] = set()
        self._streak: _Streak | None = None
        self._cache: tuple[tuple, list[Story], np.ndarray, np.ndarray] | None = None

    # ------------------------------------------------------------ input

    def observe(self, time: float, reading: Reading | None) -> list[GameEvent]:
        """Take one frame's outcome: a settled reading, or None while the board is covered."""
        events = self._clock_events(time)
        if reading is None:
            self._streak = None
            return events
        story = self._best_story(reading)
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
        if self.game is not None and self.overlay:
            self._settle_overlay(reading)
        return events

    def start_from(self, position: Position, time: float) -> list[GameEvent]:
        """Start a game from any position (read from the board, confirmed by the referee)."""
        return self._start(self.rules, position, time)

    def grant_extra_time(self, seconds: float) -> None:
        """Extra thinking time for the move in progress (a referee decision)."""
        self.clock.grant(seconds)

    def decide(self, event: GameEvent) -> None:
        """Apply a referee's decision (a ``referee`` event already in the log).

        The event is the decision: nothing is emitted for it, so every reader of the log
        applies it once. A decision that no longer fits (no game, nothing to take back) is
        ignored here; the server refused ill-fitting ones before logging them.
        """
        try:
            action = decisions.parse_action(event.detail)
        except decisions.ActionError:
            return
        if isinstance(action, decisions.NewGame):
            self.rules = Rules.from_dict({**self.rules.to_dict(), **action.rules})
            self.game, self.alert, self.mismatch, self.overlay = None, None, False, {}
            self.game_number = event.game - 1  # the set-up on the board starts it
            return
        if self.game is None:
            return
        try:
            self._decide(action, event.time)
        except ValueError:
            return

    def _decide(self, action: decisions.RefereeAction, time: float) -> None:
        game = self.game
        match action:
            case decisions.AcceptMove() if self.alert is not None:
                game.play_irregular(self.alert.board, self.alert.reason, self.alert.move)
                self.alert, self.mismatch = None, False
                self.clock.start(time)
            case decisions.Dismiss():
                self.alert, self.mismatch = None, False
            case decisions.CorrectMove(move=text, alert=alert):
                if alert is None:
                    game.take_back(1)
                game.play(game.find_move(text))
                self.alert, self.mismatch = None, False
                self.clock.start(time)
            case decisions.TakeBack(plies=plies):
                game.take_back(plies)
                self.clock.start(time)
            case decisions.SetResult(outcome=outcome, reason=reason):
                game.declare(Result(Outcome(outcome), reason))
            case decisions.GrantExtraTime(side=side, minutes=minutes) if game.position.turn.value == side:
                self.clock.grant(60.0 * minutes)

    # ------------------------------------------------------------ choosing a story

    def _stories(self) -> list[Story]:
        if self.game is None or self.game.result() is not None:
            return self._start_stories()
        position = self.game.position
        found = hypotheses(position, self.game.rules, self.game.positions()[:-1])
        if not self.game.plies and self.config.first_mover is None:
            # Who moves first is learnt from the first move: either side's is a move.
            other = position.with_turn(position.turn.opponent)
            found = [h for h in found if h.verdict is not Verdict.WRONG_SIDE]
            found += [Hypothesis(Verdict.MOVE, (m,), other.play(m).board)
                      for m in other.legal_moves(self.game.rules)]
        stories = [Story(StoryKind.GAME, self._with_overlay(h.board, position), h) for h in found]
        if self.alert is not None:
            board = self.alert.board
            stories.append(Story(StoryKind.ALERT_UNCHANGED, board.board))
            if not self.mismatch:
                # Play on from a board no story explained could be playing on from a misread:
                # only the referee makes such a board stand (accept_move).
                stories += [Story(StoryKind.STOOD, board.play(m).board, move=m)
                            for m in board.legal_moves(self.game.rules)]
        return stories

    def _state_key(self) -> tuple:
        """What the stories depend on: they are rebuilt only when it changes."""
        game = self.game
        if game is None:
            return (None, self.rules)
        return (id(game), len(game.plies), game.position, game.result() is not None,
                tuple(sorted(self.overlay.items())), id(self.alert), self.mismatch)

    def _scored_stories(self) -> tuple[list[Story], np.ndarray, np.ndarray]:
        """The stories, their boards as class rows, and a decision number per story."""
        key = self._state_key()
        if self._cache is None or self._cache[0] != key:
            stories = self._stories()
            numbers: dict[tuple, int] = {}
            decisions = np.array([numbers.setdefault(s.decision, len(numbers)) for s in stories])
            self._cache = (key, stories, board_classes([s.board for s in stories]), decisions)
        return self._cache[1], self._cache[2], self._cache[3]

    def _start_stories(self) -> list[Story]:
        """Each known set-up, and the configured one with its first move or two already
        made: a camera that finds the board late (or a hand in the way) still sees the start."""
        stories = []
        for index, rules in enumerate(start_rules(self.rules)):
            start = Position.start(rules)
            stories.append(Story(StoryKind.START, start.board, rules=rules))
            if index > 0:
                continue
            movers = [self.config.first_mover] if self.config.first_mover else [start.turn, start.turn.opponent]
            for side in movers:
                first = start.with_turn(side)
                for move in first.legal_moves(rules):
                    after = first.play(move)
                    stories.append(Story(StoryKind.START, after.board, rules=rules, moves=(move,)))
                    stories += [Story(StoryKind.START, after.play(reply).board, rules=rules, moves=(move, reply))
                                for reply in after.legal_moves(rules)]
        return stories

    def _best_story(self, reading: Reading) -> Story | None:
        log_p = log_probabilities(reading)
        stories, classes, decisions = self._scored_stories()
        scores = score_boards(log_p, classes)
        best = int(np.argmax(scores))
        if worst_square_gap(log_p, classes[best]) > self.config.square_tolerance:
            seen = reading.position()
            return Story(StoryKind.MISMATCH, seen.board)
        sides = SIDE_OF_CLASS[classes]
        same_sides = np.all(sides == sides[best], axis=1)
        if stories[best].kind is StoryKind.START:
            best = self._set_up(reading, stories, classes, np.flatnonzero(same_sides))
        rival = (decisions != decisions[best]) & ~same_sides
        if rival.any() and scores[best] - scores[rival].max() < self.config.margin:
            return None  # not sure yet: say nothing rather than guess
        return stories[best]

    def _set_up(self, reading: Reading, stories: list[Story], classes: np.ndarray,
                candidates: np.ndarray) -> int:
        """Among starts with the same pieces on the same squares (set-ups that differ only in
        their kings), the configured one, unless the camera is sure of another's kings."""
        sharp = score_boards(log_probabilities(reading, king_doubt=0.0), classes[candidates])
        first = int(candidates[0])  # stories list the configured rules' start first
        leader = int(np.argmax(sharp))
        if sharp[leader] - sharp[0] >= self.config.margin:
            return int(candidates[leader])
        return first

    def _with_overlay(self, board: Board, position: Position) -> Board:
        """A predicted board with the known pending differences applied where untouched."""
        if not self.overlay:
            return board
        shown, game_board = board, position.board
        for square, piece in self.overlay.items():
            bit = BIT[square]
            if all((a & bit) == (b & bit) for a, b in zip(board, game_board)):
                shown = place(shown, square, piece)
        return shown

    def _settle_overlay(self, reading: Reading) -> None:
        """Forget pending differences the board no longer shows (men lifted, king stacked)."""
        position = self.game.position
        for square in list(self.overlay):
            wanted = CLASS_INDEX[position.piece_at(square)]
            if reading.probabilities[square - 1, wanted] > 0.8:
                del self.overlay[square]

    # ------------------------------------------------------------ acting

    def _act(self, story: Story, time: float) -> list[GameEvent]:
        if story.kind is StoryKind.START:
            events = self._start(story.rules, None, time)
            if story.moves:
                events += self._play(Hypothesis(Verdict.MOVE, story.moves, story.board), time)
            return events
        if story.kind is StoryKind.MISMATCH:
            return self._mismatch(story, time)
        if story.kind is StoryKind.ALERT_UNCHANGED:
            return []  # the irregular board still stands: still waiting for a correction
        events = self._matched(time)
        if story.kind is StoryKind.STOOD:
            return events + self._stood(story.move, time)
        h = story.hypothesis
        verdict = h.verdict
        if verdict is Verdict.UNCHANGED:
            if self.alert is not None:
                events.append(self._close_alert(time, "corrected"))
            return events
        if verdict in (Verdict.MOVE, Verdict.TWO_PLIES):
            return events + self._play(h, time)
        if verdict is Verdict.TAKEBACK:
            self.game.take_back(h.plies_back)
            self.clock.start(time)
            self.alert = None
            return events + [self._event(EventKind.TAKEBACK, time, fen=self.game.position.fen(),
                                         reason=f"{h.plies_back} ply(s) taken back",
                                         detail={"plies": h.plies_back})]
        if verdict is Verdict.PARTIAL_CHAIN:
            return events  # the chain may go on: _patience raises the alert if it rests
        return events + self._irregular(h, time)

    def _start(self, rules: Rules, position: Position | None, time: float) -> list[GameEvent]:
        if self.config.first_mover is not None:
            rules = rules.with_(first_mover=self.config.first_mover)
        start = position or Position.start(rules)
        self.game = Game(rules, start)
        self.game_number += 1
        self.alert, self.mismatch, self.overlay = None, False, {}
        self._crowning_alerted = set()
        self.clock.start(time)
        return [self._event(EventKind.GAME_STARTED, time, fen=start.fen(), side=start.turn.value,
                            detail={"rules": rules.to_dict()})]

    def _play(self, h: Hypothesis, time: float) -> list[GameEvent]:
        events = []
        game = self.game
        if not game.plies and h.moves[0] not in game.legal_moves():
            # The first move was made by the other side: that side moves first.
            rules = game.rules.with_(first_mover=game.position.turn.opponent)
            self.game = game = Game(rules, game.start.with_turn(rules.first_mover))
        ambiguous = self._same_board_moves(h) if len(h.moves) == 1 else []
        for move in h.moves:
            forced = game.forced_move()
            side = game.position.turn
            events += self._crowning_check(side, time)
            game.play(move)
            detail = {"captured": list(move.captured)}
            if len(ambiguous) > 1:
                detail["ambiguous"] = ambiguous
            events.append(self._event(EventKind.MOVE, time, move=str(move), fen=game.position.fen(),
                                      side=side.value, detail=detail,
                                      reason="path uncertain: " + ", ".join(ambiguous) if len(ambiguous) > 1 else None))
            if forced is not None and not forced.matches(move):
                events.append(self._alert_event(time, f"deviation from the forced opening "
                                                f"({' - '.join(map(str, forced.squares))} was due)",
                                                "forced opening", side))
        self.clock.start(time)
        events += self._record_pending(h.pending, h.moves[-1], time)
        if self._streak_chain_alert_open():
            events.append(self._close_alert(time, "chain finished"))
        events += self._result_events(time)
        return events

    def _same_board_moves(self, h: Hypothesis) -> list[str]:
        """Every legal move that leaves the same board: the path the camera cannot tell."""
        position = self.game.position
        target = position.play(h.moves[0])
        return [str(m) for m in position.legal_moves(self.game.rules) if position.play(m) == target]

    def _record_pending(self, pending: Pending, move: Move, time: float) -> list[GameEvent]:
        events = []
        before = self.game.plies[-1].before
        for square in pending.removals:
            self.overlay[square] = before.piece_at(square)
        for square in pending.crownings:
            king = self.game.position.piece_at(square)
            self.overlay[square] = Piece.of(king.colour, False)
            events.append(self._event(EventKind.CROWNING_PENDING, time, side=king.colour.value,
                                      reason=f"{king.colour.value} man on {square} reached the far row: "
                                      f"{king.colour.opponent.value} to crown it", detail={"square": square}))
        return events

    def _crowning_check(self, mover: Colour, time: float) -> list[GameEvent]:
        """The side that had to stack a new king moves without doing so: an alert."""
        events = []
        for square, shown in self.overlay.items():
            king = self.game.position.piece_at(square)
            if (king is not None and king.is_king and not shown.is_king and king.colour is mover.opponent
                    and square not in self._crowning_alerted):
                self._crowning_alerted.add(square)
                events.append(self._alert_event(time, f"crowning not done on {square}: "
                                                f"{mover.value} moved without stacking the new king",
                                                "crowning", mover, opens=False))
        return events

    def _irregular(self, h: Hypothesis, time: float) -> list[GameEvent]:
        position = self.game.position
        explanation = describe(position, [h], self.game.positions()[:-1], self.game.rules)
        mover = position.turn.opponent if h.verdict is Verdict.WRONG_SIDE else position.turn
        board = Position(*h.board, turn=mover.opponent)
        self.alert = Alert(explanation.reason, h.verdict.value, board, h.moves[-1] if h.moves else None)
        detail = {"missed": [str(m) for m in explanation.missed]}
        return [self._alert_event(time, explanation.reason, h.verdict.value, mover, detail=detail,
                                  fen=board.fen())]

    def _mismatch(self, story: Story, time: float) -> list[GameEvent]:
        if self.game is None:
            return []
        position = self.game.position
        seen = Position(*story.board, turn=position.turn.opponent)
        reason = describe_change(position, seen)
        self.mismatch = True
        self.alert = Alert(reason, "illegal", seen, None)
        differing = sorted(s for s in range(1, 33) if seen.piece_at(s) != position.piece_at(s))
        return [self._event(EventKind.BOARD_MISMATCH, time, fen=seen.fen(), side=position.turn.value,
                            reason=reason, detail={"squares": differing})]

    def _matched(self, time: float) -> list[GameEvent]:
        if not self.mismatch:
            return []
        self.mismatch = False
        return [self._event(EventKind.BOARD_MATCHED, time, fen=self.game.position.fen())]

    def _stood(self, reply: Move, time: float) -> list[GameEvent]:
        """The opponent played on: the irregular change stands, then his move is played."""
        alert = self.alert
        game = self.game
        mover = game.position.turn
        game.play_irregular(alert.board, alert.reason, alert.move)
        events = [self._event(EventKind.MOVE, time, move=str(alert.move) if alert.move else None,
                              fen=alert.board.fen(), side=mover.value, reason=alert.reason,
                              detail={"irregular": True})]
        events.append(self._close_alert(time, "stood"))
        side = game.position.turn
        game.play(reply)
        events.append(self._event(EventKind.MOVE, time, move=str(reply), fen=game.position.fen(),
                                  side=side.value, detail={"captured": list(reply.captured)}))
        self.clock.start(time)
        return events + self._result_events(time)

    def _patience(self, time: float) -> list[GameEvent]:
        """A chain that rests unfinished past its patience is a chain stopped early."""
        streak = self._streak
        if (streak is None or not streak.acted or self.alert is not None or self.game is None
                or streak.story.kind is not StoryKind.GAME
                or streak.story.hypothesis.verdict is not Verdict.PARTIAL_CHAIN
                or time - streak.since < self.config.chain_patience):
            return []
        return self._irregular(streak.story.hypothesis, time)

    def _streak_chain_alert_open(self) -> bool:
        return self.alert is not None and self.alert.rule == Verdict.PARTIAL_CHAIN.value

    def _close_alert(self, time: float, how: str) -> GameEvent:
        reason = self.alert.reason if self.alert else None
        self.alert = None
        return self._event(EventKind.ALERT_CLOSED, time, reason=reason, detail={"how": how})

    def _result_events(self, time: float) -> list[GameEvent]:
        result = self.game.result()
        if result is None:
            return []
        return [self._event(EventKind.RESULT, time, reason=result.reason, fen=self.game.position.fen(),
                            detail={"outcome": result.outcome.value})]

    def _clock_events(self, time: float) -> list[GameEvent]:
        if self.game is None or self.game.result() is not None:
            return []
        side = self.game.position.turn.value
        return [self._event(EventKind.CLOCK, time, side=side,
                            detail={"level": s.level, "seconds": s.seconds})
                for s in self.clock.tick(time)]

    # ------------------------------------------------------------ events

    def _alert_event(self, time: float, reason: str, rule: str, side: Colour,
                     detail: dict | None = None, opens: bool = True, fen: str | None = None) -> GameEvent:
        """An irregularity; ``fen`` is the irregular board, which a referee may let stand."""
        return self._event(EventKind.IRREGULARITY, time, side=side.value, reason=reason, fen=fen,
                           detail={"rule": rule, "open": opens, **(detail or {})})

    def _event(self, kind: EventKind, time: float, **fields) -> GameEvent:
        ply = len(self.game.plies) if self.game else None
        return GameEvent(self.board_id, kind, time, game=self.game_number, ply=ply, **fields)
