"""Where a restarted worker takes its source up (worker.takeup): only the recording the
log's last plies were read from is sought to where the log ends; any other source starts
from its own start, in the log's clock after its end (#43)."""

from __future__ import annotations

from makhos.events import EventKind, GameEvent
from makhos.events.details import CameraNotice, CameraStatus
from makhos.worker.takeup import UNSEEN, WARM_UP, take_up

NOW = 1_800_000_000.0  # the wall clock at the restart


def opened(time: float, recording: str | None, origin: float = 0.0) -> GameEvent:
    return GameEvent("1", EventKind.CAMERA, time, detail=CameraNotice(CameraStatus.OPENED, recording, origin))


def moves(*times: float) -> list[GameEvent]:
    return [GameEvent("1", EventKind.MOVE, t, ply=i + 1, move="25-22") for i, t in enumerate(times)]


def at(history: list[GameEvent], recording: str | None, start: float = 0.0, paced: bool = False):
    return take_up(history, recording, start, paced, clock=lambda: NOW)


def test_the_recording_the_log_was_read_from_is_taken_up_where_the_log_ends() -> None:
    history = [opened(0.0, "A"), *moves(3.0, 40.0)]
    taken = at(history, "A")
    assert (taken.begin, taken.origin) == (40.0 - WARM_UP, 0.0)
    assert taken.at == 40.0  # said after the log's end, though its warm-up frames come before


def test_a_recording_played_as_if_live_keeps_the_clock_its_log_began() -> None:
    origin = NOW - 600
    history = [opened(origin, "A", origin), *moves(origin + 3.0, origin + 40.0)]
    taken = at(history, "A", paced=True)
    assert (taken.begin, taken.origin) == (40.0 - WARM_UP, origin)


def test_a_start_given_further_on_is_kept() -> None:
    taken = at([opened(0.0, "A"), *moves(40.0)], "A", start=52.0)
    assert (taken.begin, taken.origin, taken.at) == (52.0, 0.0, 52.0)


def test_another_recording_is_read_from_its_start_after_the_log_ends() -> None:
    history = [opened(0.0, "A"), *moves(3.0, 40.0)]
    taken = at(history, "B")
    assert (taken.begin, taken.origin, taken.at) == (0.0, 40.0 + UNSEEN, 40.0 + UNSEEN)


def test_no_wall_clock_time_is_sought_in_a_recording() -> None:
    """A live run's log (a camera, its frames in the wall clock) and then a file: the file
    starts at its start, its frames after the log's end and not before the restart."""
    history = [opened(NOW - 100, None), *moves(NOW - 90, NOW - 30)]
    taken = at(history, "B", start=2.0)
    assert taken.begin == 2.0 and taken.origin + taken.begin == NOW
    soon = at([opened(NOW - 100, None), *moves(NOW - 3)], "B")
    assert soon.origin == NOW - 3 + UNSEEN  # the new file shows more than 3 s of the game


def test_the_source_a_run_said_before_any_ply_does_not_decide() -> None:
    """A run on B killed before it logged a ply: the log still ends with A's plies."""
    history = [opened(0.0, "A"), *moves(3.0, 40.0), opened(40.0 + UNSEEN, "B", 40.0 + UNSEEN)]
    assert at(history, "A").begin == 40.0 - WARM_UP


def test_a_log_from_before_sources_were_said() -> None:
    assert at(moves(3.0, 40.0), "A").begin == 40.0 - WARM_UP  # a recording's seconds: as then
    assert at(moves(NOW - 90), "A").begin == 0.0  # wall-clock times: no place in a file


def test_a_fresh_log_and_a_camera() -> None:
    assert (at([], "A").begin, at([], "A").origin) == (0.0, 0.0)
    assert at([], "A", paced=True).origin == NOW  # as if live: its frames in the wall clock
    camera = at(moves(3.0), None)
    assert (camera.recording, camera.origin, camera.at) == (None, 0.0, NOW)
