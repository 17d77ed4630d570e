"""The light on the board changes under the reader (kingplay 70012: a person's shadow fell and
15 squares read wrong from then on): the session says so, records no board of those reads,
and where nothing moved over the board since the game last taught the reader, adapts the
reader on the new frame with the board the game accepted, and reads through the new light.
Where a hand crossed the board, a reader that checks boards against a frame adapts on the
squares the plies since leave known, so a ply made under the hand as the light dropped is
recorded, and a hand that moved nothing leaves nothing recorded.
"""

from __future__ import annotations

import json
import threading

import numpy as np

from makhos.events import EventKind, SQLiteLog
from makhos.events.details import CameraNotice, CameraStatus, ReaderAdapted
from makhos.session import BoardSession
from makhos.session.session import RELIT_NOTICE
from makhos.tracker import GameTracker, TrackerConfig
from makhos.vision.lens import Lens
from makhos.vision.pipeline import BoardReader
from makhos.vision.rectify import CROP, CropGeometry, SquareCrops
from makhos.vision.reading import LABELS

from lab.render import Renderer, sample_scene

START = {s: "l" for s in range(1, 9)} | {s: "d" for s in range(25, 33)}
LABELLED = "l" * 8 + "." * 16 + "d" * 8
#: What the reader makes of the start in light it was not adapted to: light men on 9-16.
MISREAD = "l" * 16 + "." * 8 + "d" * 8


class LightBoundReader:
    """A square reader as light binds it: in the light it was last adapted in, it reads the
    board on the table; in any other, light men on eight empty squares. The test says in
    which light its frames are (``light``)."""

    live = False

    def __init__(self) -> None:
        self.light = "bright"
        self.adapted_in: str | None = None
        self.taught: list[str] = []

    @property
    def geometry(self) -> CropGeometry:
        return CROP

    def classify(self, crops: SquareCrops) -> np.ndarray:
        labels = LABELLED if self.adapted_in in (None, self.light) else MISREAD
        p = np.full((32, len(LABELS)), 0.01, np.float32)
        p[np.arange(32), [LABELS.index(label) for label in labels]] = 0.96
        return p

    def adapt(self, image: np.ndarray, corners: np.ndarray, played: str, labels: str,
              lens: Lens | None = None) -> str:
        adaptation = self.fit(image, corners, played, labels, lens)
        self.restore(adaptation)
        return adaptation

    def fit(self, image: np.ndarray, corners: np.ndarray, played: str, labels: str,
            lens: Lens | None = None) -> str:
        return json.dumps({"adapted on": labels, "in": self.light})

    def restore(self, adaptation: str) -> None:
        made = json.loads(adaptation)
        self.taught.append(made["adapted on"])
        self.adapted_in = made["in"]


def started(reader: LightBoundReader | None = None, tracker: GameTracker | None = None
            ) -> tuple[BoardSession, LightBoundReader, SQLiteLog, np.ndarray, np.ndarray]:
    """A session whose game started on a rendered start, read by ``reader``, followed by
    ``tracker``; the start frame and the hand."""
    scene = sample_scene(np.random.default_rng(7), held_out=True, elevation=(60, 85), size=(640, 480))
    start = Renderer(scene).render(START, seed=1).image
    log, reader = SQLiteLog(), reader or LightBoundReader()
    session = BoardSession(BoardReader(reader), tracker or GameTracker("1"), log)
    for k in range(60):
        session.feed(start, k / 30)
    assert any(e.kind is EventKind.GAME_STARTED for e in log.read("1"))
    assert reader.taught == [LABELLED]
    hand = start.copy()
    h, w = hand.shape[:2]
    hand[h // 2 - 40: h // 2 + 40, w // 2 - 40:] = (40, 60, 90)  # an arm from the right
    return session, reader, log, start, hand


def dimmed(image: np.ndarray) -> np.ndarray:
    """The frame as a lamp going off leaves it: a quarter darker."""
    return (image.astype(np.float32) * 0.75).astype(np.uint8)


def moved_under_a_hand_as_the_light_drops(session: BoardSession, reader: LightBoundReader, start: np.ndarray,
                                          hand: np.ndarray, frames: int) -> None:
    """A hand over the board for half a second, then the lamp goes off for ``frames`` frames
    (a :class:`RuleCheckedReader`'s ``table`` is what the test made under the hand)."""
    for k in range(60, 75):
        session.feed(hand, k / 30)
    reader.light = "dim"
    for k in range(75, 75 + frames):
        session.feed(dimmed(start), k / 30)


def said(log: SQLiteLog) -> list[tuple[str, str | None]]:
    """The events after the start, as (kind, reason), the reader's own aside."""
    events = log.read("1")
    begun = next(k for k, e in enumerate(events) if e.kind is EventKind.GAME_STARTED)
    return [(e.kind.value, e.reason) for e in events[begun + 1:] if e.kind is not EventKind.READER_ADAPTED]


def test_the_light_changed_with_no_hand_is_said_and_read_through() -> None:
    session, reader, log, start, _ = started()
    reader.light = "dim"
    for k in range(60, 240):
        session.feed(dimmed(start), k / 30)
    assert said(log) == [("camera", RELIT_NOTICE)]
    notice = next(e for e in log.read("1") if isinstance(e.detail, CameraNotice)
                  and e.detail.status is CameraStatus.RELIT)
    assert reader.taught == [LABELLED, LABELLED]  # adapted again on the board it knows
    kept = [e.detail.adaptation for e in log.read("1") if isinstance(e.detail, ReaderAdapted)]
    assert json.loads(kept[-1]) == {"adapted on": LABELLED, "in": "dim"}
    assert notice.time < 4.0
    assert session.tracker.game is not None and session.tracker.game.plies == []


def test_the_light_changed_after_a_hand_is_said_and_no_board_recorded() -> None:
    session, reader, log, start, hand = started()
    moved_under_a_hand_as_the_light_drops(session, reader, start, hand, 325)
    # The notice, then, once the board is read otherwise for long, the health's: nothing else.
    assert said(log)[0] == ("camera", RELIT_NOTICE)
    assert {kind for kind, _ in said(log)} == {"camera"}
    assert reader.taught == [LABELLED]  # a move may have been made under the hand
    assert session.tracker.alert is None and session.tracker.game is not None
    assert session.tracker.game.plies == []


class RuleCheckedReader(LightBoundReader):
    """A :class:`LightBoundReader` that reads the board on the table (``table``, which the
    test changes under a hand) in the light it was adapted in, and checks boards against a
    frame as a start is checked (``held_out``): heads adapted on one half of the squares
    read the other half as what is on the table, in any light."""

    def __init__(self) -> None:
        super().__init__()
        self.table = LABELLED

    def classify(self, crops: SquareCrops) -> np.ndarray:
        labels = self.table if self.adapted_in in (None, self.light) else MISREAD
        return certain(labels)

    def held_out(self, crops: SquareCrops, layouts: list[str]) -> np.ndarray:
        return np.stack([certain(self.table) for _ in layouts])


def certain(labels: str) -> np.ndarray:
    """(32, 5) a read sure of ``labels``."""
    p = np.full((32, len(LABELS)), 0.01, np.float32)
    p[np.arange(32), [LABELS.index(label) for label in labels]] = 0.96
    return p


def checked_start() -> tuple[BoardSession, RuleCheckedReader, SQLiteLog, np.ndarray, np.ndarray]:
    """:func:`started` with a reader that checks boards against a frame."""
    reader = RuleCheckedReader()
    session, _, log, start, hand = started(reader)
    return session, reader, log, start, hand


def test_a_ply_made_under_a_hand_as_the_light_drops_is_recorded() -> None:
    session, reader, log, start, hand = checked_start()
    game = session.tracker.game
    assert game is not None
    move = game.position.legal_moves(game.rules)[0]
    after = game.position.play(move)
    table = "".join("." if (piece := after.piece_at(s)) is None else piece.value for s in range(1, 33))
    reader.table = table
    moved_under_a_hand_as_the_light_drops(session, reader, start, hand, 225)
    assert session.tracker.game is not None
    assert [ply.move for ply in session.tracker.game.plies] == [move]
    assert reader.taught[-1] == table  # the one board the rules and the frame allow
    assert session.tracker.alert is None


def test_new_light_after_a_hand_that_moved_nothing_records_nothing() -> None:
    session, reader, log, start, hand = checked_start()
    moved_under_a_hand_as_the_light_drops(session, reader, start, hand, 225)
    assert session.tracker.game is not None and session.tracker.game.plies == []
    assert session.tracker.alert is None
    assert said(log) == [("camera", RELIT_NOTICE)]
    assert reader.taught == [LABELLED, LABELLED]  # read through the new light, as it was


class SlowReader(LightBoundReader):
    """A :class:`LightBoundReader` read in real time whose refits off the camera's thread
    (``fit``) take as long as the test says: each waits for ``release``."""

    def __init__(self) -> None:
        super().__init__()
        self.live = True
        self.fitting, self.release, self.fitted = threading.Event(), threading.Event(), threading.Event()

    def fit(self, image: np.ndarray, corners: np.ndarray, played: str, labels: str,
            lens: Lens | None = None) -> str:
        if self.light == "dim":  # the start's own refit is not the one held back
            self.fitting.set()
            self.release.wait(timeout=3.0)
            self.fitted.set()
        return super().fit(image, corners, played, labels, lens)


def relit_while_a_refit_is_held(reader: SlowReader) -> tuple[BoardSession, SQLiteLog, np.ndarray, np.ndarray, int]:
    """The lamp goes off with no hand, frame by frame until the session says so: the frame
    after which the relight's refit was asked (and is held back)."""
    session, _, log, start, hand = started(reader)
    reader.light = "dim"
    k = 60
    while not any(isinstance(e.detail, CameraNotice) and e.detail.status is CameraStatus.RELIT for e in log.read("1")):
        k += 1
        assert k < 240, "the new light was never said"
        session.feed(dimmed(start), k / 30)
    return session, log, start, hand, k


def test_the_camera_goes_on_while_a_relight_is_made_and_reads_with_it_once_made() -> None:
    reader = SlowReader()
    session, log, start, _, k = relit_while_a_refit_is_held(reader)
    assert reader.fitting.wait(3.0)
    assert not reader.fitted.is_set()  # the frame was handed back before the refit was made
    assert reader.taught == [LABELLED]
    reader.release.set()
    reader.live = False  # the next frame waits for the refit: the test needs no clock
    for j in range(k + 1, k + 60):
        session.feed(dimmed(start), j / 30)
    assert reader.taught == [LABELLED, LABELLED] and reader.adapted_in == "dim"
    kept = [e.detail.adaptation for e in log.read("1") if isinstance(e.detail, ReaderAdapted)]
    assert json.loads(kept[-1]) == {"adapted on": LABELLED, "in": "dim"}
    assert session.tracker.game is not None and session.tracker.game.plies == []
    # A worker restarted on the log reads with the relight's refit, as the first one did.
    tracker = GameTracker("1")
    seen = tracker.restore(log.read("1"))
    again = LightBoundReader()
    BoardSession(BoardReader(again), tracker, log, seen=seen)
    assert again.adapted_in == "dim" and again.taught == [LABELLED]


def test_a_relight_made_while_a_hand_crossed_the_board_is_not_read_with() -> None:
    reader = SlowReader()
    session, log, start, hand, k = relit_while_a_refit_is_held(reader)
    for j in range(k + 1, k + 16):
        session.feed(hand, j / 30)  # a ply may be made under it: the refit's frame is gone
    reader.release.set()
    reader.live = False
    for j in range(k + 16, k + 120):
        session.feed(dimmed(start), j / 30)
    assert reader.fitted.is_set()
    assert reader.taught == [LABELLED] and reader.adapted_in == "bright"
    assert not any(json.loads(e.detail.adaptation).get("in") == "dim"
                   for e in log.read("1") if isinstance(e.detail, ReaderAdapted))


class CountingReader(RuleCheckedReader):
    """A :class:`RuleCheckedReader` that counts its reads."""

    def __init__(self) -> None:
        super().__init__()
        self.reads = 0

    def classify(self, crops: SquareCrops) -> np.ndarray:
        self.reads += 1
        return super().classify(crops)


def test_new_light_after_a_ply_read_made_with_no_hand_seen_adapts_on_what_the_frame_shows() -> None:
    """A ply no hand was seen making (a hand quicker than the frames, a cross-fade) is read in
    the light the reader knows; the light changes before the game took it (kingplay 70164:
    dark's 25-22 read with misreads beside it, then a lamp's spot moving; here a tracker
    slow to confirm stands for the misreads). The board the game last accepted labels the
    frame no more: the relight weighs the boards the plies since lead to, and teaches the
    one on the table, not the board before the ply."""
    reader = CountingReader()
    session, _, log, start, _ = started(reader, GameTracker("1", config=TrackerConfig(confirm_readings=20)))
    game = session.tracker.game
    assert game is not None
    move = game.position.legal_moves(game.rules)[0]
    after = game.position.play(move)
    reader.table = "".join("." if (piece := after.piece_at(s)) is None else piece.value for s in range(1, 33))
    reads, k = reader.reads, 60
    while reader.reads == reads:  # no hand, no change the glance sees: read again at the recheck
        session.feed(start, k / 30)
        k += 1
        assert k < 300, "the board was never read again"
    assert session.tracker.game is not None and session.tracker.game.plies == []  # not yet taken
    reader.light = "dim"
    for j in range(k, k + 225):
        session.feed(dimmed(start), j / 30)
    assert reader.taught[-1] == reader.table
    assert session.tracker.game is not None
    assert [ply.move for ply in session.tracker.game.plies] == [move]
