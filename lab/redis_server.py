"""A real redis-server on loopback, started and stopped by the hall tests and benches (so
they can restart it, on the same port and append-only file).

Append-only file with fsync on every write by default, as a hall should run it: a restart
(even a SIGKILL) keeps every event whose append was answered.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

import redis

BINARY = shutil.which("redis-server")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class RedisServer:
    def __init__(self, folder: Path, password: str | None = None, fsync: str = "always") -> None:
        if BINARY is None:
            raise RuntimeError("redis-server is not installed (apt-get install redis-server)")
        self.binary = BINARY
        self.folder = folder
        self.port = free_port()
        self.password = password
        self.fsync = fsync
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        auth = f":{self.password}@" if self.password else ""
        return f"redis://{auth}127.0.0.1:{self.port}/0"

    def start(self) -> None:
        args = [self.binary, "--bind", "127.0.0.1", "--port", str(self.port), "--dir", str(self.folder),
                "--save", "", "--appendonly", "yes", "--appendfsync", self.fsync]
        if self.password:
            args += ["--requirepass", self.password]
        self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis(host="127.0.0.1", port=self.port, password=self.password)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                return
            except (redis.ConnectionError, redis.exceptions.BusyLoadingError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.02)

    def kill(self) -> None:
        """SIGKILL: the harshest restart there is."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None
