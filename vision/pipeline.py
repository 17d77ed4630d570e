"""BoardReader: one board's vision stages joined, frame in, settled Reading out.

    frame -> BoardFollower (cheap check, re-localise when bumped)
          -> OcclusionGate (hands, arms, motion)
          -> orientation: the numbering under which the board reads as a start position,
             in any quarter turn of the picture and with either colour in play; before a
             start is seen, a provisional one from the pieces (the colour in play checked
             by the network); mid-game, from the game the log holds
          -> SquareClassifier (only on settled frames that differ from the last read)
          -> Reading

Not every frame is analysed: a glance (:mod:`vision.glance`) at a small grey picture of
each frame lets through only those that can say something new, at the pace a move needs;
the others repeat the last analysed frame's result (``analysed`` False).

Reading costs tens of milliseconds, tracking and gating a few, so a settled board is read
when it settles after something covered it (a hand that moved men must cross the gate's
ring), and again only if the glance sees its picture change or the board moves; the reading
is re-used meanwhile. Each read takes the next of four views of the crops (``view``): as
cut, mirrored left-right, and both of those moved by a pixel. The network was trained on
such views and errs on each partly independently, so a board read again after a misread is
seen anew, not through the same pixels.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from makhos.engine import Colour, Position, Rules
from makhos.engine.position import Board
from makhos.engine.starts import start_boards

from .background import Latest
from .board_light import cell_light, light_changed
from .follower import BoardFollower
from .geometry import BoardLocation
from .glance import Glance
from .lens import Lens
from .occlusion import GateState, GateStatus, OcclusionGate
from .orientation import CAMPS_CLEAR, Orientation, camps_apart
from .photo import numbered
from .rectify import SquareCrops, crop_squares
from .relight import MARGIN, Further, held_out_fit, known_squares, known_squares_doubted
from .reading import CLASS_INDEX, Reading, side_probabilities
from .squares import GameLearning, SquareReader, StartAdapting, StartChecking
from .start_check import (HELD_OUT_NATS, NUMBERINGS, StartSearches, StartVerdict, allowed_misreads, board_labels,
                          chosen_numbering, half_turn, held_out_start, hides_pieces, leading_start, mirrored,
                          played_in, start_fits, swaps_camps)

#: Seconds past the gate's ``settle_s`` that a board stays still, analysed frame by frame,
#: before the glance may pass over frames that show nothing new: the gate first makes the
#: settled board its new normal (passing over frames sooner left it shut after a hand).
SETTLED_S = 0.5
#: Squares the board may move in the image before a settled board is read again.
MOVED = 0.25
#: Seconds after a board was read because its picture changed in sight (no hand over it
#: since the last read), and read otherwise than before, that it is read once more, and
#: again while two reads in a row disagree on a square, at most :data:`LOOKS_AGAIN` times.
#: A change no hand made (a video's cross-fade, light coming up, a board nudged) may still
#: be under way when the glance first sees it, and the glance, made to ignore a wobble,
#: misses the rest of a slow change: a board read half-way through a cross-fade was kept to
#: the end of a real game (julie-log8), its last capture never seen.
LOOK_AGAIN_S = 0.5
LOOKS_AGAIN = 3
#: Seconds a board the gate sees covered (an arm resting on it) stays quiet before it is
#: glanced at through the cover (:meth:`BoardReader._glimpse`): the hand that played is gone.
COVERED_QUIET_S = 0.5
#: Seconds after which a settled board is read again though nothing showed a change (a
#: recheck): a ply made below what the glance and the gate see (a light king moved one
#: square in a dim hall, kingplay 70041's last ply) is read within that time, for one read
#: every so often.
REREAD_S = 4.0
#: Least orientation confidence to fix the numbering (a start position gives much more).
MIN_ORIENTATION = 0.2


@dataclass(frozen=True)
class FrameResult:
    """What vision made of one frame. ``reading`` is None unless the board is settled."""

    time: float
    location: BoardLocation | None  # in the numbering frame once oriented
    gate: GateStatus
    reading: Reading | None
    played: str | None  # colour of the squares in play, once known
    analysed: bool = True  # False: a glance found nothing new, and this repeats the last analysed frame
    glimpse: Reading | None = None  # a read through a cover, never a board (``BoardReader._glimpse``)


@dataclass(frozen=True)
class GameKnowledge:
    """What the game knows that the reader reads by (``BoardReader.follow``).

    ``starts``: the set-ups whose sight fixes the numbering; ``expected``: the board of a
    game in progress (a worker taken up from its log), whose numbering is the one under
    which the camera reads it; ``in_play``: a game is in play, so its numbering stands;
    ``kept``: what the square reader kept with the game (its refits and lessons, in the
    order kept), to read and learn with again.
    """

    starts: tuple[Position, ...]
    expected: Board | None = None
    in_play: bool = False
    kept: tuple[str, ...] = ()


@dataclass(frozen=True)
class Relit:
    """A refit on a read in new light, made off the camera's thread (``BoardReader.relight``):
    the adaptation; whether the board it was fit on is other than the one the game last
    accepted (a ply made under the hand), so the reader is not yet taught the game's board;
    the light of that read; and the reader's ``epoch`` when it was asked."""

    adaptation: str
    played_on: bool
    light: np.ndarray | None
    epoch: int


def view(crops: SquareCrops, read: int) -> SquareCrops:
    """The ``read``-th of four views of a board's crops: as cut, mirrored left-right, moved
    down a pixel, mirrored and moved up a pixel (the edge row repeated, as in training). A
    move of one pixel changes how every disc's rim falls on the pixels."""
    images = crops.images
    if read % 2:
        images = images[:, :, ::-1]
    if read % 4 == 2:
        images = np.concatenate([images[:, :1], images[:, :-1]], axis=1)
    elif read % 4 == 3:
        images = np.concatenate([images[:, 1:], images[:, -1:]], axis=1)
    return crops.with_images(images)


def side_classes(position: Position) -> np.ndarray:
    """(32,) 0 empty, 1 light, 2 dark: what :func:`side_probabilities` says of each square."""
    return np.array([0 if (piece := position.piece_at(s)) is None else 1 + (piece.colour is Colour.DARK)
                     for s in range(1, 33)])


def sides_misread(probabilities: np.ndarray, shown: str) -> tuple[int, ...]:
    """The squares (1-32) a read's sides (:func:`side_probabilities`) put another side, or
    none, than ``shown`` does (labels as :meth:`BoardReader.learn` takes them; a man and a
    king alike; '?', a square the game leaves open, is misread by nothing)."""
    told = np.array([".ld".index(label.lower()) if label != "?" else -1 for label in shown])
    read = side_probabilities(probabilities).argmax(axis=1)
    return tuple(int(square) + 1 for square in np.flatnonzero((read != told) & (told >= 0)))


class BoardReader:
    """Vision for one board. Not thread-safe: one reader per camera."""

    def __init__(self, classifier: SquareReader, follower: BoardFollower | None = None,
                 gate: OcclusionGate | None = None, played: str | None = None,
                 quarter_turns: int | None = None, lens: Lens | None = None,
                 starts: list[Position] | None = None, glance: Glance | None = None) -> None:
        self.classifier = classifier
        self._learning = classifier if isinstance(classifier, GameLearning) else None
        self.follower = follower or BoardFollower()
        self.gate = gate or OcclusionGate()
        self.played = played
        self.quarter_turns = quarter_turns  # from the follower's corner order to the numbering
        self.glance = glance or Glance()
        self.lens = lens  # a calibrated lens: crops are cut from the ideal image
        # What the game knows (``follow``). The board a game in progress has (a recorder
        # resumed from its log): the numbering is the one under which the camera reads it,
        # not the start position's cue.
        self._expected: Board | None = None
        # The start positions whose sight fixes the numbering, and whether to look for them:
        # until one is seen or a game is in play (the session says so), the numbering is
        # provisional, so a board first oriented wrong (a camera at the side of the table,
        # men on the light squares) is turned right when its start appears.
        self._seek(starts if starts is not None else start_boards(Rules()))
        self._seeking_start = quarter_turns is None
        self._in_play = False  # the session says a game is in play (``follow``)
        self._boards = self.follower.boards  # the follower's boards taken so far (``_another_board``)
        # The square reader's refit (``StartAdapting``), as JSON, for the session to keep
        # with the game; None until it is made.
        self._adaptation: str | None = None
        self._last: FrameResult | None = None  # of the last analysed frame
        self._probabilities: np.ndarray | None = None  # of the last read
        self._read_crops: SquareCrops | None = None  # the crops of the last read, as read
        self._read_frame: tuple[np.ndarray, np.ndarray] | None = None  # its frame and corners
        self._reads = 0
        # The last read was let through only past a lamp's spot (``GateStatus.spotlit``):
        # the game reads it, but the reader is never taught by it (``learn``).
        self._spot_read = False
        self._read_picture: np.ndarray | None = None  # the glance's picture of the frame last read
        self._read_corners: np.ndarray | None = None  # where the board was when read
        self._read_at = 0.0  # when it was read
        self._read_key: tuple[str | None, int | None, str | None] | None = None  # numbering, refit
        self._disturbed = False  # moved, covered or lost since the last read: read again once still
        self._glimpsed = False  # the board, covered, was glimpsed since it was last quiet
        self._look_again: float | None = None  # when to read a board read in sight once more
        self._looks = 0  # how many more times, while the reads disagree
        self._start_searches = StartSearches()  # when a settled board is searched for its start
        self._start_verdict: StartVerdict | None = None  # why that search found none
        self._start_taken: StartVerdict | None = None  # what the search that found one read
        self._start_hidden = False  # the start it found hides its pieces from the zero-shot reading
        self._start_known: str | None = None  # ... found a ply or two in: the squares known of it
        self._light: np.ndarray | None = None  # the light of the last read (``board_light``)
        self._taught_light: np.ndarray | None = None  # ... of the last read the game taught
        self._relit = False  # the last read was made in another light than that
        self._moved_since_taught = False  # the gate saw the board covered or moving since, or
        # two reads in the light the reader knows disagreed (``_read_in_known_light``)
        self._known_light_read: tuple[object, np.ndarray] | None = None  # the last such read: key, sides
        self._weighed = False  # the last read was handed to a relight (``relight``)
        # Relights run off the camera's thread, one at a time (``relight``); what one made
        # is adopted before a later frame is read, unless the epoch moved since it was asked:
        # the gate saw the board covered or moving, or the game taught the reader.
        self._relights: Latest[Relit | None] = Latest("relight")
        self._epoch = 0

    def follow(self, game: GameKnowledge) -> None:
        """Read the board as the game knows it: the one way the session tells the reader
        about the game (never by setting its fields)."""
        self._seek(list(game.starts))
        if game.expected is not None and not self.oriented:
            self._expected = game.expected  # found again mid-game: number it as the log does
        self._in_play = game.in_play
        if game.in_play:
            self._seeking_start = False  # a game is in play: its numbering stands
            self.follower.hold()  # ...and its board is the camera's
        if game.kept:
            self._epoch += 1  # a relight asked before the game was taken up is outdated
            if self._learning is not None:
                self._adaptation = self._learning.resume(game.kept)
            elif isinstance(self.classifier, StartAdapting):
                self.classifier.restore(game.kept[-1])
                self._adaptation = game.kept[-1]

    def learn(self, shown: str) -> str | None:
        """The game accepted a position: the squares of the last read show ``shown`` (32
        labels in square order, '?' where the game cannot say). A reader that learns the
        game (``GameLearning``) learns it, and returns the lesson for the session to keep
        with the game; a refit it calls for runs in the background and becomes
        :attr:`adaptation` before a later frame is read. Called after the position is
        accepted, so the refit is never on the path that decides a move.

        A reader the start taught nothing (:meth:`started`: the tracker confirmed it on a read
        more than a start's misreads off it) adapts on the first board the game accepts that
        the last read reads within them, as on a start: such a board is known square by
        square as well as a start, and a reader left zero-shot learns nothing all game
        (kingplay 70056: started on a frame of its first ply read further off than that, it
        read the whole game zero-shot, and later lost a man on 2 no capture took).

        Nothing is learnt from a read the gate let through only past a lamp's spot
        (``GateStatus.spotlit``): it was made under a light that moved, and a reader taught
        on such a frame read the frames after it worse (kingplay 70041: taught past a spot
        at 3 s, a ply nobody played recorded at 16.8 s). The game may still accept what it
        reads, where its rules explain it."""
        if self._spot_read:
            return None
        if self._adaptation is None:
            self._adapt_within_misreads(shown)
        self._taught(self._light)
        if self._learning is None or self._read_crops is None:
            return None
        return self._learning.learn(self._read_crops, shown)

    def _taught(self, light: np.ndarray | None, played_on: bool = False) -> None:
        """The reader was taught a read: its ``light`` is the light the reader knows, and
        nothing has moved since, unless the board it was taught is ``played_on`` from the
        game's (a relight's); a relight asked before is outdated."""
        self._taught_light, self._relit, self._moved_since_taught = light, False, played_on
        self._known_light_read = None
        self._epoch += 1

    def relight(self, shown: str, since: Sequence[str] = (), doubted: Sequence[str] = (),
                further: Further | None = None) -> bool:
        """The light on the board changed and the last read, made in it, reads the board
        the game last accepted (``shown``, labels as :meth:`learn`) otherwise on many
        squares: adapt the square reader on that frame, as on the start. Where nothing moved
        since the last read the game taught, on ``shown``. Where the gate saw the board
        covered or moving since, or a read in the light the reader knows saw it change
        (:meth:`_read_in_known_light`), a ply may have been made and ``shown`` labels
        the frame no more: on the squares the boards the plies since can lead to (``since``:
        the game's stories, ``shown`` among them) pin, among those the frame supports
        (:func:`relight.known_squares_doubted`), with the boards ``doubted`` (the game's
        taken back, a gap's read not well) and, where more plies than they hold fit the time
        since (``further``: the boards a ply on from one), the boards further on weighed as
        doubt only. Once per read, and never on one let through only past a lamp's spot
        (:meth:`learn`).

        The weighing and the refit (a third of a second of CPU) run off the camera's thread
        (``vision.background.Latest``), as a refit on an accepted board does, so the frames
        that decide a move are not held up; the refit becomes :attr:`adaptation`, for the
        session to keep with the game, before a later frame is read (``process``: a reader
        not ``live`` waits for it there, so a recording reads the same each run). One that
        lands after the gate saw the board covered or moving, or after the game taught the
        reader, is dropped: the frame it was fit on may show a board that is gone. Returns
        whether one was asked."""
        if (self._spot_read or not self._relit or self._weighed or self._read_frame is None or self.played is None
                or not isinstance(self.classifier, StartAdapting)):
            return False
        labels = self._relit_labels(shown, tuple(since), tuple(doubted), further)
        if labels is None:
            return False
        self._weighed = True
        reader, (image, corners), played, lens = self.classifier, self._read_frame, self.played, self.lens
        light, epoch = self._light, self._epoch

        def job() -> Relit | None:
            known = labels()
            if known is None:
                return None
            return Relit(reader.fit(image, corners, played, known, lens), known != shown, light, epoch)

        self._relights.ask(job)
        return True

    def _relit_labels(self, shown: str, since: tuple[str, ...], doubted: tuple[str, ...],
                      further: Further | None) -> Callable[[], str | None] | None:
        """What the last read, made in new light, is to be adapted on, to be worked out off
        the camera's thread (:meth:`relight`): ``shown`` where nothing moved since the game
        last taught the reader; else the squares ``since`` pin, with ``doubted`` and ``further``
        as doubt (None from it: the frame supports none of them well enough); None where
        they cannot be weighed."""
        if not self._moved_since_taught:
            return lambda: shown
        reader, crops = self.classifier, self._read_crops
        if not since or crops is None or not isinstance(reader, StartChecking):
            return None
        return lambda: known_squares_doubted(lambda boards: reader.held_out(crops, boards), since, doubted, further)

    def _adopt_relit(self) -> None:
        """Read from now on with the refit a relight made (:meth:`relight`), where one
        landed (waited for, unless the reader is ``live``) and is not outdated. Its read's
        light is then the light the reader knows; where it was fit on a board played on from
        the game's, the game's board is not what the reader was taught."""
        live = isinstance(self.classifier, StartAdapting) and self.classifier.live
        relit = self._relights.take(wait=not live)
        if relit is None or relit.epoch != self._epoch or not isinstance(self.classifier, StartAdapting):
            return
        self.classifier.restore(relit.adaptation)
        self._adaptation = relit.adaptation
        self._taught(relit.light, relit.played_on)

    def started(self, shown: str) -> None:
        """The game started from the board of the last read, the tracker confirmed it:
        its squares show ``shown`` (as :meth:`learn`). A reader still zero-shot (its own
        start check never passed: phantom men on more squares than it allows under every
        numbering) adapts on that frame as on a start it found itself: the start is the one
        moment every square is known for sure, and a reader never adapted learns nothing all
        game (``AdaptingReader.learn`` pulls every refit toward the start's).

        Only where the last read reads that board within a start's misreads
        (``start_check.START_MISREADS``, in occupancy and side): a board the tracker took through
        more (a start first seen with plies already made, read through phantom men and a
        hand's shadow) would teach the reader its misreads as this board's look: such a
        reader adapts on the first board the game accepts that it reads well (:meth:`learn`).
        A reader already adapted (on this start, or a game taken up) keeps its heads; none
        adapts on a read let through only past a lamp's spot (as :meth:`learn`)."""
        if self._adaptation is None and not self._spot_read:
            self._adapt_within_misreads(shown)

    def _adapt_within_misreads(self, shown: str) -> None:
        """Adapt a reader never adapted on the last read, its squares showing ``shown``, where
        that read reads ``shown`` within a start's misreads (:meth:`started`)."""
        if self._probabilities is None:
            return
        pieces = np.array([label not in ".?" for label in shown])
        if len(sides_misread(self._probabilities, shown)) > allowed_misreads(pieces[None, :])[0]:
            return
        self._adapt_on_last_read(shown)

    def _adapt_on_last_read(self, shown: str) -> None:
        """Adapt the square reader on the frame of the last read, its squares showing
        ``shown``, as on a start (the refit becomes :attr:`adaptation`); that read's light is
        then the light the reader knows. Not where nothing was read yet or the reader does
        not adapt."""
        if self._read_frame is None or self.played is None or not isinstance(self.classifier, StartAdapting):
            return
        image, corners = self._read_frame
        self._adaptation = self.classifier.adapt(image, corners, self.played, shown, self.lens)
        self._taught(self._light)

    def _seek(self, positions: list[Position]) -> None:
        self._starts = positions
        self._start_classes = np.array([side_classes(p) for p in positions])
        self._start_misreads = allowed_misreads(self._start_classes)

    @property
    def seeking_start(self) -> bool:
        """Whether a start position, when it appears, may still fix the numbering."""
        return self._seeking_start

    @property
    def start_verdict(self) -> StartVerdict | None:
        """Why the last settled board searched for a start was not the configured set-up
        (None: none searched yet, or a start was found on that search); once a start is
        taken, what the search that took it read (``StartVerdict.found``): a game the
        tracker never started on it is said with that."""
        return self._start_verdict

    @property
    def adaptation(self) -> str | None:
        """The square reader's refit kept with the game, as JSON (None: zero-shot)."""
        return self._adaptation

    @property
    def oriented(self) -> bool:
        return self.played is not None and self.quarter_turns is not None

    def process(self, image: np.ndarray, time: float) -> FrameResult:
        if self.lens is not None and not self.lens.fits(image):
            raise ValueError(f"frames of {image.shape[1]}x{image.shape[0]} from a camera calibrated "
                             f"at {self.lens.size[0]}x{self.lens.size[1]}: calibrate it again")
        if self._learning is not None:  # a refit landed: read with it from this frame on
            self._adaptation = self._learning.refitted() or self._adaptation
        self._adopt_relit()
        last = self._last
        settled = None
        if (last is not None and last.reading is not None and last.location is not None
                and self._look_again is None  # a change under way: analysed at the glance's pace
                and last.time - last.gate.since >= self.gate.cfg.settle_s + SETTLED_S):
            m = self.gate.cfg.margin
            settled = last.location.to_image(np.array([[-m, -m], [8 + m, -m], [8 + m, 8 + m], [-m, 8 + m]],
                                                      np.float64))
        if not self.glance.wants(image, time, settled):
            assert last is not None  # the first frame is always analysed
            return replace(last, time=time, analysed=False, glimpse=None)  # glimpsed once
        self._last = self._analyse(image, time)
        return self._last

    def _analyse(self, image: np.ndarray, time: float) -> FrameResult:
        found = self.follower.update(image, time)
        if self.follower.boards != self._boards:
            self._boards = self.follower.boards
            self._another_board()
        status = self.gate.update(image, found, time, self.follower.last_check)
        location = found
        if found is not None and self.quarter_turns is not None and self.played is not None:
            location = found.rotated(self.quarter_turns)  # oriented already
        if status.state is not GateState.STILL or location is None or found is None:
            self._disturbed = True  # whatever the glance saw (kingplay 70000: a quick hand, a man moved unseen)
            self._moved_since_taught = True
            self._epoch += 1  # a relight asked on the board before is outdated
            return FrameResult(time, location, status, None, self.played,
                               glimpse=self._glimpse(image, location, status, time))
        if self._seeking_start and self._expected is None and self._start_searches.due(status.since, time):
            start = self.numbering_from_start(image, found)
            if start is not None and self._start_searches.agreed(
                    (start[0].played, start[0].quarter_turns, self._starts.index(start[1]))):
                numbering, position = start
                self.played, self.quarter_turns = numbering.played, numbering.quarter_turns
                self._seeking_start = False
                self._start_verdict = self._start_taken  # said where no game starts on it
                location = numbering.location
                # A start agreed by later searches fixes the numbering only (a board one
                # ply in is numbered as its set-up): the reader learns the set-up where
                # the tracker confirms it (``started``). Taught on the agreeing frame,
                # kingplay 70032 lost 3 of its 15 plies under a shadow 25 s on. Where the
                # zero-shot reading hides the set-up's pieces (``_start_hidden``), the
                # tracker never sees the set-up it would confirm, and the reader, never
                # taught, reads no game: kingplay 70095 (dim, its men unseen) started
                # nowhere, and at last on a mid-game board read with one piece a side. So
                # too where it reads phantom men between the camps, more squares otherwise
                # than a start may be (``StartVerdict.unread``), and the set-up was found
                # by every search since the first that found it (``StartSearches.steady``):
                # kingplay 70138 (dim, dark men on dark squares, a low bit rate, empty
                # squares between the camps read dark), never taught, started on a board
                # three plies in taken for two.
                unread = (self._start_taken is not None and self._start_taken.unread
                          and self._start_searches.steady)
                if isinstance(self.classifier, StartAdapting) and (self._start_searches.first
                                                                   or self._start_hidden or unread):
                    labels = self._start_known or board_labels(position)
                    self._adaptation = self.classifier.adapt(image, location.corners, numbering.played,
                                                             labels, self.lens)
                    self._light = cell_light(image, location.corners, numbering.played)
                    self._taught(self._light)
        if self.played is None or self.quarter_turns is None:  # not oriented yet
            if self._expected is not None:
                orientation = self._as_the_game_has_it(image, location, self._expected)
            else:
                orientation = numbered(self.classifier, image, location, self.lens)
                if orientation.confidence < MIN_ORIENTATION:
                    return FrameResult(time, location, status, None, None)
            self.played, self.quarter_turns = orientation.played, orientation.quarter_turns
            location = orientation.location
        key = (self.played, self.quarter_turns, self._adaptation)
        stale = self._probabilities is None or self._stale(location, key, time)
        recheck = not stale and time - self._read_at >= REREAD_S  # nothing showed a change
        if stale or recheck:
            # A recheck is no change seen in sight: it calls for no looks again (a change
            # under way is the glance's to see), only for a read.
            in_sight = not self._disturbed and key == self._read_key and not recheck
            pictured = in_sight and self._read_corners is not None and self.glance.changed_since(
                self._read_picture, location.corners)
            before = self._probabilities
            crops, self._probabilities = self._classified(image, location)
            self._read_crops, self._read_frame = crops, (image, location.corners)
            self._spot_read = status.spotlit
            self._reads += 1
            self._read_key, self._read_picture, self._read_corners = key, self.glance.picture, location.corners
            self._read_at = time
            self._light = cell_light(image, location.corners, self.played)
            self._relit = self._taught_light is not None and light_changed(self._light, self._taught_light)
            self._read_in_known_light(key)
            self._weighed = False
            self._disturbed = False
            self._look_again = self._next_look(in_sight, pictured, before, time)
        assert self._probabilities is not None  # read above when there was none
        return FrameResult(time, location, status,
                           Reading(time, self._probabilities, location.confidence, self._relit), self.played)

    def _another_board(self) -> None:
        """The follower took a board wholly in view for the one it followed, which the
        frame's edge cut (``BoardFollower.boards``): nothing read of that one tells of this
        one. It is numbered afresh, by its start where no game is in play (the start seen on
        the other board fixed a numbering that is not this board's), and read afresh."""
        self.played = self.quarter_turns = None
        self._seeking_start = not self._in_play
        self._start_searches = StartSearches()
        self._start_verdict = self._start_taken = None
        self._start_hidden, self._start_known = False, None
        self._probabilities = None
        self._light = self._taught_light = None
        self._disturbed = self._moved_since_taught = True

    def _glimpse(self, image: np.ndarray, location: BoardLocation | None, status: GateStatus,
                 time: float) -> Reading | None:
        """A read of the board the gate sees covered but quiet for :data:`COVERED_QUIET_S`,
        once each time it goes quiet: a glimpse of the board between the plies made under an
        arm resting on it, for the tracker to order them by, never a board to explain.

        An arm resting on the board's edge keeps the gate shut for the whole of its stay,
        and the players go on playing, lifting it only to play (kingplay 70117: four plies
        under a sleeve, the board read again only after them, its two dark plies recorded in
        the wrong order). Two plies of each side seen only at the end may have been made in
        either order, and only the boards between tell which: the squares the arm leaves in
        sight are read as well as any (those under it are read as the arm, and tell apart only
        lines whose boards differ there)."""
        if status.quiet < COVERED_QUIET_S:
            self._glimpsed = False
            return None
        if (status.state is not GateState.OCCLUDED or self._glimpsed or location is None
                or self.played is None or self.quarter_turns is None):
            return None
        self._glimpsed = True
        return Reading(time, self._classified(image, location)[1], location.confidence)

    def _classified(self, image: np.ndarray, location: BoardLocation) -> tuple[SquareCrops, np.ndarray]:
        """The played squares' crops at ``location`` (the view of this read) and the reader's
        (32, C) probabilities for them."""
        assert self.played is not None  # numbered before any read
        crops = view(crop_squares(image, location.corners, self.played, self.classifier.geometry, self.lens),
                     self._reads)
        return crops, self.classifier.classify(crops).astype(np.float32)

    def _stale(self, location: BoardLocation, key: tuple[str | None, int | None, str | None],
               time: float) -> bool:
        """Whether the last read may no longer tell this board: read in another numbering or
        before the refit on the start, the gate saw something move on the board, cover it, or
        lose it since (a hand moving men crosses the gate's ring; a quick one may leave the
        glance's small picture as it was), the board moved, the glance sees its
        picture changed, or it was read as its picture changed in sight and
        :data:`LOOK_AGAIN_S` passed. A board that only shook or flickered between two settles
        is not read again: the reader's cost is spent where a move can have been made."""
        if key != self._read_key or self._disturbed or self._read_corners is None:
            return True
        if self._look_again is not None and time >= self._look_again:
            return True
        shift = float(np.abs(location.corners - self._read_corners).max())
        return shift > MOVED * location.square_px or self.glance.changed_since(self._read_picture, location.corners)

    def _read_in_known_light(self, key: object) -> None:
        """Note the read just made where it was made in the light the reader was last taught
        in: one that puts another side than the last such read (by the same heads) on a
        square saw the board change, so the board the game last accepted may label the frame
        no more, as after a hand (``_moved_since_taught``). A change the light did not make
        can be a ply no hand was seen making: a hand quicker than the frames, frames
        dropped, a video's cross-fade (kingplay 70164: dark's 25-22 made with no cover the
        gate saw, read at once in the known light; the light moved half a second later, and
        the reader, adapted on the board the game had before 25-22, read 25 held and 22
        empty for good: the rest of the game lost). A read in new light is left out: the
        light, not the board, may have made its difference."""
        if self._relit or self._probabilities is None:
            return
        sides = side_probabilities(self._probabilities).argmax(axis=1)
        last = self._known_light_read
        if last is not None and last[0] == key and bool((last[1] != sides).any()):
            self._moved_since_taught = True
        self._known_light_read = (key, sides)

    def _next_look(self, in_sight: bool, pictured: bool, before: np.ndarray | None,
                   time: float) -> float | None:
        """When to read the board just read once more (None: not before it changes again).
        A read made as the board changed in sight (no hand came; the glance saw its picture
        change since the last read, ``pictured``, or the read differs from the one
        ``before``) saw a change that may still be under way: the board is looked at again
        every :data:`LOOK_AGAIN_S` until :data:`LOOKS_AGAIN` looks are spent. Each look is
        spent whatever it reads: a cross-fade read part-way may read as before (the man that
        is going still shows) and its rest stay under what the glance sees between two
        reads (a dark room), so neither a read alike nor a still picture ends the change.
        A change a hand made was read after the hand left: no look."""
        new = self._probabilities
        changed = (in_sight and before is not None and new is not None
                   and bool((before.argmax(1) != new.argmax(1)).any()))
        if not in_sight:
            self._looks = 0
        elif self._look_again is not None:
            self._looks -= 1  # one of the looks the change called for
        elif changed or pictured:
            self._looks = LOOKS_AGAIN  # the change was first seen now
        else:
            self._looks = 0
        return time + LOOK_AGAIN_S if self._looks > 0 else None

    def numbering_from_start(self, image: np.ndarray,
                             found: BoardLocation) -> tuple[Orientation, Position] | None:
        """The numbering under which the board reads as one of :attr:`starts`, and that start:
        any of the four quarter turns of the follower's location, with either colour of squares
        in play; None unless one start under one numbering clearly fits the board best
        (:func:`start_check.leading_start`) and is read within its misreads
        (``start_check.START_MISREADS``; where it misreads any, the squares a board a ply in
        fits about as well on are left to the reader: :meth:`_set_up_known`), or, for a reader
        that can adapt to a start's labels, the configured set-up under the numbering the
        zero-shot reading chooses is read within its misreads on held-out squares (doubted there
        as a board a ply in, its pieces in sight, the squares a board of its first ply or two
        shows are what the reader is adapted on: :meth:`_played_in`), or, where the zero-shot
        reading hides its pieces, confirmed there by its doubt (pieces the colour of their
        squares: :func:`start_check.chosen_numbering`, :func:`start_check.held_out_start`; where
        it is so confirmed or read within its misreads there, the squares a board a ply in fits
        about as well on are left to the reader: :meth:`_set_up_known`), or, where they are
        hidden and the set-up is doubted there, a board of its first ply or two is
        (:meth:`_played_in`: the squares known of it are what the reader is adapted on). Where
        none is, :attr:`start_verdict` says why; where one is, ``_start_hidden`` says whether
        the zero-shot reading hides the set-up's pieces (:func:`start_check.hides_pieces`), and
        ``_start_taken`` what that reading makes of it (``StartVerdict.found``), said once the
        start is taken."""
        reads = self._read_each_numbering(image, found)
        numberings, crops = [o for o, _, _ in reads], [c for _, c, _ in reads]
        sides = [side_probabilities(p) for _, _, p in reads]
        fits, misreads = zip(*(start_fits(side, self._start_classes) for side in sides))
        leading = leading_start(np.array(fits))
        zero_shot = np.array(fits)[:, 0]  # the configured set-up's
        best = int(np.argmax(zero_shot))
        lead = float(zero_shot[best] - np.delete(zero_shot, best).max())
        self._start_hidden, self._start_known = False, None
        if leading is not None and misreads[leading[0]][leading[1]] <= self._start_misreads[leading[1]]:
            known = None
            if leading[1] == 0 and misreads[leading[0]][0] and isinstance(self.classifier, StartChecking):
                known = self._set_up_known(crops[leading[0]])  # its misreads may be a ply made
            return self._found(image, numberings, sides, lead, None, *leading, known)
        held_out = None
        numbering = chosen_numbering(zero_shot) if isinstance(self.classifier, StartChecking) else None
        if numbering is not None:
            doubts, counts = np.full(len(NUMBERINGS), np.inf), []
            for n in (numbering, half_turn(numbering)):
                doubts[n], count = self._held_out_fit(crops[n])
                counts.append(count)
            held_out = float(doubts.min())
            self._start_hidden = hides_pieces(sides[numbering], self._start_classes[0])
            if min(counts) <= self._start_misreads[0]:
                if held_out > HELD_OUT_NATS:  # a ply in: where its pieces are in sight, taught as it shows
                    known = None if self._start_hidden else self._played_in(crops, numbering)
                else:  # doubted little: where its pieces are hidden, a board a ply in may fit as well
                    known = self._set_up_known(crops[numbering]) if self._start_hidden else None
                return self._found(image, numberings, sides, lead, held_out, numbering, 0, known)
            if self._start_hidden and held_out <= HELD_OUT_NATS:
                for other in np.flatnonzero(np.isinf(doubts)):  # weighed against every other numbering
                    doubts[other] = self._held_out_fit(crops[other])[0]
                if held_out_start(doubts, numbering):
                    known = self._set_up_known(crops[numbering])
                    return self._found(image, numberings, sides, lead, held_out, numbering, 0, known)
            if self._start_hidden and held_out > HELD_OUT_NATS:
                known = self._played_in(crops, numbering)
                if known is not None:
                    return self._found(image, numberings, sides, lead, held_out, numbering, 0, known)
        self._start_verdict = StartVerdict(lead, self._misread_squares(sides[best], 0),
                                           int(self._start_misreads[0]), held_out)
        return None

    def _misread_squares(self, sides: np.ndarray, start: int) -> tuple[int, ...]:
        """The squares (1-32) a reading's (32, 3) ``sides`` put otherwise than the start
        ``start`` (index of :attr:`starts`)."""
        misread = np.flatnonzero(sides.argmax(axis=1) != self._start_classes[start])
        return tuple(int(square) + 1 for square in misread)

    def _found(self, image: np.ndarray, numberings: list[Orientation], sides: list[np.ndarray], lead: float,
               held_out: float | None, numbering: int, start: int,
               known: str | None = None) -> tuple[Orientation, Position]:
        """The start ``start`` (index of :attr:`starts`) found under ``numberings[numbering]``,
        its camps named by the board (:meth:`_camps_named`); ``_start_taken`` says what the
        zero-shot ``sides`` (per numbering) read of it under the numbering taken. ``known``:
        the squares of the frame the reader is adapted on, under ``numberings[numbering]``,
        where the frame is the set-up a ply or two in (:meth:`_played_in`); None: the set-up's."""
        self._start_verdict = None
        taken = self._camps_named(image, numberings, numbering, start)
        if known is not None:
            self._start_known = known if taken == numbering else mirrored(known)
        self._start_taken = StartVerdict(lead, self._misread_squares(sides[taken], start),
                                         int(self._start_misreads[start]), held_out, found=True)
        return numberings[taken], self._starts[start]

    def _camps_named(self, image: np.ndarray, numberings: list[Orientation], numbering: int,
                     start: int) -> int:
        """The numbering (index of ``numberings``) of the start found, ``start`` (index of
        :attr:`starts`) under ``numberings[numbering]``, with its camps named by the board:
        where the set-up reads alike turned half round with its camps swapped
        (:func:`start_check.swaps_camps`), the reader's sides alone chose between the
        numbering and its half turn, and they name the lighter camp by the pieces' tones
        across the board; where the pieces, each against the square it stands
        on, clearly say the other camp is the lighter (``orientation.camps_apart``,
        :data:`orientation.CAMPS_CLEAR`), the half turn is the numbering."""
        chosen = numberings[numbering]
        classes = self._start_classes[start]
        if (swaps_camps(classes) and camps_apart(image, chosen.location, chosen.played, classes)
                <= -CAMPS_CLEAR):
            return half_turn(numbering)
        return numbering

    def _played_in(self, crops: list[SquareCrops], numbering: int) -> str | None:
        """The set-up found a ply or two in, where the zero-shot reading hides its pieces and
        the set-up itself is doubted held out: a set-up shown for less time than a board
        takes to settle, its first ply made before the board was first still (kingplay
        70118, light men on light squares in a heavily compressed video: the game started
        late, plies short, from a reader never adapted on a board it knew, and was lost after
        them). The boards of the set-up a ply or two in, either side first
        (:func:`start_check.played_in`, the boards the tracker takes a start from), are
        weighed held out under the zero-shot reading's numbering: where the best is doubted
        at most ``HELD_OUT_NATS`` and every other numbering doubts it ``HELD_OUT_MARGIN``
        more (:func:`start_check.held_out_start`), the numbering is fixed, and the reader is
        adapted on the squares the boards within ``relight.MARGIN`` of the best agree on
        (:func:`relight.known_squares`), the others left to it: which board is on the table
        is the tracker's to say, from the adapted reader's reads. A board a ply beyond them
        is doubted as a start a ply in is (``HELD_OUT_NATS``), and is not taken.

        Where the pieces show, only where the set-up passed on the count of its held-out
        misreads but is doubted as a board a ply in is (more than ``HELD_OUT_NATS``): a ply
        changes two squares, as many as a start may misread, and the set-up's labels, taught
        there, teach the reader the ply's squares the wrong way round for good (kingplay
        70128: the set-up stood under glare for less than a settle and the first still frame
        had 26-23 made; taught the set-up, the man on 23 read as gone and 26 as holding it,
        7-11 was recorded as the first ply, and every ply after it invented). Where the
        pieces are hidden and the set-up so passed though doubted as a board a ply in is, it
        is taught as before: the set-up's labels anchor every later refit, and there the board
        a ply in, taught, lost a game the set-up's labels followed (kingplay 70061: 26-23 made
        before the first still frame, the game then stopped after a shadow far on; not
        understood yet; taught only the squares the set-up and that board agree on, too).
        Where they are hidden and the set-up's doubt is smaller, only the squares no board
        a ply in disputes are taught (:meth:`_set_up_known`).
        Elsewhere the tracker sees the board a ply or two in through the zero-shot reading and
        the reader learns the board it confirms, while a frame first still just after a ply,
        taught, may show the hand leaving the board (kingplay 70056, an arm at its edge:
        taught there, a king was read back on its square, and the game lost from there).
        Returns those squares' labels under ``numbering`` ('?' where the boards disagree);
        None where no board fits."""
        assert isinstance(self.classifier, StartChecking)
        reader = self.classifier
        boards = played_in(self._starts[0])
        held = reader.held_out(crops[numbering], boards)
        fit = held_out_fit(held, boards)
        if -fit.max() > HELD_OUT_NATS:
            return None
        best = [boards[int(np.argmax(fit))]]  # weighed under every other numbering too
        doubts = np.array([-fit.max() if other == numbering
                           else -held_out_fit(reader.held_out(crops[other], best), best)[0]
                           for other in range(len(NUMBERINGS))])
        known = known_squares(held, boards, MARGIN)
        if known is None or not held_out_start(doubts, numbering):
            return None
        return known

    def _set_up_known(self, crops: SquareCrops) -> str | None:
        """The squares a set-up whose pieces the zero-shot reading hides, its held-out doubt
        at most ``HELD_OUT_NATS``, or one read within its misreads but not on every square,
        is known on: those the set-up and its boards a ply or two
        in (:func:`start_check.played_in`) fitting within ``relight.MARGIN`` of the best held
        out all agree on (:func:`relight.known_squares`), '?' on the others, so that no square
        is taught otherwise than the set-up has it (teaching the board a ply in lost kingplay
        70061: :meth:`_played_in`); None (the set-up's labels) where the boards leave too few
        pieces. A held-out doubt that small confirms the set-up's numbering only: a board
        a ply in is often doubted as little, and the set-up's labels, taught on a board
        whose first ply was made before the board was first still, teach the reader the
        ply's squares the wrong way round for good
        (kingplay 70153: brown men on red squares, 25-22 made before the first settle; taught
        the set-up, the reader read 25 held and 22 empty, and no ply was ever recorded).
        Which of those boards is on the table is the tracker's to say, from the reads of the
        reader adapted on the squares they agree on. So too where the zero-shot reading is
        the set-up's but for a misread or two: those squares may be a ply made before the
        first settle, not misreads (kingplay 70072: 27-24 made, the set-up found with 24 and
        27 its two misreads and taught whole; the reader read 27 held and 24 empty for good,
        light's 7-10 was recorded as the first ply, and eight plies nobody played after it)."""
        assert isinstance(self.classifier, StartChecking)
        boards = played_in(self._starts[0])
        known = known_squares(self.classifier.held_out(crops, boards), boards, MARGIN)
        if known is None:
            return None
        return "".join(k if k == s else "?" for k, s in zip(known, boards[0]))

    def _held_out_fit(self, crops: SquareCrops) -> tuple[float, int]:
        """The nats the reader, adapted to the configured set-up's labels on the other half
        of the board, puts against the set-up (``read_held_out``, ``HELD_OUT_NATS``), and the
        squares it reads otherwise."""
        assert isinstance(self.classifier, StartChecking)
        layout = self._start_classes[:1]
        (read,) = self.classifier.held_out(crops, ["".join(".ld"[c] for c in layout[0])])
        fit, misread = start_fits(side_probabilities(read), layout)
        return -float(fit[0]), int(misread[0])

    def _as_the_game_has_it(self, image: np.ndarray, found: BoardLocation, board: Board) -> Orientation:
        """Of the eight numberings of the follower's location (its quarter turns, either
        colour of squares in play), the one under which the board reads most like
        ``board``: a game some plies on still has nearly every piece where the log says,
        while a half turn swaps the two sides' camps and a quarter turn moves each man to a
        square of the other diagonal. None is left out: the start may have fixed any of
        them (a board the camera sees a quarter turned, its men on the squares the cheap cue
        calls the other colour), and the cue's colour of squares is a guess on a board with
        few men left in a dark room (a worker taken up there read the empty squares)."""
        position = Position(*board, turn=Colour.DARK)
        expected = np.array([CLASS_INDEX[position.piece_at(s)] for s in range(1, 33)])
        reads = self._read_each_numbering(image, found)
        scores = [np.log(np.clip(p[np.arange(32), expected], 1e-6, None)).sum() for _, _, p in reads]
        return reads[int(np.argmax(scores))][0]

    def _read_each_numbering(self, image: np.ndarray,
                             found: BoardLocation) -> list[tuple[Orientation, SquareCrops, np.ndarray]]:
        """The board read under each of :data:`start_check.NUMBERINGS` of the follower's
        location (its quarter turns, either colour of squares in play): the numbering, its
        crops, and the reader's (32, 5) probabilities."""
        reads = []
        for played, turns in NUMBERINGS:
            turned = found.rotated(turns)
            crops = crop_squares(image, turned.corners, played, self.classifier.geometry, self.lens)
            reads.append((Orientation(turned, played, 1.0, turns), crops, self.classifier.classify(crops)))
        return reads
