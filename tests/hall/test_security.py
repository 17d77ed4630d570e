"""The hall's credential: the Redis password is the per-hall token; without it a worker or a
server stops at once with a clear message, with it the game flows. Nothing listens publicly."""

from __future__ import annotations

import pytest

from makhos.cli.main import build_parser
from makhos.engine.pdn import write_game
from makhos.events import open_log

from hall_sample import folded_pdn, makhos, recorded
from lab.redis_server import BINARY, RedisServer

TOKEN = "hall-7f3a"


@pytest.fixture
def locked_redis(tmp_path):
    if BINARY is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
    server = RedisServer(tmp_path, password=TOKEN)
    server.start()
    yield server
    server.kill()


def test_a_worker_needs_the_hall_token_and_works_with_it(tmp_path, locked_redis):
    game, pdn = recorded(tmp_path, seed=9, plies=6)
    bare = f"redis://127.0.0.1:{locked_redis.port}/0"
    args = ("worker", "--source", f"replay:{pdn}", "--speed", "100", "--board", "1", "--redis", bare)
    refused = makhos(*args)
    assert refused.returncode == 2 and "password" in refused.stderr
    assert makhos(*args, token="wrong").returncode == 2
    done = makhos(*args, token=TOKEN)
    assert done.returncode == 0, done.stderr
    assert folded_pdn(open_log(locked_redis.url), "1") == write_game(game)


def test_the_worker_takes_the_password_as_hall_token_never_as_token(tmp_path, locked_redis):
    """--token is the referee token of serve, run and demo; a worker's is --hall-token."""
    game, pdn = recorded(tmp_path, seed=9, plies=4)
    args = ("worker", "--source", f"replay:{pdn}", "--speed", "100", "--board", "1",
            "--redis", f"redis://127.0.0.1:{locked_redis.port}/0")
    done = makhos(*args, "--hall-token", TOKEN)
    assert done.returncode == 0, done.stderr
    assert folded_pdn(open_log(locked_redis.url), "1") == write_game(game)
    old = makhos(*args, "--token", TOKEN)
    assert old.returncode == 2 and "--hall-token" in old.stderr


def test_a_server_without_the_hall_token_refuses_to_start(locked_redis):
    refused = makhos("serve", "--redis", f"redis://127.0.0.1:{locked_redis.port}/0", "--port", "0")
    assert refused.returncode == 2 and "password" in refused.stderr


def test_workers_listen_nowhere_and_servers_bind_loopback_by_default():
    parser = build_parser()
    assert parser.parse_args(["serve", "--redis", "redis://h/0"]).host == "127.0.0.1"
    worker = parser.parse_args(["worker", "--board", "1", "--source", "0"])
    assert not any("host" in name or "port" in name for name in vars(worker))
