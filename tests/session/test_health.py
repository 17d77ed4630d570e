"""The board's vision health: what the camera sees, live, and the referee told when a game's
board has not been read for a while (issue #20, "say why")."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import numpy as np

from makhos.engine import Position
from makhos.events import EventKind, SQLiteLog
from makhos.events.details import CameraNotice, CameraStatus
from makhos.events.game import AlertKind
from makhos.session.annotate import CameraView
from makhos.session.health import UNREADABLE_SQUARES, HealthWatch, VisionHealth
from makhos.session.session import BoardSession
from makhos.server.camera import FolderFrames
from makhos.tracker import GameTracker
from makhos.vision.geometry import BoardLocation
from makhos.vision.occlusion import GateState, GateStatus
from makhos.vision.pipeline import FrameResult
from makhos.vision.reading import Reading

START = Position.from_fen("B:W1,2,3,4,5,6,7,8:B25,26,27,28,29,30,31,32")
FOUND = BoardLocation(np.array([[0, 0], [8, 0], [8, 8], [0, 8]], np.float64) * 40, np.eye(3), 1.0, "test")


def result(t: float, state: GateState, read: bool = False, found: bool = True,
           shake: float = 0.0) -> FrameResult:
    reading = Reading.certain(START, t) if read else None
    return FrameResult(t, FOUND if found else None, GateStatus(state, t, read, shake=shake),
                       reading, "dark" if found else None)


def test_a_game_board_unread_for_ten_seconds_is_said_once_and_closed_by_the_next_read():
    watch = HealthWatch(unreadable_after=10.0)
    said = [watch.update(result(0.0, GateState.STILL, read=True), game_on=True)]
    said += [watch.update(result(t, GateState.MOVING, shake=2.4), game_on=True)
             for t in np.arange(0.1, 12.0, 0.1)]
    assert [s for s in said if s] == [CameraStatus.UNREADABLE]
    assert said.index(CameraStatus.UNREADABLE) == 100  # at 10.0 s after the last read
    health = watch.health
    assert health is not None and health.since_read is not None and health.since_read > 11.5
    assert "moves by about 2.4 px between frames (is the camera shaking?)" in health.describe()
    assert watch.update(result(12.1, GateState.STILL, read=True), game_on=True) is CameraStatus.READABLE
    assert watch.update(result(12.2, GateState.STILL, read=True), game_on=True) is None


def test_no_notice_without_a_game_and_the_found_share_counts_recent_frames():
    watch = HealthWatch(unreadable_after=10.0)
    said = [watch.update(result(t, GateState.NO_BOARD, found=False), game_on=False)
            for t in np.arange(0.0, 30.0, 0.1)]
    assert not any(said)
    assert watch.health is not None and watch.health.found == 0.0
    assert "found in only 0% of frames" in watch.health.describe()
    for t in np.arange(30.0, 36.0, 0.1):  # more than the window: all found now
        watch.update(result(t, GateState.OCCLUDED), game_on=False)
    assert watch.health.found == 1.0
    assert "something covers the board" in watch.health.describe()


class ScriptedReader:
    """A BoardReader stand-in that replays frame results."""

    adaptation = None  # it learns nothing
    start_verdict = None  # nor searches for a start

    def __init__(self, results: list[FrameResult]) -> None:
        self.results = iter(results)

    def follow(self, game) -> None:
        pass

    def process(self, image, time: float) -> FrameResult:
        return next(self.results)


def fed(frames: list[FrameResult], log: SQLiteLog, tracker: GameTracker) -> list:
    """The events a session makes of ``frames``, a game started from START in ``log``."""
    session = BoardSession(ScriptedReader(frames), tracker, log)
    for event in tracker.start_from(START, 0.0):
        log.append(event)
    events = []
    for frame in frames:
        events += session.feed(np.zeros((4, 4, 3), np.uint8), frame.time)
        session._polled = -np.inf  # read the log back every frame, as a slow machine would
    return events


def test_the_session_logs_the_notice_before_showing_it_and_the_record_raises_a_camera_alert(tmp_path):
    frames = [result(0.1 * k, GateState.STILL, read=True) for k in range(10)]
    frames += [result(1.0 + 0.1 * k, GateState.OCCLUDED) for k in range(1, 121)]
    frames += [result(13.1 + 0.1 * k, GateState.STILL, read=True) for k in range(10)]
    log = SQLiteLog(tmp_path / "events.db")
    tracker = GameTracker("1")
    events = fed(frames, log, tracker)
    camera = [e for e in events if e.kind is EventKind.CAMERA]
    assert [e.detail for e in camera] == [CameraNotice(CameraStatus.UNREADABLE),
                                          CameraNotice(CameraStatus.READABLE)]
    assert all(e.seq > 0 for e in camera)  # stored, numbered, before being handed on
    assert camera[0].reason.startswith("board not read for 10 s: something covers the board")
    stored = [e for e in log.read("1", after=0) if e.kind is EventKind.CAMERA]
    assert [e.seq for e in stored] == [e.seq for e in camera]
    # While it was open, the record held it as a camera alert; the read closed it.
    assert not any(a.kind is AlertKind.CAMERA for a in tracker.logged_game.alerts.values())
    log.close()


def test_the_camera_view_writes_the_health_beside_the_frame_and_the_server_reads_it(tmp_path):
    view = CameraView(tmp_path, "1")
    health = VisionHealth(GateState.MOVING, 0.97, 2.25, 3.04)
    view.offer(np.zeros((48, 64, 3), np.uint8), result(5.0, GateState.MOVING), health)
    frames = FolderFrames(tmp_path)
    found = frames.health("1")
    assert found is not None and found["age"] < 5
    assert {k: v for k, v in found.items() if k != "age"} == {
        "state": "moving", "found": 0.97, "shake_px": 2.25, "since_read": 3.0}
    assert frames.snapshot("1") is not None
    old = time.time() - 60
    os.utime(tmp_path / "1.json", (old, old))
    assert frames.health("1")["age"] >= 59  # a recorder that stopped writing shows its age
    assert frames.health("2") is None and frames.health("../1") is None
    Path(tmp_path / "3.json").write_text("{not json")
    assert frames.health("3") is None
    assert json.loads((tmp_path / "1.json").read_text())["state"] == "moving"


def test_a_board_read_but_not_as_the_game_stands_is_said_with_its_squares_and_closed_when_it_matches(tmp_path):
    # Three men gone with no story for them, read a little differently each time with a
    # covered frame between (as a king read as a man and back, under a hand, reads): no
    # board lasts long enough for the tracker to call it a mismatch, yet the game has stopped.
    gone = [Position.from_fen("B:W1,2,3,4,8:B25,26,27,28,29,30,31,32"),
            Position.from_fen("B:W1,2,3,4,7:B25,26,27,28,29,30,31,32")]
    frames = [result(0.1 * k, GateState.STILL, read=True) for k in range(10)]
    for k in range(1, 49):
        t = 1.0 + 0.25 * k
        frames.append(result(t, GateState.OCCLUDED) if k % 2 else
                      FrameResult(t, FOUND, GateStatus(GateState.STILL, t, True),
                                  Reading.certain(gone[k // 2 % 2], t), "dark"))
    frames += [result(13.1 + 0.1 * k, GateState.STILL, read=True) for k in range(10)]
    log = SQLiteLog(tmp_path / "events.db")
    tracker = GameTracker("1")
    events = fed(frames, log, tracker)
    assert not [e for e in events if e.kind in (EventKind.MOVE, EventKind.BOARD_MISMATCH)]
    camera = [e for e in events if e.kind is EventKind.CAMERA]
    assert [e.detail for e in camera] == [CameraNotice(CameraStatus.UNREADABLE),
                                          CameraNotice(CameraStatus.READABLE)]
    assert camera[0].time >= 10.9  # ten seconds after the last board the game explained
    assert "do not match it" in camera[0].reason
    assert "squares 5, 6, 7 " in camera[0].reason or "squares 5, 6, 8 " in camera[0].reason
    assert all(e.seq > 0 for e in camera)
    log.close()


def test_a_misread_of_two_squares_is_no_notice():
    watch = HealthWatch(unreadable_after=10.0)
    said = [watch.update(result(t, GateState.STILL, read=True), game_on=True, unexplained=())
            for t in np.arange(0.0, 20.0, 0.5)]
    assert not any(said)
    said = [watch.update(result(t, GateState.STILL, read=True), game_on=True, unexplained=(3, 7, 9))
            for t in np.arange(20.0, 32.0, 0.5)]
    assert [s for s in said if s] == [CameraStatus.UNREADABLE]
    assert watch.health is not None and "squares 3, 7, 9 do not match" in watch.health.describe()


def test_a_board_unread_after_a_read_off_the_game_is_said_unread_with_what_that_read_showed():
    """Kingplay 70017: one read off the game (squares it had not seen played), then the gate
    held the board covered for the rest of the notice's wait; the notice said the board was
    "read, but not as the game stands", when what kept the game stopped was that no frame
    was read at all."""
    watch = HealthWatch(unreadable_after=10.0)
    watch.update(result(0.0, GateState.STILL, read=True), game_on=True)
    watch.update(result(0.5, GateState.STILL, read=True), game_on=True, unexplained=(5, 6, 7))
    said = [watch.update(result(t, GateState.OCCLUDED), game_on=True) for t in np.arange(0.6, 12.0, 0.1)]
    assert [s for s in said if s] == [CameraStatus.UNREADABLE]
    assert watch.health is not None
    assert watch.health.describe() == ("board not read for 11 s: something covers the board or its edge "
                                       "(a hand, an arm, an object); its last read did not match the game "
                                       "on squares 5, 6, 7")


def test_a_ply_taken_closes_the_notice_and_a_new_one_says_what_is_wrong_then():
    """Kingplay 70026: reads contradicting the game raised the notice, four plies were then
    recorded, and the board was covered to the end: the first notice must not stand for all."""
    watch = HealthWatch(unreadable_after=10.0)
    said = [watch.update(result(t, GateState.STILL, read=True), game_on=True, unexplained=(8, 10, 17))
            for t in np.arange(0.0, 11.0, 0.5)]
    assert [s for s in said if s] == [CameraStatus.UNREADABLE]
    closed = watch.update(result(11.0, GateState.STILL, read=True), game_on=True,
                          unexplained=(8, 10, 17), moved=True)
    assert closed is CameraStatus.READABLE
    said = [watch.update(result(t, GateState.OCCLUDED), game_on=True) for t in np.arange(11.5, 25.0, 0.5)]
    assert [s for s in said if s] == [CameraStatus.UNREADABLE]
    assert said.index(CameraStatus.UNREADABLE) == 19  # 10 s after the ply, at 21.0 s
    assert watch.health is not None and "something covers the board" in watch.health.describe()


def test_a_board_read_otherwise_on_more_squares_than_pieces_out_of_place_is_said_unreadable():
    """Kingplay 70141, 70188: a dim board, a shadow, read otherwise than the game on 14 and
    15 squares, was said to be "a piece out of place, or misread?": so many squares are
    plies not followed or the reader's failing, and the notice says so."""
    many = tuple(range(3, 3 + UNREADABLE_SQUARES + 1))
    watch = HealthWatch(unreadable_after=10.0)
    said = [watch.update(result(t, GateState.STILL, read=True), game_on=True, unexplained=many)
            for t in np.arange(0.0, 12.0, 0.5)]
    assert [s for s in said if s] == [CameraStatus.UNREADABLE]
    assert watch.health is not None
    described = watch.health.describe()
    assert "a board that cannot be read as it is" in described and "(a piece out of place" not in described
    few = VisionHealth(GateState.STILL, 1.0, 0.0, 0.5, tuple(range(3, 3 + UNREADABLE_SQUARES)))
    assert "(a piece out of place, or misread?)" in few.describe()
