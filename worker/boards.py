"""Several boards watched by one process: each board's worker on a thread of its own.

A hall may run a process per camera (``makhos worker --board 7``) or one for several
(``--board 1 --board 2 ...``). In one process the boards share what belongs to none of
them: the square networks (:class:`vision.networks.Networks`, one onnxruntime session per
network, run from every board's thread), the engine's tables (module-level), and the
Python, numpy, OpenCV and onnxruntime that a process loads. Each board keeps its own source
thread, session, tracker, outbox and log connection: its events are in the log before
anything shows them, as a lone worker's are.

A board that fails does not take the others down. Its worker says so in the board's log
(a camera "lost" notice with the reason: the pages raise it as an alert) and here. A live
camera's worker is started again from the log, after doubling waits, as a hall's
supervisor restarts a worker process that died; a recording's stays stopped, and the
process ends with an error once the other boards are done.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Sequence

from makhos.events import EventLog

from .inputs import Input
from .loop import Worker, WorkerConfig

if TYPE_CHECKING:
    from makhos.session import BoardSession

logger = logging.getLogger("makhos.worker")


@dataclass(frozen=True)
class Board:
    """What one board's worker is made of; a worker started again is made afresh from it."""

    config: WorkerConfig
    log: EventLog
    source: Input
    observer: Callable[[BoardSession], None] | None = None  # e.g. keeping each ply's picture

    def worker(self, lost: bool = False) -> Worker:
        return Worker(self.config, self.log, self.source, self.observer, lost=lost)


@dataclass(frozen=True)
class BoardFailure:
    """A board whose worker stopped for good before the process was told to stop."""

    board: str
    error: Exception

    def __str__(self) -> str:
        return f"board {self.board}: {self.error}"


def watch_boards(boards: Sequence[Board], stop: threading.Event) -> list[BoardFailure]:
    """Watch every board until its input ends or ``stop`` is set; the boards that failed."""
    if len({board.config.board for board in boards}) != len(boards):
        raise ValueError("a board is named twice: its two workers would write one game")
    failures: list[BoardFailure] = []
    threads = [threading.Thread(target=_watch, args=(board, stop, failures),
                                name=f"board-{board.config.board}", daemon=True) for board in boards]
    for thread in threads:
        thread.start()
    for thread in threads:
        while thread.is_alive():  # in steps: the main thread stays free for the signals that stop
            thread.join(0.5)
    return failures


def _watch(board: Board, stop: threading.Event, failures: list[BoardFailure]) -> None:
    """One board to its end: a live camera's worker started again after it failed."""
    config = board.config
    pauses = config.pauses()
    worker = board.worker()
    while True:
        try:
            worker.run(stop)
            return
        except Exception as error:  # noqa: BLE001 - one board's fault, said in its log and here
            if stop.is_set() or not worker.source.live:
                logger.error("board %s: the worker stopped: %s", config.board, error)
                failures.append(BoardFailure(config.board, error))
                return
            logger.error("board %s: the worker stopped (%s); starting it again in %.1f s",
                         config.board, error, pauses.next)
        if pauses.wait(stop):
            return
        worker = board.worker(lost=True)
