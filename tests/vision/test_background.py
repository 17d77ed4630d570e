"""The refit's runner (``vision.background.Latest``): one job at a time off the asker's
thread, the newest asked replacing one not begun, results taken only by the asker."""

from __future__ import annotations

import threading

import pytest

from makhos.vision.background import Latest


def test_a_job_asked_while_one_runs_is_replaced_by_a_newer_one() -> None:
    began, release = threading.Event(), threading.Event()
    ran: list[str] = []

    def slow() -> str:
        began.set()
        release.wait(10)
        ran.append("first")
        return "first"

    def job(name: str) -> str:
        ran.append(name)
        return name

    jobs: Latest[str] = Latest("test")
    jobs.ask(slow)
    assert began.wait(10)
    jobs.ask(lambda: job("second"))
    jobs.ask(lambda: job("third"))  # the second never begins
    assert jobs.take(wait=False) is None  # nothing has finished
    release.set()
    assert jobs.take(wait=True) == "third"
    assert ran == ["first", "third"]
    assert jobs.take(wait=True) is None  # taken once


def test_a_job_that_fails_raises_where_its_result_is_taken() -> None:
    jobs: Latest[int] = Latest("test")
    jobs.ask(lambda: 1 // 0)
    with pytest.raises(ZeroDivisionError):
        jobs.take(wait=True)
    jobs.ask(lambda: 2)
    assert jobs.take(wait=True) == 2
