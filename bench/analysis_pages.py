"""What the commentators' analysis costs the server: requests while the analyst searches,
and how long a position waits for its analysis once it is public.

    python3 -m bench.analysis_pages                 # 1 s a position, 20 boards
    python3 -m bench.analysis_pages --seconds 0.3 --boards 50

In one process, through Flask's test client (no sockets: the server's own work only):

- **requests**: ``GET /api/board/<id>`` (the state the pages poll and the SSE streams send),
  p50 and p95 over ``--requests`` calls, with analysis off, and on with the analyst kept busy
  (a queue of positions always waiting). The search runs in a thread of the server's
  process, so it takes the interpreter's lock from the request threads in turns: this
  measures what that costs a request.
- **waits**: every board moves at once (the worst case: a round's first moves), then the
  time until each board's shown position is analysed (the ``analysis`` stream message),
  p50 and max: boards queue for the one analyst, so the last waits ``boards x seconds``.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from pathlib import Path


from makhos.engine.game import Game
from makhos.events import EventKind, GameEvent, SQLiteLog
from makhos.events.details import GameStarted
from flask.testing import FlaskClient

from makhos.server import create_app
from makhos.server.config import AnalysisSettings, BoardInfo, ServerConfig


def game_events(board: int, plies: int) -> list[GameEvent]:
    """A board's game_started and its first ``plies`` moves: a legal game of its own (the
    ``board``-th legal move, round the list, every ply), so no two boards share positions."""
    game = Game()
    events = [GameEvent(str(board), EventKind.GAME_STARTED, 0.0, game=1, ply=0,
                        fen=game.position.fen(), detail=GameStarted(game.rules))]
    for ply in range(1, plies + 1):
        legal = game.legal_moves()
        move = legal[(board + ply) % len(legal)]
        side = game.position.turn
        game.play(move)
        events.append(GameEvent(str(board), EventKind.MOVE, 0.0, game=1, ply=ply, move=str(move),
                                fen=game.position.fen(), side=side))
    return events


def percentiles(values: list[float]) -> str:
    values = sorted(values)
    return (f"p50 {statistics.median(values) * 1000:.2f} ms, "
            f"p95 {values[int(0.95 * (len(values) - 1))] * 1000:.2f} ms")


def request_times(client: FlaskClient, boards: int, count: int) -> list[float]:
    times = []
    for index in range(count):
        started = time.perf_counter()
        client.get(f"/api/board/{index % boards + 1}")
        times.append(time.perf_counter() - started)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=1.0, help="analysis time a position (default 1)")
    parser.add_argument("--boards", type=int, default=20)
    parser.add_argument("--requests", type=int, default=400)
    args = parser.parse_args()
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.1f}; analysis {args.seconds:g} s a position, {args.boards} boards")
    boards = tuple(BoardInfo(str(b)) for b in range(1, args.boards + 1))

    for analysis in (None, AnalysisSettings(seconds=args.seconds)):
        log = SQLiteLog()
        for board in boards:
            for event in game_events(int(board.id), 6):
                log.append(event)
        app = create_app(ServerConfig(events=log, boards=boards, analysis=analysis))
        client = app.test_client()
        if analysis is not None:  # keep the analyst busy: every board's every position waits
            for board in boards:
                for ply in range(7):
                    client.get(f"/api/board/{board.id}/analysis?ply={ply}")
        request_times(client, args.boards, 20)  # warm the caches
        times = request_times(client, args.boards, args.requests)
        print(f"GET /api/board/<id>, analysis {'on, analyst busy' if analysis else 'off'}: "
              f"{percentiles(times)}")
        app.extensions["makhos"].close()
        log.close()

    # Every board moves at once: how long until each one's shown position is analysed.
    log = SQLiteLog()
    for board in boards:
        for event in game_events(int(board.id), 6):
            log.append(event)
    app = create_app(ServerConfig(events=log, boards=boards, analysis=AnalysisSettings(seconds=args.seconds)))
    client = app.test_client()
    feed = app.extensions["makhos"].feed
    started = time.perf_counter()
    for board in boards:
        feed.append(game_events(int(board.id), 7)[-1])
        client.get(f"/api/board/{board.id}/analysis")  # a viewer's stream asks, as it would
    waits: dict[str, float] = {}
    while len(waits) < len(boards):
        for board in boards:
            if board.id not in waits and client.get(f"/api/board/{board.id}/analysis").get_json()["status"] == "ready":
                waits[board.id] = time.perf_counter() - started
        time.sleep(0.01)
    values = sorted(waits.values())
    print(f"all {args.boards} boards move at once: analysed after p50 {statistics.median(values):.1f} s, "
          f"max {values[-1]:.1f} s (one analyst: {args.boards} x {args.seconds:g} s)")
    app.extensions["makhos"].close()
    log.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
