"""Hall tests run against real redis-server processes; without the binary they skip."""

from __future__ import annotations

import pytest

from lab.redis_server import BINARY, RedisServer


@pytest.fixture
def redis_server(tmp_path):
    """A fresh redis-server on a free loopback port, killed after the test."""
    if BINARY is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
    server = RedisServer(tmp_path)
    server.start()
    yield server
    server.kill()
