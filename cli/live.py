"""One board watched and served by one process: the common core of ``run`` and ``demo``.

The worker (camera -> vision -> tracker -> log) runs in a thread; the pages and API are
served from the same log by :class:`makhos.server.serving.Server` in another (its streams on
an event loop, so open tabs cost no threads), and the referee's camera view is the annotated
frame the worker keeps in a folder.
"""

from __future__ import annotations

import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from makhos.engine import Colour, Rules


@dataclass(frozen=True)
class LiveBoard:
    source: str
    board: str = "1"
    events: Path | None = None  # SQLite file; a temporary one when None
    rules: Rules = Rules()
    first_mover: Colour | None = None
    token: str | None = None
    host: str = "127.0.0.1"
    port: int = 5000
    speed: float | None = None  # play a recording at this many times its pace; None: as fast as read
    profile: Path | None = None  # the camera's board profile (makhos calibrate)
    start: float = 0.0  # seconds into a video file to play it from


class LiveRun:
    """Start with :meth:`start`; the worker ends with its recording, the server on :meth:`close`."""

    def __init__(self, plan: LiveBoard) -> None:
        from makhos.events import open_log
        from makhos.session.annotate import CameraView
        from makhos.session.kept import KeptPlies
        from makhos.server import create_app
        from makhos.server.serving import Server
        from makhos.server.camera import FolderFrames
        from makhos.server.config import BoardInfo, ServerConfig
        from makhos.worker.inputs import CameraInput
        from makhos.worker.loop import Worker, WorkerConfig

        self.plan = plan
        self._scratch = tempfile.TemporaryDirectory(prefix="makhos-")
        scratch = Path(self._scratch.name)
        self.log = open_log(plan.events or scratch / "events.db")
        view = scratch / "camera"
        self.desk = None
        if plan.profile is not None:
            from makhos.calibration.desk import ProfileDesk

            self.desk = ProfileDesk(plan.board, plan.profile)
        source = CameraInput(plan.source, speed=plan.speed, view=CameraView(view, plan.board),
                             profile=plan.profile, desk=self.desk, start=plan.start)
        # Beside the camera view, the rectified board at each ply: the report after the game.
        self.worker = Worker(WorkerConfig(board=plan.board, rules=plan.rules, first_mover=plan.first_mover),
                             self.log, source, KeptPlies(view, plan.board).observe)
        config = ServerConfig(events=self.log, referee_token=plan.token, camera=FolderFrames(view),
                              boards=(BoardInfo(plan.board),), calibration=self.desk)
        app = create_app(config)
        try:
            self.server = Server(app, plan.host, plan.port, threads=16)
        except OSError as error:
            app.extensions["makhos"].close()
            raise ValueError(f"cannot listen on {plan.host}:{plan.port} ({error.strerror}): "
                             "is another makhos running? choose another --port") from None
        self.stop = threading.Event()
        self.failed: str | None = None  # why the camera loop died, once it has
        self._worker = threading.Thread(target=self._watch, name="worker", daemon=True)

    @property
    def url(self) -> str:
        return self.server.url

    def resumed(self) -> str | None:
        """Take up the board's game from the log now; what is resumed, if anything."""
        import time

        from makhos.events.clock import WALL_CLOCK

        self.worker.start_session(self.stop)
        session = self.worker.session
        assert session is not None
        last = session.tracker.resumed
        wall = last is not None and last > WALL_CLOCK
        return session.resumed(time.time() if wall else self.plan.start)

    def start(self) -> None:
        self._worker.start()
        self.server.start()

    def _watch(self) -> None:
        """The worker, to the end of a recording or the stop. Whatever ends it otherwise
        (a source that cannot be read, a log that stayed away) stops the whole run: a
        page that goes on serving a board no camera watches would say nothing is wrong."""
        try:
            self.worker.run(self.stop)
        except Exception as error:  # noqa: BLE001 - each is said, in one line, and ends the run
            self.failed = f"camera failed: {error}"
            self.stop.set()

    def wait_recorded(self, timeout: float | None = None) -> bool:
        """Wait for the worker to reach the end of a recording; False on timeout."""
        self._worker.join(timeout)
        return not self._worker.is_alive()

    def pdn(self) -> str | None:
        session = self.worker.session
        return session.pdn() if session is not None else None

    def close(self) -> None:
        self.stop.set()
        if self._worker.ident is not None:  # started
            self._worker.join(10)
        self.server.close()  # closes the hall: the open streams end
        self._scratch.cleanup()
