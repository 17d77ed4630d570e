"""GameTracker: settled readings in, a refereed game and its events out.

Each settled reading is scored against every story the rules allow (:mod:`tracker.stories`)
and a story is chosen only when it is clearly the best (:mod:`tracker.choice`); it is acted
on (:mod:`tracker.acting`) once it has been chosen for ``confirm_readings`` readings in a
row. Acting means making events, and the tracker's game is those events replayed: what
the tracker believes is what its log says. After a gap (no settled reading for a while:
a restart, a camera away), a board no story fits is looked for among the plies that may
have been played meanwhile (:mod:`tracker.gaps`).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, replace
from typing import Iterable

import numpy as np

from makhos.engine import Move, Piece, Position, Rules
from makhos.engine.position import Board
from makhos.engine.game import Game
from makhos.engine.changes import Hypothesis, Verdict, describe_change
from makhos.events import EventKind, GameEvent
from makhos.events.game import Alert, AlertKind, LoggedGame
from makhos.vision.reading import CLASS_INDEX, Reading

from .acting import Acts, NoGame, Over, Phase, Playing
from .choice import Candidates, as_read, best_story
from .scoring import (SIDE_OF_CLASS, board_sides, changed_squares, read_otherwise, read_surely_otherwise,
                      read_well)
from .config import TrackerConfig
from .gaps import (IrregularLines, Lines, PliesBeyond, a_ply_more, first_seen, gap_lines_seen, irregular_lines_seen,
                   labelled, irregular_lead, irregular_lines_on_alert, likeliest, line_positions, lines_on_alert,
                   likeliest_irregular, most_plies, sight, line_lead)
from makhos.engine.starts import start_rules
from .parity import OtherParity, other_parity
from .stories import OpenBoard, Story, StoryKind, game_stories, settled, start_stories, with_overlay

__all__ = ["GameTracker", "NoGame", "Over", "Playing", "TRACKER_KINDS", "TrackerConfig"]

#: The kinds of event a tracker makes. Every other kind in a board's log (referee
#: decisions, camera notices, and any kind added later unless it is listed here) comes from
#: elsewhere and is applied to the tracker's record when read back.
TRACKER_KINDS = frozenset({
    EventKind.GAME_STARTED, EventKind.MOVE, EventKind.IRREGULARITY, EventKind.ALERT_CLOSED,
    EventKind.TAKEBACK, EventKind.CROWNING_PENDING, EventKind.BOARD_MISMATCH,
    EventKind.BOARD_MATCHED, EventKind.CLOCK, EventKind.RESULT,
})

#: Probability at which a square shows what the game says, so a pending step is done.
_SETTLED = 0.8


#: The most glimpses kept (about 17 s of readings at 15 a second): a gap holds ``gap_plies``
#: plies at most, and the glimpses that tell their order (each a settled reading not
#: followed: a board on the way, should the board later be some plies on) come a few per ply.
_GLIMPSES = 256

#: The verdicts of a story that raises an irregularity about a board the game waits on.
_IRREGULAR = frozenset({Verdict.MISSED_CAPTURE, Verdict.WRONG_SIDE, Verdict.STOPPED_AND_REPLIED,
                        Verdict.MISSED_AND_REPLIED, Verdict.MOVED_AND_MISSED})

#: The verdicts of a story whose board is none a relight weighs (:meth:`GameTracker.boards_since`):
#: the game going back, the side that has just moved moving again, or a move answered by a
#: capture missed (every legal move, then every plain reply: so many boards that a relight
#: weighing them knows few squares; kingplay 70012, re-read after three plies unseen, was
#: taught a board two plies nobody played fitted and lost the game).
_NOT_SINCE = frozenset({Verdict.TAKEBACK, Verdict.WRONG_SIDE, Verdict.MOVED_AND_MISSED})


def _missed_reply(story: Story) -> bool:
    """Whether ``story`` is a move answered by a capture missed (``Verdict.MOVED_AND_MISSED``)."""
    h = story.hypothesis
    return story.kind is StoryKind.GAME and h is not None and h.verdict is Verdict.MOVED_AND_MISSED


def washed_out(read: Board, candidates: Candidates, most: int) -> bool:
    """Whether the board as read is the board of a story of the rules with a piece or two
    (at most ``most``) missing, and otherwise the same sides on the same squares.

    Such a board, taken as one piece moved against the rules, is a ply that "took" men it
    never jumped (a capture of a man nobody jumped): a referee rarely sees one, while a man
    washed out of a reading (the light on the near corner, a shadow, a piece the colour of
    its square) is common. So it is not believed at once, as a hand's irregular step is: it
    is the board only once it has lasted ``misread_patience`` over the settled readings, as
    any misread must. A man gone beside a step that is itself irregular (a man moved too
    far) is no story's board with men missing, and stays a hand's move, alerted at once."""
    told = SIDE_OF_CLASS[candidates.classes]
    seen = board_sides(read)
    missing = (told != 0) & (seen == 0)
    count = missing.sum(axis=1)
    return bool(((count >= 1) & (count <= most) & np.all((told == seen) | missing, axis=1)).any())


def _moved_twice(story: Story) -> bool:
    """Whether ``story`` is the side that moved last moving again from the game's position."""
    h = story.hypothesis
    return story.kind is StoryKind.GAME and h is not None and h.verdict is Verdict.WRONG_SIDE


def read_as(reading: Reading, board: Board) -> bool:
    """Whether the reading puts on every square the side (or none) that ``board`` does, a
    man and a king alike: no square left to a misread's tolerance."""
    return read_otherwise(reading, board) == 0


@dataclass(frozen=True)
class _GapLines:
    """The lines a gap's board was searched for, kept while the search would be the same
    (``key``: the record, the board as seen, how many plies fit, the open alert's board)."""
    key: tuple[object, ...]
    legal: Lines
    irregular: IrregularLines  # lines with one irregular ply: where no legal line fits, or as long
    # as the legal lines, their rivals (tracker.gaps.irregular_lines_seen)
    alerted: Position | None  # the open alert's board where the lines start from it, else None


@dataclass(frozen=True)
class _Arrival:
    """The pieces read (kings aside) and since when (``GameTracker._arrive``)."""
    pieces: tuple[int, int]
    since: float
    in_sight: bool  # they came with no hand over the board since the reading before
    across: bool  # ... across a flicker of the gate, with no hand since the game last took a board


@dataclass
class _Streak:
    story: Story  # the latest variant of the story the readings tell
    reading: Reading  # the latest reading that told it
    count: int
    since: float
    acted: bool = False


class GameTracker:
    """Keeps one board's game in step with what the camera settles on."""

    def __init__(self, board: str, rules: Rules | None = None,
                 config: TrackerConfig | None = None) -> None:
        self.board_id = board
        self.config = config or TrackerConfig()
        self.acts = Acts(board, rules, self.config)
        self._streak: _Streak | None = None
        self._cache: tuple[tuple[object, ...], Candidates] | None = None
        self._seen: float | None = None  # when the last settled reading came
        self._frame: float | None = None  # when the last frame came (settled or not)
        self._gap_from: float | None = None  # when the board was last seen before a gap
        self._gap_to = 0.0  # ... and first seen after it (how many plies fit is fixed then)
        self._blind = False  # the gap had no frame at all: a camera away, a pause, a restart
        self._gap_lines: _GapLines | None = None
        self._followed: float | None = None  # when the last reading whose story was confirmed came
        self._glimpses: deque[Reading] = deque(maxlen=_GLIMPSES)  # settled readings since, none
        # followed, the latest kept (tracker.gaps)
        self._held: tuple[tuple[object, ...], float] | None = None  # the decision of the last
        # reading's story, and since when every reading told it, covered frames aside
        self._stop: tuple[int, Move, int] | None = None  # a chain seen stopped: plies, chain, landing
        self._contradicted: tuple[tuple[int, int], float] | None = None  # the pieces (kings
        # aside) of a board read against the best story on a few squares, and since when (_misread)
        self._arrived: _Arrival | None = None  # the pieces read, since when, and how (_arrive)
        self._handled = False  # a hand came over the board since the game last took a board
        self._covered: float | None = None  # when the board was last covered (no reading)
        self._misread_in_new_light = False  # the last reading's board was the light's (_relit_misread)
        self._relit_gap: Board | None = None  # the board of the gap's lines the last reading, in new light, told
        self._parity: OtherParity | None = None  # the record's last plies, the other side to move after
        self._change: tuple[int, int] | None = None  # the plies the game held before and after
        # the last change that added plies (_left)

    # ------------------------------------------------------------ what it knows

    @property
    def logged_game(self) -> LoggedGame:
        """The board's log as replayed so far."""
        return self.acts.logged_game

    @property
    def rules(self) -> Rules:
        """The rules a new game's set-up is looked for under."""
        return self.acts.logged_game.rules

    @property
    def phase(self) -> Phase:
        return self.acts.phase

    @property
    def game(self) -> Game | None:
        """The game in progress or just over; None before a set-up was seen."""
        phase = self.phase
        return None if isinstance(phase, NoGame) else phase.game

    @property
    def alert(self) -> Alert | None:
        """The open alert whose board waits on a correction or on play going on."""
        return self.acts.alert

    @property
    def overlay(self) -> dict[int, Piece]:
        """What the board still shows undone: captured men not lifted, kings not stacked."""
        return self.acts.overlay

    # ------------------------------------------------------------ input

    def observe(self, time: float, reading: Reading | None) -> list[GameEvent]:
        """Take one frame's outcome: a settled reading, or None while the board is covered."""
        events = self.acts.clock_signals(time)
        if self._frame is not None and time - self._frame >= self.config.gap_after:
            self._blind, self._arrived = True, None  # no frame came: nothing changed in sight
        self._frame = time
        if reading is None:
            self._covered = time
            if self._streak is not None and self._streak.story.kind is not StoryKind.MISMATCH:
                self._streak = None  # a board no story explains is the same board after a hand
            return events
        if self._seen is not None and time - self._seen >= self.config.gap_after and self._gap_from is None:
            self._gap_from, self._gap_to = self._seen, time
        self._arrive(reading, time)
        self._seen = time
        story = (self._board_read(reading) if self.logged_game.current.awaits_board
                 else best_story(reading, self._candidates(), self.config, self._left()))
        told = story
        if story is not None and story.kind is not StoryKind.MISMATCH:
            story = self._misread(story, reading, time)
        if story is not None and story.kind is StoryKind.MISMATCH:
            story = self._gap_or_misread(told, reading, time) or story
        elif story is not None and _moved_twice(story):
            story = self._witnessed_gap(story, reading, time)
        elif story is not None and _missed_reply(story):
            story = self._legal_gap(story, reading, time)
        elif story is not None and story.kind is StoryKind.GAME and self._gap_from is not None and self._blind:
            # One or two plies the camera was not there for (a hand that stayed long is no
            # gap of the camera's: the move's time is still its own).
            story = replace(story, gap=round(time - self._gap_from, 1))
        if (story is not None and story.kind is StoryKind.STOOD and self._pieces_counted_otherwise(story)
                and not read_as(reading, story.board)):
            story = None  # a board with pieces added or gone is played on only on a board read as it is
        self._misread_in_new_light = story is not None and reading.relit and self._relit_misread(story, reading)
        self._relit_gap = (story.board if story is not None and self._misread_in_new_light
                           and story.kind is StoryKind.GAP else None)
        if self._misread_in_new_light:
            story = None  # the reader's in the new light, not the players': the session re-reads
        if story is None:
            self._streak, self._held = None, None
            self._glimpses.append(reading)
            return events
        story = self._reread(story)
        if self._held is None or self._held[0] != story.decision:
            self._held = (story.decision, time)
        if self._streak and self._streak.story.decision == story.decision:
            self._streak.count += 1
            self._streak.story, self._streak.reading = story, reading  # what the board shows now
        else:
            self._streak = _Streak(story, reading, 1, time)
        streak = self._streak
        if not streak.acted and self._confirmed(streak, time):
            streak.acted, self._handled = True, False
            self._saw_stop(story)
            before = self._before(story)
            events += self.acts.act(story, time)
            self._parity = self._other_parity(story, before)
            if before is not None and self.game is not None and len(self.game.plies) > before[1]:
                self._change = (before[1], len(self.game.plies))
            if story.kind in (StoryKind.GAME, StoryKind.STOOD, StoryKind.GAP, StoryKind.START):
                self._gap_from, self._blind = None, False  # the board is explained: the gap is over
        if streak.acted:
            self._followed = time
            if story.kind is not StoryKind.MISMATCH:
                # A board no story explains leaves the game where it was: what was glimpsed
                # before it is still on the way to the next board (kingplay 70054: 30-25 seen
                # before 22-17, then a misread board, then the gap's line).
                self._glimpses.clear()
        else:
            self._glimpses.append(reading)
        events += self._patience(time)
        events += self._settle_overlay(reading, time)
        return events

    def glimpse(self, reading: Reading) -> None:
        """A read through a cover (an arm resting on the board, ``BoardReader._glimpse``):
        a board on the way, kept with the glimpses that order a gap's plies
        (:func:`tracker.gaps.glimpsed`), never a board to explain, nor a sight of the board
        (the time under the arm stays a gap)."""
        self._glimpses.append(reading)

    def ended(self, time: float) -> list[GameEvent]:
        """The source ended (a recording played to its end): the events of the board left
        on it. An irregular attempt that still stands there, alerted and read unchanged for
        ``misread_patience`` seconds up to the end, was neither taken back nor played on
        from: it stands as the record's last ply, its alert left open (RULES.md: otherwise
        play continues from the actual board). A board in transit at the end (covered, or
        read for less than that) adds nothing: it may be a misread or a hand's work undone."""
        streak = self._streak
        if (streak is None or streak.story.kind is not StoryKind.ALERT_UNCHANGED
                or not self._confirmed(streak, time)
                or time - streak.since < self.config.misread_patience):
            return []
        return self.acts.left_standing(time)

    def start_from(self, position: Position, time: float) -> list[GameEvent]:
        """Start a game from any position (read from the board, confirmed by the referee)."""
        return self.acts.start(self.rules, position, time)

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
            self.acts.apply(event)
            if event.kind in TRACKER_KINDS:
                self._seen = self._frame = self._followed = event.time  # the board was last seen then
        self.acts.captured_may_stand()
        return last

    @property
    def resumed(self) -> float | None:
        """The time of the last event of the log a restored tracker took up (None: none)."""
        return self._seen

    def logged(self, event: GameEvent) -> None:
        """An event read back from the board's log: one of the tracker's own (now numbered,
        so a referee decision can name its alert), or a decision or notice from elsewhere,
        which is applied once (the event is the decision; nothing is emitted for it)."""
        if event.kind in TRACKER_KINDS:
            self.logged_game.number(event)
        else:
            self.acts.apply(event)

    # ------------------------------------------------------------ choosing a story

    def _candidates(self) -> Candidates:
        """The stories of the tracker's state, rebuilt only when that state changes."""
        phase, alert, record = self.phase, self.alert, self.logged_game
        if isinstance(phase, Playing):
            game = phase.game
            key: tuple[object, ...] = (
                id(record.current), id(game), len(game.plies), game.position,
                tuple(sorted(self.overlay.items())), id(alert), record.mismatch, self._seen_stop(game))
        else:
            key = (type(phase), self.rules, record.current.number, record.current.game.start,
                   record.current.turn_named, tuple(sorted(self.overlay.items())),
                   phase.game.position if isinstance(phase, Over) else None)
        if self._cache is None or self._cache[0] != key:
            fixed = self.config.first_mover is not None
            if isinstance(phase, NoGame) and record.current.turn_named:
                stories = [self._start_story(record.current.game.start)]  # the referee's FEN
            elif isinstance(phase, Playing):
                board = None if alert is None or alert.fen is None else OpenBoard(
                    Position.from_fen(alert.fen), either_side=alert.kind is AlertKind.BOARD_MISMATCH)
                # A side to move the referee named moves first, as a configured first mover does.
                stories = game_stories(phase.game, fixed or record.current.turn_named, self.overlay,
                                       board, self._seen_stop(phase.game))
            else:
                variants = [self.acts.configured(rules) for rules in start_rules(self.rules)]
                stories = start_stories(variants, fixed)
                if isinstance(phase, Over):
                    stories.append(self._left_as_ended(phase.game))
            self._cache = (key, Candidates.of(stories))
        return self._cache[1]

    def boards_since(self) -> list[str]:
        """The boards (32 labels each, in square order) the plies the game may have seen
        made since its last accepted board lead to, each once: every story of the game's
        state (the board on the table, one or two plies, the catalogue's irregular plies,
        an open alert's board and play on from it). The reader weighs them against a frame
        read in new light after a hand crossed the board (``BoardReader.relight``). None
        where no game is in play, or where the last reading was not a board the new light
        made (:meth:`_relit_misread`): a story explains it (a gap's line read well: more
        plies than these boards hold, made under an arm resting on the board, kingplay
        70024), and a reader taught one of these boards would read it away.

        A board the game already left (plies taken back) is none of them, nor one of the
        side that has just moved moving again: the plies made since are the next side's and
        its opponent's. A frame in new light whose held-out read fits such a board better
        than the one on the table is the light misleading the reader, not the players going
        back or out of turn; taught that board, the reader reads it for good, and the game
        takes its plies back and goes on over the misread squares (kingplay 70082: 6-9
        taken back as a shadow fell, then 6-10 and the rest of the game invented; 1-6 after
        6-9 fitted next best). A board the game left is weighed as doubt only
        (:meth:`boards_doubted`)."""
        if not isinstance(self.phase, Playing) or not self._misread_in_new_light:
            return []
        unsure = frozenset(self.overlay)  # a captured man not lifted yet may be: no story says
        return sorted({labelled(story.board, unsure) for story in self._forward()})

    def boards_doubted(self) -> list[str]:
        """The boards a relight weighs with :meth:`boards_since` as doubt only
        (``vision.relight.known_squares_doubted``): where one fits about as well as the
        boards since, or better, the squares it puts otherwise are not known. Empty where
        :meth:`boards_since` is. They are:

        - the boards the game left (its plies taken back): the frame may still show one where
          the game's last plies were misread (kingplay 70033);
        - the board of a gap's lines the reading, in new light, told but did not read well
          (:meth:`_relit_misread`): the board the plies made unseen lead to, perhaps, but chosen
          among many lines for fitting this very reading (kingplay 70096: five plies nobody
          played). Weighed as doubt, it keeps the reader from being taught a story's board
          where the frame shows it (kingplay 70039: a relight taught 6-10, one ply, where
          4-25, 31-20 and 5-9 were made unseen; the gap's board fitted the frame's held-out
          read by -3.6 nats, the story's by -15)."""
        if not isinstance(self.phase, Playing) or not self._misread_in_new_light:
            return []
        unsure = frozenset(self.overlay)
        left = [story.board for story in self._candidates().stories
                if story.hypothesis is not None and story.hypothesis.verdict is Verdict.TAKEBACK]
        gap = [] if self._relit_gap is None else [self._relit_gap]
        return sorted({labelled(board, unsure) for board in left + gap})

    def plies_beyond(self) -> PliesBeyond | None:
        """Where the time since the game last followed a reading fits more plies than the
        stories hold (:meth:`boards_since`: one or two), the boards further on, for the relight
        to weigh (``vision.relight.known_squares_doubted``); None otherwise.

        A read in new light after a gap of the camera's (readings not followed: a sleeve, a
        hand, a shadow) may show plies past the stories' (kingplay 70068: three plies unseen).
        The board of the stories nearest it then fits best, and taught, it makes the reader
        read the squares of the plies it lacks as they were, for good."""
        game = self.game
        if (not isinstance(self.phase, Playing) or game is None or not self._misread_in_new_light
                or self._followed is None or self._seen is None):
            return None
        most = most_plies(self._seen - self._followed, self.config)
        return PliesBeyond.of(self._forward(), game.position.turn, game.rules, most, frozenset(self.overlay))

    def _forward(self) -> list[Story]:
        """The stories whose boards a relight weighs (:meth:`boards_since`): none that takes
        plies back, nor one of the side that has just moved moving again (``_NOT_SINCE``)."""
        return [story for story in self._candidates().stories
                if story.hypothesis is None or story.hypothesis.verdict not in _NOT_SINCE]

    def _left_as_ended(self, game: Game) -> Story:
        """A finished game's board left on the table as its last ply made it (men taken not
        lifted yet included): the game's own board, said nothing of, while the next set-up
        is looked for. Without it the board that ended the game matched no story, and was
        called a board that does not match the game it ended."""
        position = game.position
        return Story(StoryKind.GAME, self._on_the_table(position),
                     Hypothesis(Verdict.UNCHANGED, (), position.board), mover=position.turn)

    def _on_the_table(self, position: Position) -> Board:
        """The board ``position`` leaves on the table: captured men not lifted yet and a
        king not stacked yet (the overlay) included."""
        return with_overlay(position.board, position, self.overlay)

    def _left(self) -> frozenset[int]:
        """The squares the game's last change left: its last ply's, and those of the plies
        taken with it in one change (two plies read at once, a gap's line), each of which
        may still read as holding its piece (empty: no ply, or no game)."""
        game = self.game
        if game is None or not game.plies:
            return frozenset()
        first = len(game.plies) - 1
        if self._change is not None and self._change[1] == len(game.plies):
            first = min(first, self._change[0])
        return frozenset(p.move.start for p in game.plies[first:] if p.move is not None)

    def _start_story(self, position: Position) -> Story:
        """The referee's start from ``position``, its side to move named."""
        return Story(StoryKind.START, position.board, rules=self.logged_game.current.rules,
                     turn=position.turn)

    def _board_read(self, reading: Reading) -> Story:
        """A game the referee starts from the board: the board as read, the named side to
        move (acting on it refuses a board no game can start from)."""
        return self._start_story(reading.position(self.logged_game.current.game.start.turn))

    def _saw_stop(self, story: Story) -> None:
        """Remember a chain seen resting on an inner landing, for the reply that may follow."""
        h, game = story.hypothesis, self.game
        if (h is not None and h.verdict is Verdict.PARTIAL_CHAIN and h.landed_on is not None
                and game is not None):
            self._stop = (len(game.plies), h.moves[0], h.landed_on)

    def _seen_stop(self, game: Game) -> tuple[Move, int] | None:
        """The chain seen stopped in the game's position, if the game is still there."""
        if self._stop is None or self._stop[0] != len(game.plies):
            return None
        return self._stop[1], self._stop[2]

    def _gap_story(self, reading: Reading, time: float, come_back: bool = False) -> Story | None:
        """After a gap, the plies that lead from the game to a board no story fits.

        A stretch of ``gap_after`` seconds in which no reading was followed is a gap too:
        the readings came one at a time between hands, each broken off before it was
        confirmed (kingplay 70002: every ply under a hand for most of its time, the kings
        read as men and back). Those readings, the glimpses, tell which of the lines to the
        board was played (:func:`likeliest`), and its plies must fit the time before the
        board was first glimpsed as it stands (:func:`first_seen`). ``come_back``: legal
        lines in which a piece comes back are searched too (:func:`tracker.gaps.comes_back`),
        for a caller that lets only the glimpses' lead record them."""
        stretch = self._gap_stretch(time)
        if not isinstance(self.phase, Playing) or stretch is None:
            return None
        since, seconds = stretch
        record, config, alerted = self.logged_game.current, self.config, self._alerted()
        seen, most = sight(reading, config.square_tolerance), most_plies(seconds, config)
        key = (id(record), len(record.game.plies), record.game.position, seen, most, alerted, come_back)
        if self._gap_lines is None or self._gap_lines.key != key:
            fixed = config.first_mover is not None
            lines = gap_lines_seen(record, seen, most, fixed, come_back)
            on_alert = [] if alerted is None else lines_on_alert(record, alerted, seen, most)
            played_on = None  # the alerted board the lines go on from, where they do
            if on_alert and (not lines or len(on_alert[0][1]) < len(lines[0][1])):
                # The attempt played on beats it taken back unseen, one ply more.
                lines, played_on = on_alert, alerted
            # A line with one irregular ply where no legal line fits, or as long as the
            # legal lines, as their rival (#42); none beside lines played on from an alert.
            one_irregular = [] if played_on is not None else irregular_lines_seen(record, seen, most, fixed, lines)
            if not lines and not one_irregular and alerted is not None:
                # Played on from the attempt, with an irregular ply of its own.
                played_on, one_irregular = alerted, irregular_lines_on_alert(record, alerted, seen, most)
            self._gap_lines = _GapLines(key, lines, one_irregular, played_on)
        glimpses = tuple(g for g in self._glimpses if g.time >= since)
        gap = self._gap_lines
        alerted = gap.alerted
        found = likeliest(record, gap.legal, reading, config.margin, glimpses, alerted)
        irregular = likeliest_irregular(record, gap.irregular, reading, glimpses, alerted)
        lead = (None if found is None or irregular is None
                else irregular_lead(record, found, irregular, reading, glimpses))
        if lead is not None and lead < config.margin:
            irregular = None  # the legal lines, as likely or nearly (#42: the last resort)
        if irregular is not None:
            mover, line, board = irregular
            story = Story(StoryKind.GAP, board, mover=mover, irregular=line, on_alert=alerted is not None)
        elif found is not None:
            story = Story(StoryKind.GAP, found.board, mover=found.mover, lines=found.lines,
                          on_alert=alerted is not None, unconfirmed=lead is not None and lead > 0)
        else:
            return None
        if self._gap_from is None:
            seconds = first_seen(glimpses, story.board, config.square_tolerance, time) - since
            if most_plies(seconds, config) < story.plies:
                return None  # more plies than the time before the board was seen allows
        return replace(story, gap=round(seconds, 1))

    def _gap_or_misread(self, told: Story | None, reading: Reading, time: float) -> Story | None:
        """After a gap, the gap's line to the board as read (:meth:`_gap_story`), unless it
        is a legal line that a square it changes is read against (:meth:`_read_against`)
        while the likeliest story of one or two plies (``told``) explains the board but for
        a misread's few squares (``Story.against``): then that story, acted on as a misread.

        The gap's search tries every legal line of up to ``gap_plies`` plies for the board
        as read, so a board misread on one square after a gap is nearly always some line of
        many plies, which turns the misread into plies (kingplay 70136: after 30-19 25-22,
        unseen in glare, a light man on 12 read dark was "explained" by 30-19 12-16 19x12
        25-22 24-19, the man on 24, which it moves, read there still: four plies nobody
        played). The fewer plies are the referee's reading, as without a gap, unless
        the line's own squares say it was played.

        A line of more plies than the camera's gap alone fits, found only because the
        readings before it were not followed either (:meth:`_gap_stretch`), is taken only
        where it is legal and no square it changes is read against; else the board stays
        unexplained, as it was when no such line was looked for. Its rival of one or two plies
        is no reading of that board: the plies of the readings not followed are missing from
        it (kingplay 70142: 25-22 1-6 30-26 8-11 23-19 6-10 made over 19 s, read two squares
        off after the light changed, told as 23-19 8-11 with 25-22, 1-6 and 30-26 misread)."""
        gap = self._gap_story(reading, time)
        game = self.game
        if (gap is not None and game is not None and self._longer_than_unseen(gap)
                and (gap.irregular is not None or self._read_against(reading, gap.board, game) > 0)):
            return None
        if (gap is None or game is None or told is None or not told.against or told.kind is StoryKind.MISMATCH
                or gap.irregular is not None or self._read_against(reading, gap.board, game) == 0):
            return gap
        return told

    def _longer_than_unseen(self, gap: Story) -> bool:
        """Whether the gap's line ``gap`` has more plies than the camera's own gap (no
        settled reading for ``gap_after`` seconds) fits without the time of the readings
        not followed before it (:meth:`_gap_stretch`)."""
        if self._gap_from is None:
            return False
        return gap.plies > most_plies(self._gap_to - self._gap_from, self.config)

    def _read_against(self, reading: Reading, board: Board, game: Game) -> int:
        """How many squares ``board`` changes on the board on the table are read likeliest as
        holding another side than ``board`` puts there (or a piece where it puts none, or
        none where it puts one): the reading's own word against the change, not a doubt of
        it (a square a line fills read as its piece by less than :func:`read_well` asks)."""
        return read_otherwise(reading, board, changed_squares(board, self._on_the_table(game.position)))

    def _gap_stretch(self, time: float) -> tuple[float, float] | None:
        """When the gap began and how long it was (:meth:`_gap_story`); None when none.

        A gap of the camera's (no settled reading for ``gap_after`` seconds) that came after
        readings no story was confirmed on begins where the game last followed a reading,
        not where the camera last saw the board: the plies of its line may have been made
        while those readings came, each too far off its board to be taken (a dim board read
        4-6 squares off), as well as while the board was unseen. Counted from the last
        reading seen, the time fitted fewer plies than were made, no line was found, and the
        game was lost for good (kingplay 70150: 26-23 and 5-9 made in sight but not followed,
        27-24 and 8-11 under a head 4.5 s long, 29-25 after it; the board read after it, right
        on every square's side, is five plies on, and 4.5 s fitted four)."""
        if self._gap_from is not None:
            since = self._gap_from if self._followed is None else min(self._followed, self._gap_from)
            return since, self._gap_to - since
        if self._followed is not None and time - self._followed >= self.config.gap_after:
            return self._followed, time - self._followed
        return None

    def _witnessed_gap(self, story: Story, reading: Reading, time: float) -> Story:
        """A side moving twice (``story``) after a gap, unless the glimpses met on the way
        saw a line through the gap that ends on the same board, by the margin
        (:func:`tracker.gaps.line_lead`): then that line (kingplay 70070: a king's 30-25,
        light's 4-15, the king's 25-30 with a capture due, all under a sleeve; the board
        after it is the board "moved twice" leads to, and only the glimpses saw the king
        away). Its plies may come back to where they started (a king out and home), which no
        board after the gap shows: only the glimpses witness them, so only a lead of theirs
        lets them be recorded."""
        game, stretch = self.game, self._gap_stretch(time)
        gap = self._gap_story(reading, time, come_back=True)
        if game is None or stretch is None or gap is None or gap.on_alert or gap.board[:2] != story.board[:2]:
            return story
        start = self.logged_game.current.position_for(gap.mover)
        line = (gap.irregular.positions(start) if gap.irregular is not None
                else line_positions(start, gap.lines[0]))
        glimpses = tuple(g for g in self._glimpses if g.time >= stretch[0])
        twice = [game.position, Position(*story.board, turn=game.position.turn)]
        return gap if line_lead(line, twice, reading, glimpses) >= self.config.margin else story

    def _legal_gap(self, story: Story, reading: Reading, time: float) -> Story:
        """A move answered by a capture missed (``story``) after a gap, unless a legal line
        through the gap ends on the same board: then that line, as a gap's search takes a
        line with an irregular ply only where no legal line fits (kingplay 70022: a king's
        10-19 and 19-15 around 22-18, under a hand for 7 s, end where 10-15 answered by
        22-18 with 22x11x20 due does; the irregular story was taken, and a later ply
        invented)."""
        gap = self._gap_story(reading, time)
        if gap is None or gap.irregular is not None or gap.on_alert or gap.board[:2] != story.board[:2]:
            return story
        return gap

    def _reread(self, story: Story) -> Story:
        """A side moving twice right after the record took a change of several plies, legal
        after the line of the other parity (:mod:`tracker.parity`): the ply, that line read
        first. A "moved twice" there is evidence of the line's parity, not of the players'."""
        other, game = self._parity, self.game
        if (other is None or game is None or story.kind is not StoryKind.GAME or self.alert is not None
                or len(game.plies) != other.plies or game.position.board != other.position.board
                or not other.decides(story.hypothesis, game.rules)):
            return story
        assert story.hypothesis is not None
        return replace(story, hypothesis=replace(story.hypothesis, verdict=Verdict.MOVE),
                       mover=other.position.turn, reread=other)

    def _before(self, story: Story) -> tuple[Position, int] | None:
        """Where a story's plies start in the record, and how many plies it holds then."""
        game, record = self.game, self.logged_game.current
        if game is None or not isinstance(self.phase, Playing):
            return None
        return record.position_for(story.mover), len(game.plies)

    def _other_parity(self, story: Story, before: tuple[Position, int] | None) -> OtherParity | None:
        """After acting on ``story``, the line of the other parity to keep (:mod:`tracker.parity`):
        kept as it was while the record did not change, carried along or made anew by a
        change of several legal plies, dropped by anything else: a single ply decides, and so
        does an attempt alerted (an irregular ply in turn after the record's line; kingplay
        70049: 3-14 25-22, then 14-21 with 14x27 due, played on by 22-17, is no 22-17 legal
        after 3-7 25-22 7-14)."""
        game, kept = self.game, self._parity
        if game is None or before is None or self.alert is not None:
            return None
        start, since = before
        if len(game.plies) == since and (kept is None or kept.plies == since):
            return kept
        plies = len(game.plies) - since
        several = (story.kind is StoryKind.GAP and story.irregular is None and not story.on_alert) or (
            story.kind is StoryKind.GAME and story.reread is None and story.hypothesis is not None
            and story.hypothesis.verdict is Verdict.TWO_PLIES)
        if not several or plies < 1 or game.positions()[since] != start:
            return None
        glimpses = tuple(self._glimpses)
        if kept is not None and kept.plies == since:
            return kept.along(game.position, plies, game.rules, story.gap, glimpses)
        room = self.config.gap_plies if story.gap is None else most_plies(story.gap, self.config)
        if plies + 1 > room:
            return None  # no time for one ply more
        return other_parity(start, game.position, since, plies, game.rules, story.gap, glimpses)

    def _alerted(self) -> Position | None:
        """The board of the open irregular alert, its side to play on from it to move (None:
        no such alert)."""
        alert = self.alert
        if alert is None or alert.kind is not AlertKind.IRREGULARITY or alert.fen is None:
            return None
        return Position.from_fen(alert.fen)

    def _confirmed(self, streak: _Streak, time: float) -> bool:
        """Whether the streak's story has been read long enough, and well enough
        (:meth:`_read_well`), to act on.

        A board no story explains waits ``misread_patience`` seconds, as a misread is brief
        (a piece read for a moment on a square a hand just emptied, a board read in the
        middle of a cross-fade that no hand announced, must not become the record). It is
        acted on at once when it is one piece moved against the rules, read well
        (:meth:`_stepped`): two squares that change together, as a hand does and a misread
        rarely does. A board that came with no hand over the board (read changing in sight:
        a video's cross-fade, a reading in transit, a lamp's spot moving over the pieces;
        :meth:`_arrive`) is acted on once it stayed ``transit`` seconds, a legal ply too (the
        set-up aside, which no ply made): a ply is made by a hand, and a board that changes
        without one is rarely a board (kingplay 70150: a set-up found a ply in, read across a
        flicker of the gate, never started). So
        is one that takes an open alert's attempt back and alerts anew (:meth:`_undoes_alert`)
        after a hand: two irregular acts at once are rarer than a glimpse misread. One that
        has the side of the alerted attempt move again (:meth:`_moves_again`) and came in
        sight waits ``misread_patience``, as a board no story explains does: a side moving
        twice with no hand seen is far rarer than a reader misreading two squares for a
        second (kingplay 70033: while light's king made its capture, a dark piece read on 17
        and none on 21 was taken for dark's 21-17 after its alerted 27-23, and stood once
        play went on: a ply nobody played). A gap's line the reading argues against on more
        squares than a misread's waits ``misread_patience`` too (:meth:`_gap_read_against`).
        The alerted board standing and its opponent moving twice from it (``Story.then``, the
        last story of all: three irregular acts for one board) is never acted on while the
        reading argues against its board on more squares than a misread's
        (:func:`read_otherwise`): a bad reading, however long it holds, fits the story that
        explains most boards (kingplay 70160: light's king 18-27 read with dark's man still
        on 20, a dark man on a dark square in a dim room, alerted as light moving twice;
        then, on a board read with men on 1 and 8 that stand nowhere, the light man on 5 read
        dark and 25 empty, 18-27 stood and dark's 20-16 was recorded as a capture missed
        before its 32x23: the players' order was 20-16 18-27).
        A start first seen with its first plies made is taken only from a reading sure of
        another side than its board puts there on no more than a misread's few squares
        (``misread_squares``, :func:`read_surely_otherwise`): plies nobody saw made are believed
        from a reading of their board, a doubt here and there, not from one that best fits
        a board a ply in only among boards it reads worse still (kingplay 70165: the
        stream's first frame, blurred by a low bit rate's start, read 25 empty and 21 held,
        and sure of five other squares as none of the starts has them; the set-up was on the
        table, and the game began with a 25-21 nobody played; 70150, two plies made before
        the camera saw the board, read doubting three squares at about one half) until it
        held ``transit`` seconds: a frame blurred by a stream's start passes, while a dim
        board's set-up a ply or two in is read so for as long as it stands (kingplay 70026:
        25-22 5-9 read with five squares otherwise under a shadow for 1.7 s, the only start
        it showed)."""
        story, config = streak.story, self.config
        if streak.count < config.confirm_readings or not self._read_well(streak, time):
            return False
        if (story.kind is StoryKind.START and story.moves and time - streak.since < config.transit
                and read_surely_otherwise(streak.reading, story.board) > config.misread_squares):
            return False  # plies nobody saw made, on a reading sure of a board they do not make
        arrived = self._arrived
        across = arrived is not None and arrived.across and story.kind is not StoryKind.START
        if (arrived is not None and (across or (arrived.in_sight or self._undoes_alert(story))
                                     and self._alerts(story)) and time - arrived.since < config.transit):
            return False  # a board in transit (a cross-fade, a spot of light) is taken only once it stays
        if (arrived is not None and arrived.in_sight and self._moves_again(story)
                and time - arrived.since < config.misread_patience):
            return False  # no hand made it: a misread until it lasts as one would not
        if story.kind is StoryKind.STOOD and self._read_when_alerted():
            return False  # the board the alert was raised on is not yet the reply to it
        if self._gap_read_against(streak) and time - streak.since < config.misread_patience:
            return False  # the reading's word against the line's board: a misread until it lasts
        if story.then is not None and read_otherwise(streak.reading, story.board) > config.misread_squares:
            return False  # the last of stories told by a bad reading: never the record
        if story.kind is StoryKind.STOOD and self._pieces_counted_otherwise(story):
            return self._played_on_for_sure(streak)
        if story.kind is not StoryKind.MISMATCH or self._stepped(story, streak.reading):
            return True
        since = streak.since
        if self._contradicted is not None and self._contradicted[0] == story.board[:2]:
            since = min(since, self._contradicted[1])  # read so since, taken for a misread
        return streak.count >= config.confirm_mismatch and time - since >= config.misread_patience

    def _gap_read_against(self, streak: _Streak) -> bool:
        """Whether the streak tells a gap's line (legal, or with an irregular ply) that the
        latest reading argues against on more squares than a misread's few
        (``misread_squares``): each read likeliest as holding another side than the line
        puts there (:func:`read_otherwise`), not a doubt of it.

        The gap's search takes the board as the reading allows it on each square (every
        piece within ``square_tolerance`` of the likeliest), so on a board read badly
        everywhere (dim, a glare, a far camera) some line of up to ``gap_plies`` plies fits
        a blend of the misreads and the board on the table. Such a line is a misread's
        board, and waits ``misread_patience`` as a board no story explains does (kingplay
        70152: a king's 22-11 26-23 11-22 28-24, unseen under a dim, glared board, then a
        board read briefly with most of the squares the line changes read otherwise, taken
        for 22-17 26-23 17-21 27-24, and every later ply invented; 70158: 26-22 with a
        capture due, then 6-10 30-25 10-15, taken to such a board once it held the
        ``transit`` a line with an irregular ply waits). A line read against on a square or
        two is not held so: the square a flying king left is often read as still holding
        it (kingplay 70024; 70152's 29x8 4x11 21-17 11-22 through an earlier gap).

        The squares the line leaves as they were count as much as those it changes: a
        reading that misreads many squares the line does not touch is a bad reading, not a
        board, and the more plies a line may have, the likelier one of them fits the few
        squares it is read well on (kingplay 70178: after a bump of the camera under a
        glare, 6-10 12-16 10-15 16-19 15x24 were taken to a board read a moment with men on
        7, 10, 12 and 25 that the line leaves empty, and the kings read as men; nobody
        played one of the five plies)."""
        story = streak.story
        return story.kind is StoryKind.GAP and read_otherwise(streak.reading, story.board) > self.config.misread_squares

    def _read_well(self, streak: _Streak, time: float) -> bool:
        """Whether a story of several plies at once (two plies, a chain stopped or a capture
        missed then the reply, a side moving twice, a gap's line with an irregular ply) is
        read well enough to act on: each square it changes on the board on the table read as
        holding the side the story puts there (:func:`read_well`); else only once it held
        ``transit`` seconds. A story of one ply is believed as before, and so is a gap's
        legal line whose board came after a hand, which the board seen after the gap and
        the glimpses before it choose (the square a flying king left is read a little as
        holding it: kingplay 70024), once read on the squares it changes no more against
        than a misread is (:meth:`_gap_read_against`, in :meth:`_confirmed`).

        The more plies a story needs, the more boards it can explain: a board read a few
        squares off on a dim, noisy frame is some line of two plies more often than the
        players made one (kingplay 70032: two readings 5 squares off, 0.55 on a square the
        story changes, taken for two plies nobody played). A gap's line whose board came in
        sight, read changing with no hand over the board since the reading before, is
        weighed so too: its plies were made under hands, and a board that changes without
        one is the reader's in transit more often than the players' (kingplay 70152: after
        a misread board, two readings with a doubt on a square the line empties, taken for
        five plies with three captures that nobody played). A gap's line read in
        new light is weighed before (:meth:`_relit_misread`).

        Nor are plies told after a gap read well where a further ply may have been made
        unseen beside them (:meth:`_ply_unseen`): the reading sure of another side on a
        square they leave as it was, and a line of one ply more to a board the reading
        allows. The shorter story, taken at once, leaves that ply to be recorded later, in
        the wrong order (kingplay 70118: no reading followed while 8-12 26-30 1-6 were
        made, 12 read empty throughout and 8 surely empty; taken for 1-6 26-30 with 8
        misread, then 8-12 recorded after them: two plies invented). Held ``transit``, the
        readings after the hand tell, and the gap's search counts the plies. Plies of one
        hand, read surely otherwise beside them, are held back so no more: the square is a
        misread far more often, and a board held back under the next hand is lost (kingplay
        70160: a dark king on 24 read surely gone beside 30-23 11-8, made under one hand,
        the game then lost; 70159), and in new light it is the light's more
        often than a ply (kingplay 70033: 31-27 2-7, then 6-9 29-25, each read in new light
        with an empty square or two read surely as holding a man; held back, the relight
        after 6-9 29-25 taught another board and the game was lost)."""
        story, game = streak.story, self.game
        h = story.hypothesis
        if game is None:
            return True
        in_sight = story.kind is StoryKind.GAP and self._arrived is not None and self._arrived.in_sight
        several = (story.irregular is not None or story.then is not None or in_sight
                   or (h is not None and len(h.moves) > 1))
        if not several or time - streak.since >= self.config.transit:
            return True
        return (self._changes_read_well(streak.reading, story.board, game)
                and not self._ply_unseen(story, streak.reading, time))

    def _ply_unseen(self, story: Story, reading: Reading, time: float) -> bool:
        """Whether beside the plies of ``story``, told after a gap (:meth:`_gap_stretch`:
        no reading followed for ``gap_after`` seconds), a further ply may have been made
        unseen: the reading is sure of another side than the story's board puts on some
        square (:func:`read_surely_otherwise`), and a legal line of one ply more, from where
        the story's plies start, leads to a board the reading allows on every square
        (:func:`tracker.gaps.a_ply_more`). Not in new light (``Reading.relit``), where a
        square read surely otherwise is the light's misread more often than a ply."""
        h = story.hypothesis
        if (h is None or len(h.moves) < 2 or reading.relit or self._gap_stretch(time) is None
                or not read_surely_otherwise(reading, story.board)):
            return False
        record = self.logged_game.current
        seen = sight(reading, self.config.square_tolerance)
        return a_ply_more(record.position_for(story.mover), seen, record.rules, len(h.moves) + 1)

    def _changes_read_well(self, reading: Reading, board: Board, game: Game) -> bool:
        """Whether each square ``board`` changes on the board on the table is read well."""
        return read_well(reading, board, changed_squares(board, self._on_the_table(game.position)))

    def _relit_misread(self, story: Story, reading: Reading) -> bool:
        """Whether a story of a reading made in new light (a shadow fell, a lamp went off)
        is the reader's, not the players': a board no ply explains (a mismatch) that differs
        from the game's on more squares than ``relit_squares`` (the light moved the reads,
        the players did not move that many pieces at once: kingplay 70012, a shadow, 15
        squares read otherwise), or whose reading does (kingplay 70188: under a shadow, one
        square read wrong for sure made the mismatch's board, while many more leant wrong;
        its alert stopped the reader from being relit, and nothing more was recorded), or a
        gap's line not read well on each square it changes.

        A gap's line is legal plies, and several of them may move many squares at once (made
        under an arm resting on the board while the hall's light changed: kingplay 70024),
        so it is believed read well. Not read well, it is not believed however long it
        holds: a reader not adapted to the light misreads many squares at once, steadily,
        and among the lines of up to ``gap_plies`` plies one fits nearly any board (kingplay
        70096: no reading followed for 12 s under a dim, changing light, a board read in it
        with a square at 0.46 was taken for five plies nobody played). The reader is then
        relit with the line's board weighed as doubt (:meth:`boards_doubted`), and the line
        is believed once the reader, so adapted, reads it well (kingplay 70039: 31, which a
        dark king left, read as a light piece at 0.94, kept 4-25 31-20 5-9 from the record
        until a relight taught the reader a one-ply story's board instead)."""
        game = self.game
        if game is None:
            return False
        if story.kind is StoryKind.GAP:
            return not self._changes_read_well(reading, story.board, game)
        if story.kind is not StoryKind.MISMATCH:
            return False
        table = self._on_the_table(game.position)
        return max(len(changed_squares(story.board, table)), read_otherwise(reading, table)) > self.config.relit_squares

    def _pieces_counted_otherwise(self, story: Story) -> bool:
        """Whether ``story`` plays on from an open board-mismatch alert whose board holds more
        pieces of a side, or fewer, than the game's board (captured men not lifted included):
        pieces no ply brings back, which a reading under new light (a shadow over half the
        board: men read on empty squares) invents far more often than players put down, or
        pieces no ply took, which glare or a dim corner washes out of a reading far more
        often than players lift them (kingplay 70125: 27-24 read in dim light as 27 and 28
        emptied, alerted, then stood as an "irregular position change" once a misread board
        was taken for the reply, and every ply after it invented)."""
        alert, game = self.alert, self.game
        if (alert is None or alert.kind is not AlertKind.BOARD_MISMATCH or alert.fen is None
                or game is None):
            return False
        shown = self._on_the_table(game.position)
        board = Position.from_fen(alert.fen).board
        return any(bin(board[side]).count("1") != bin(shown[side]).count("1") for side in (0, 1))

    def _played_on_for_sure(self, streak: _Streak) -> bool:
        """Whether play truly went on from a board with pieces added or gone
        (:meth:`_pieces_counted_otherwise`):
        a hand came over the board after its alert, and the board after the reply was read
        on every square as the story has it (:func:`read_as`) for as many readings as a
        mismatch needs. A board the reader made stands otherwise on the next flicker of the
        same misreads, explained as the board played on (kingplay 70012: 13 light pieces,
        then 5 plies invented)."""
        alert = self.alert
        assert alert is not None
        return (self._covered is not None and self._covered > alert.time
                and streak.count >= self.config.confirm_mismatch)

    def _arrive(self, reading: Reading, time: float) -> None:
        """Note when the pieces read changed, and whether in sight: with no hand over the
        board since the last reading, and frames coming all along (a camera away saw no
        change: ``observe``; a king read as a man or back is no change). A hand is a cover
        that kept the board unread for ``config.hand`` seconds at least; the gate shut for a
        frame or two is a lamp's spot or a shadow crossing its ring, and what is read after
        it changed in sight (kingplay 70149: a spot moving over the home rows read a man
        there as moved a square on, just after one frame the gate took for covered, and the
        game started with a ply nobody played). Such a change is marked as across the
        flicker only where no hand came since the game last took a board: after one, the
        hand made it, and the flicker only showed it whole (kingplay 70060: 6-10 read half
        made after the hand, whole after a flicker of the gate, and a wait for it to stay
        ran into the next hand)."""
        pieces = reading.position().board[:2]
        seen = self._seen
        covered = seen is not None and self._covered is not None and self._covered > seen
        if self._arrived is None or seen is None or covered and time - seen >= self.config.hand:
            self._arrived, self._handled = _Arrival(pieces, time, False, False), True
        elif pieces != self._arrived.pieces:
            self._arrived = _Arrival(pieces, time, True, covered and not self._handled)

    def _read_when_alerted(self) -> bool:
        """Whether the pieces read now were read so already when the open alert was raised.
        A reply is a change: after a hand, or in sight. The board that raised the alert is
        no reply to it, however another story reads its misread squares once the alert's
        board is a candidate (kingplay 70043: a king's plain move alerted on a board with a
        light king imagined on the square it left; 0.13 s later, with no hand, the same
        reads stood as the alert played on twice, the man beside it read as gone)."""
        alert = self.alert
        return alert is not None and self._arrived is not None and self._arrived.since <= alert.time

    def _undoes_alert(self, story: Story) -> bool:
        """Whether ``story`` goes on from the game's position while an irregular attempt is
        alerted: the attempt taken back, and what the board shows then made from there
        (kingplay 70049: a king's plain move alerted, then a board glimpsed between two
        passes of a hand, four squares off, read as the king back home and the reply made
        by the side that had just moved; the reply on the alert's board was the truth)."""
        alert = self.alert
        return (alert is not None and alert.kind is AlertKind.IRREGULARITY
                and story.kind is StoryKind.GAME)

    def _moves_again(self, story: Story) -> bool:
        """Whether ``story`` has the side whose irregular ply is alerted move again, before
        its opponent played on (a second irregular act on top of the first)."""
        h = story.hypothesis
        return story.kind is StoryKind.STOOD and (
            story.then is not None or (h is not None and h.verdict is Verdict.WRONG_SIDE))

    def _alerts(self, story: Story) -> bool:
        """Whether acting on ``story`` raises an irregularity on a new board: a board no story
        explains, or a ply against the rules."""
        h = story.hypothesis
        return (story.kind is StoryKind.MISMATCH or story.then is not None
                or (h is not None and h.verdict in _IRREGULAR))

    def _misread(self, story: Story, reading: Reading, time: float) -> Story:
        """A story the reading contradicts on a misread's few squares (:func:`best_story`)
        is acted on as a misread of them, as the real board almost always is (a piece read
        for a moment on a square a hand just emptied, a man read as the other side). The
        board as read on those squares (:func:`as_read`) is believed instead after a gap
        (what happened unseen is looked for among the plies that fit it), when it is one
        piece moved against the rules, or once it lasted ``misread_patience``."""
        if not story.against:
            self._contradicted = None
            return story
        seen = as_read(reading, story.board, story.against)
        if self._contradicted is None or self._contradicted[0] != seen.board[:2]:
            self._contradicted = (seen.board[:2], time)  # a king read as a man and back is no change
        if (self._gap_from is not None or self._stepped(seen, reading)
                or time - self._contradicted[1] >= self.config.misread_patience):
            return seen
        return story

    def _stepped(self, story: Story, reading: Reading) -> bool:
        """Whether a board no story explains is one piece moved against the rules
        (:meth:`_moved_against_rules`), and read well (:func:`read_well`) on the squares
        that make it so: those it changes, and those of the pieces a legal move would have
        brought to a square it fills. Such a board is a hand's step, alerted at once.

        Read with a doubt there, it is no surer than the legal move with a misread, which
        it stays until it lasts ``misread_patience`` (kingplay 70077: a king's legal 3-10,
        the king still read on 3 as either side's by halves and the man on 8 read as gone,
        was alerted at once as that man leaving its diagonal for 10, and the record
        stopped there)."""
        game = self.game
        if game is None or not self._moved_against_rules(story):
            return False
        alerted = self._alerted()  # the step is made on the open irregular alert's board
        position = game.position if alerted is None else alerted
        table = self._on_the_table(position) if alerted is None else alerted.board
        told = board_sides(story.board)
        changed = {int(s) for s in changed_squares(story.board, table)}
        filled = {s for s in changed if told[s - 1]}
        rivals = {m.start for m in position.legal_moves(game.rules) if m.end in filled}
        return read_well(reading, story.board, sorted(changed | rivals))

    def _moved_against_rules(self, story: Story) -> bool:
        """Whether a board no story explains is the game's, or the open irregular alert's,
        with one piece moved illegally, and not a story's board with a man washed out
        (:func:`washed_out`)."""
        game = self.game
        if game is None:
            return False
        if self.alert is not None:
            moved = self.acts.moved_on(story.board) is not None
        else:
            seen = Position(*settled(story.board, game.position, self.overlay), turn=game.position.turn)
            moved = describe_change(game.position, seen, game.start).side is not None
        return moved and not washed_out(story.board, self._candidates(), self.config.misread_squares)

    def _patience(self, time: float) -> list[GameEvent]:
        """A chain that rests unfinished past its patience is a chain stopped early; it
        rests from when it was first read so, a hand that covered it and left it as it was
        included (kingplay 70002's 17x26 rested 3 s in readings broken by covered frames)."""
        streak, phase, held = self._streak, self.phase, self._held
        if (streak is None or not streak.acted or self.alert is not None
                or not isinstance(phase, Playing) or streak.story.kind is not StoryKind.GAME
                or streak.story.hypothesis is None
                or streak.story.hypothesis.verdict is not Verdict.PARTIAL_CHAIN
                or held is None or time - held[1] < self.config.chain_patience):
            return []
        return self.acts.irregular(phase.game, streak.story.hypothesis, time)

    def _settle_overlay(self, reading: Reading, time: float) -> list[GameEvent]:
        """Forget pending differences the board no longer shows (men lifted, king stacked);
        a king stacked is said (``crowned``)."""
        game = self.game
        if game is None:
            return []
        events = []
        for square in list(self.overlay):
            piece = game.position.piece_at(square)
            if reading.probabilities[square - 1, CLASS_INDEX[piece]] > _SETTLED:
                del self.overlay[square]
                if piece is not None and piece.is_king:
                    events.append(self.acts.crowned(square, piece.colour, time))
        return events
