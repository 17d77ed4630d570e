"""``makhos serve``: the live pages, the referee console and the API.

Served by :class:`makhos.server.serving.Server`: the live streams (Server-Sent Events) are
greenlets on gevent's event loop and hold no thread, so thousands of viewers cost memory,
not threads; pages, the API and the referee's actions run in pools of real threads
(``--threads``; the referee has a pool of its own), so no crowd of viewers locks the
referee out.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from makhos.events import LogUnavailable, open_log

from .flags import add_events, add_hall_profile

TOKEN_ENV = "MAKHOS_REFEREE_TOKEN"
HALL_TOKEN_ENV = "MAKHOS_HALL_TOKEN"  # the Redis password, shared with the hall's workers


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "serve",
        help="serve the live pages, the referee console and the API",
        description="Serve the hall, live boards, referee console, JSON/SSE API and PDN "
                    "from an event log. Binds 127.0.0.1 unless --host says otherwise.",
        epilog="examples:\n  makhos serve --events events.db\n"
               "  makhos serve --events events.db --host 0.0.0.0 --token T --delay 30\n"
               "  makhos serve --hall-profile hall.json --trusted-proxies 1   # behind nginx with TLS\n"
               f"  {TOKEN_ENV}=T makhos serve --hall-profile hall.json\n"
               f"  {HALL_TOKEN_ENV}=S makhos serve --redis redis://127.0.0.1:6379/0 --port 5001",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_events(parser)
    parser.add_argument("--redis", metavar="URL",
                        help="read a hall's Redis Streams instead: redis://[:password@]host:port/db "
                             f"(password also from ${HALL_TOKEN_ENV}); several servers may share it")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=5000, help="port (default 5000)")
    parser.add_argument("--token", help=f"referee token (or ${TOKEN_ENV}); without it the "
                                        "console is off")
    parser.add_argument("--delay", type=float, default=0.0,
                        help="broadcast delay in seconds for public pages and API (default 0)")
    add_hall_profile(parser, "hall profile JSON: {\"event\": NAME, \"site\": PLACE, \"scoring\": [2,1,0], "
                             "\"analysis\": {\"seconds\": 1}, "
                             "\"boards\": [{\"id\": \"1\", \"label\": \"Table 1\", \"picture\": true}]}", old="--boards")
    parser.add_argument("--frames", type=Path,
                        help="folder where the workers keep the camera's pictures (makhos worker "
                             "--frames): <board>.jpg, the annotated camera view (referee console "
                             "only), and the rectified board at each ply (the review report; the "
                             "board page's picture where the hall profile turns it on)")
    parser.add_argument("--trusted-proxies", type=int, default=0, metavar="N",
                        help="reverse proxies in front that set X-Forwarded-Proto (default 0: "
                             "the header is ignored, as any client can send it); behind a TLS "
                             "proxy, 1 gives the referee's cookie the Secure flag")
    parser.add_argument("--threads", type=int, default=32,
                        help="threads for pages and API requests (default 32); the live streams "
                             "need none, and the referee's requests have 4 of their own")
    parser.set_defaults(func=run)


def load_profile(path: Path | None) -> dict[str, Any]:
    """The hall profile's settings for ServerConfig; raises ValueError when malformed."""
    from makhos.server.config import AnalysisSettings, BoardInfo, Scoring

    if path is None:
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise ValueError(f"{path} is not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path} must hold a JSON object")
    settings: dict[str, Any] = {}
    try:
        if "event" in data:
            settings["event_name"] = str(data["event"])
        if "site" in data:
            settings["site"] = str(data["site"])
        if "scoring" in data:
            settings["scoring"] = Scoring(*map(int, data["scoring"]))
        if "analysis" in data:
            settings["analysis"] = AnalysisSettings.from_json(data["analysis"])
        if "boards" in data:
            settings["boards"] = tuple(BoardInfo(str(b["id"]), str(b.get("label", "")), _switch(b, "picture"))
                                       for b in data["boards"])
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"{path}: bad hall profile ({error})") from None
    return settings


def _switch(board: dict[str, Any], name: str) -> bool:
    """A board's on/off setting: ``true`` or ``false`` (absent: off), nothing else."""
    value = board.get(name, False)
    if not isinstance(value, bool):
        raise ValueError(f"board {board.get('id')}: {name} must be true or false, not {value!r}")
    return value


def run(args: argparse.Namespace) -> int:
    from makhos.server import create_app
    from makhos.server.serving import Server
    from makhos.server.camera import FolderFrames
    from makhos.server.config import ServerConfig
    from makhos.events.store import check_redis_url

    if args.threads < 1:
        raise ValueError("--threads must be at least 1")
    if not 0 <= args.port <= 65535:
        raise ValueError(f"--port {args.port}: a port is a number from 0 to 65535 (0: any free one)")
    target = check_redis_url(args.redis) if args.redis is not None else args.events
    store = open_log(target, password=os.environ.get(HALL_TOKEN_ENV))
    config = ServerConfig(events=store,
                          referee_token=args.token or os.environ.get(TOKEN_ENV) or None,
                          broadcast_delay=args.delay, trusted_proxies=args.trusted_proxies,
                          camera=FolderFrames(args.frames) if args.frames else None,
                          **load_profile(args.hall_profile))
    try:
        app = create_app(config)
    except LogUnavailable as error:
        raise ValueError(f"cannot read the event log ({error}); is Redis running?") from None
    try:
        server = Server(app, args.host, args.port, threads=args.threads)
    except OSError as error:
        app.extensions["makhos"].close()
        raise ValueError(f"cannot listen on {args.host}:{args.port} ({error.strerror})") from None
    analysis = config.analysis
    print(f"makhos serve: {server.url}/ (events {'redis' if args.redis is not None else args.events}, "
          f"delay {args.delay:g} s, referee console {'on' if config.referee_token else 'off'}, "
          f"analysis {f'{analysis.seconds:g} s a position' if analysis else 'off'})",
          flush=True)
    if analysis and not args.delay:
        print("makhos serve: warning: analysis is on with no broadcast delay: anyone in the hall "
              "with a phone sees the engine's best move at once; give the broadcast a delay "
              "(--delay 900: 15 minutes)", file=sys.stderr, flush=True)
    raise_open_files_limit()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


def raise_open_files_limit() -> None:
    """Each viewer is an open socket: take the soft limit on open files up to the hard one
    (often 1,024 of 524,288 on Linux). Nothing to do where there is no such limit."""
    try:
        import resource
    except ImportError:  # Windows
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY
                                                        else max(soft, 65536), hard))
        except (ValueError, OSError):
            pass
