"""One job at a time off the camera's thread, the newest asked winning (#42).

A refit of the reader's heads takes tens of milliseconds; the camera's thread must not spend
them between a hand leaving the board and the move being shown. :class:`Latest` runs each job
asked of it on a thread of its own, one at a time: a job asked while another runs waits, and
a newer one replaces it (only the newest result is wanted). Results are taken by the asker,
on its own thread, when it chooses (before its next read), so what it reads with never
changes under it. A thread lives only while there is work: a hall of idle boards holds none.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Latest(Generic[T]):
    """Jobs run one at a time on a background thread; only the newest result is kept."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._changed = threading.Condition()
        self._next: Callable[[], T] | None = None  # asked, not begun
        self._running = False
        self._result: T | None = None  # finished, not taken
        self._failure: BaseException | None = None

    def ask(self, job: Callable[[], T]) -> None:
        """Run ``job`` once the one running (if any) ends; it replaces a job not begun."""
        with self._changed:
            self._next = job
            if not self._running:
                self._running = True
                threading.Thread(target=self._work, name=self.name, daemon=True).start()

    def take(self, wait: bool) -> T | None:
        """The newest finished result not taken yet (None: none). ``wait``: first let every
        job asked finish, so that what is taken does not depend on the threads' timing. A
        job that failed raises here, on the asker's thread."""
        with self._changed:
            if wait:
                self._changed.wait_for(lambda: not self._running)
            failure, self._failure = self._failure, None
            result, self._result = self._result, None
        if failure is not None:
            raise failure
        return result

    def _work(self) -> None:
        while True:
            with self._changed:
                job, self._next = self._next, None
                if job is None:
                    self._running = False
                    self._changed.notify_all()
                    return
            try:
                result = job()
            except Exception as error:  # noqa: BLE001 - handed to the asker, who raises it
                with self._changed:
                    self._failure = error
                continue
            with self._changed:
                self._result = result
