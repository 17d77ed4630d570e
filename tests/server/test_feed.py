"""The event feed: what was seen when, and who may see it (server/feed.py)."""

from __future__ import annotations

import threading

from makhos.events import EventKind, GameEvent, SQLiteLog
from makhos.server.feed import EventFeed


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def move(board: str = "1", time: float = 0.0) -> GameEvent:
    return GameEvent(board, EventKind.MOVE, time, move="25-21")


def test_an_event_is_visible_to_a_delayed_audience_only_once_its_delay_has_passed():
    clock = Clock(100.0)
    feed = EventFeed(SQLiteLog(), clock=clock)
    stored = feed.append(move())
    assert feed.events("1", 0, until=clock() - 5) == []
    assert not feed.wait("1", 0, delay=5, timeout=0)
    clock.now = 105.0
    assert feed.events("1", 0, until=clock() - 5) == [stored]
    assert feed.wait("1", 0, delay=5, timeout=0)


def test_events_appended_by_another_writer_are_picked_up_and_wake_waiters():
    log = SQLiteLog()
    feed = EventFeed(log, poll_seconds=0.01)
    feed.start()
    woke = threading.Event()
    waiter = threading.Thread(target=lambda: feed.wait("1", 0, 0.0, 10) and woke.set())
    waiter.start()
    log.append(move())  # not through the feed: as the recorder in another process would
    waiter.join()
    feed.close()
    assert woke.is_set()


def test_per_board_and_hall_reads_resume_after_a_sequence_number():
    feed = EventFeed(SQLiteLog())
    for board in ("1", "2", "1"):
        feed.append(move(board))
    assert [e.seq for e in feed.events("1", 0, float("inf"))] == [1, 3]
    assert [e.seq for e in feed.events(None, 1, float("inf"))] == [2, 3]
    assert feed.boards() == ["1", "2"] and not feed.has_board("3")


def test_closing_releases_waiting_streams():
    feed = EventFeed(SQLiteLog())
    done = threading.Event()
    waiter = threading.Thread(target=lambda: (feed.wait("1", 0, 0.0, 30), done.set()))
    waiter.start()
    feed.close()
    waiter.join(timeout=5)
    assert done.is_set()
