"""A recording's review report: one HTML page an organiser opens offline to check a score
move by move against what the camera saw (issue 45).

It is built from the board's event log (replayed as every reader replays it,
:func:`events.game.replay`), the PDN written from it, and the camera's pictures (a
:class:`Picture` per ply, an :class:`UnreadStretch` per stretch without a reading), which
the caller keeps; this module only lays them out, so a page served from a live board's
log can make the same report. The pictures go to a folder beside the page
(``report_files/``), so the page itself stays a few hundred kilobytes.
"""

from __future__ import annotations

import base64
import hashlib
import html
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, Sequence

from makhos.engine.pdn import Numbering, in_words, read_game, renumbering
from makhos.events import EventKind, GameEvent
from makhos.events.details import AlertClosed, MovePlayed
from makhos.events.game import Alert, LoggedGame, replay

from .diagram import diagram, letters

#: Below this, the reader's least certain square flags its ply for the filter.
LOW_CERTAINTY = 0.9


class Picture(Protocol):
    """The camera's rectified board when a ply was accepted (``session.review.PlyPicture``)."""

    @property
    def time(self) -> float: ...
    @property
    def jpeg(self) -> bytes | None: ...
    @property
    def seen(self) -> str | None: ...
    @property
    def doubt(self) -> tuple[int, float] | None: ...
    @property
    def shows(self) -> int: ...


class UnreadStretch(Protocol):
    """A stretch of video without a reading of the board (``session.review.Unread``)."""

    @property
    def start(self) -> float: ...
    @property
    def end(self) -> float: ...
    @property
    def jpeg(self) -> bytes: ...


@dataclass(frozen=True)
class AlertStory:
    """An alert, the ply it is about (1-based: the ply after the board it was raised on),
    and how it was closed (None: still open when the recording ended)."""

    alert: Alert
    ply: int
    closed: str | None


@dataclass(frozen=True)
class Camera:
    """What the camera kept for the report: a picture per ply (None: none kept), the unread
    stretches, and the share of the video in which the board was read (None: not measured,
    a live board's)."""

    pictures: Sequence[Picture | None]
    stretches: Sequence[UnreadStretch]
    share_read: float | None


def alert_stories(events: Sequence[GameEvent], board: str) -> list[AlertStory]:
    """Every alert of the current game and what closed it, by replaying the log one event
    at a time: an alert is closed by the event after which the record no longer holds it."""
    logged = LoggedGame(board)
    stories: dict[int, tuple[Alert, int]] = {}
    closed: dict[int, str] = {}
    for event in events:
        before = dict(logged.alerts)
        if event.kind is EventKind.GAME_STARTED:
            stories, closed = {}, {}
        logged.apply(event)
        for key, alert in logged.alerts.items():
            if key not in before:
                stories[key] = (alert, len(logged.current.moves) + 1)
        for key in before.keys() - logged.alerts.keys():
            if key in stories:
                closed[key] = _closing(event)
    return [AlertStory(alert, ply, closed.get(key)) for key, (alert, ply) in stories.items()]


def _closing(event: GameEvent) -> str:
    """How ``event`` closed an alert, in a referee's words."""
    detail = event.detail
    if isinstance(detail, AlertClosed) and detail.how is not None:
        return {"corrected": "corrected: the board went back", "stood": "stood: the opponent played on",
                "chain finished": "the capture chain went on"}[detail.how.value]
    if isinstance(detail, MovePlayed):
        return "stood as an irregular ply" if detail.irregular else "the next ply was played"
    words = {EventKind.TAKEBACK: "taken back", EventKind.BOARD_MATCHED: "the board agreed with the game again",
             EventKind.REFEREE: "the referee decided", EventKind.RESULT: "the game ended",
             EventKind.ALERT_CLOSED: "closed"}
    return words.get(event.kind, event.kind.value.replace("_", " "))


def clock(seconds: float) -> str:
    """``mm:ss`` of a video time.

    >>> clock(75.4), clock(3600.0)
    ('01:15', '60:00')
    """
    whole = max(0, int(seconds))
    return f"{whole // 60:02d}:{whole % 60:02d}"


def inline_sources() -> dict[str, str]:
    """What a Content-Security-Policy must allow for the page's own style and filter
    script to run and nothing else inline (the page as a server serves it): their hashes."""
    def digest(text: str) -> str:
        return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"

    return {"style-src": digest(_STYLE), "script-src": digest(_FILTER)}


def write_report(path: Path, pdn: str, events: Sequence[GameEvent], board: str, camera: Camera,
                 video: Path | None = None, numbering: Numbering = Numbering.FIRST_MOVER) -> Path:
    """Write the report at ``path`` and its pictures in ``<stem>_files/`` beside it."""
    folder = path.with_name(path.stem + "_files")
    folder.mkdir(parents=True, exist_ok=True)
    base = path.parent.resolve()

    def keep(name: str, data: bytes | None) -> str | None:
        if data is None:
            return None
        (folder / name).write_bytes(data)
        return f"{folder.name}/{name}"

    pictures = [keep(f"ply-{i + 1:03d}.jpg", p.jpeg if p else None) for i, p in enumerate(camera.pictures)]
    frames = [keep(f"unread-{i + 1:02d}.jpg", s.jpeg) for i, s in enumerate(camera.stretches)]
    href = None if video is None else os.path.relpath(video.resolve(), base)
    page = render(pdn, events, board, camera, pictures, frames, href, numbering)
    path.write_text(page, encoding="utf-8")
    return path


def render(pdn: str, events: Sequence[GameEvent], board: str, camera: Camera,
           pictures: Sequence[str | None], frames: Sequence[str | None], video: str | None,
           numbering: Numbering, origin: float = 0.0, notes: Sequence[str | None] = ()) -> str:
    """The page's HTML; ``pictures[i]`` and ``frames[i]`` are the images' addresses;
    ``origin``: the time shown as 00:00 (a live board's game start; a video's own start);
    ``notes[i]``: why ply i + 1 has no picture, where there is a reason to say."""
    read = read_game(pdn)
    record = replay(events, board)
    game, moves = record.current.game, record.current.moves
    written = renumbering(game.rules, numbering)
    stories = alert_stories(events, board)
    tags = read.tags
    e = html.escape
    rows = []
    for index, (ply, entry) in enumerate(zip(game.plies, moves)):
        number = index + 1
        notation = "--" if ply.move is None else written(str(ply.move))
        marks = [c.comment(written) for c in entry.corrections]
        if ply.irregularity is not None:
            marks.append(f"{{irregular: {in_words(written, ply.irregularity)}}}")
        picture = camera.pictures[index] if index < len(camera.pictures) else None
        address = pictures[index] if index < len(pictures) else None
        doubt = picture.doubt if picture is not None else None
        alerts = [s for s in stories if s.ply == number]
        flagged = bool(alerts) or (doubt is not None and doubt[1] < LOW_CERTAINTY)
        when = clock(entry.time - origin)
        time_cell = (f'<a href="{e(video)}#t={entry.time:.1f}">{when}</a>' if video else when)
        seen = ""
        if picture is not None and address is not None:
            seen = (f'<img src="{e(address)}" width="240" height="240" alt="the camera at ply '
                    f'{picture.shows}" data-seen="{picture.seen or ""}" data-shows="{picture.shows}">')
            if picture.shows != number:
                seen += f'<div class="small">seen after ply {picture.shows}</div>'
        else:
            note = notes[index] if index < len(notes) else None
            seen = f'<div class="none">{e(note or "no picture")}</div>'
        certainty = ("—" if doubt is None else
                     f"square {written(str(doubt[0]))}: {doubt[1]:.0%}")
        alert_cells = "".join(f'<div class="alert">{e(in_words(written, s.alert.reason))}<br>'
                              f'<span class="closing">{e(s.closed or "still open")}</span></div>'
                              for s in alerts)
        rows.append(
            f'<tr class="ply{" flagged" if flagged else ""}" data-ply="{number}">'
            f'<td class="n">{(index // 2) + 1}.{"" if index % 2 == 0 else ".."}</td>'
            f'<td class="move">{e(notation)}{"".join(f"<div class=mark>{e(m)}</div>" for m in marks)}</td>'
            f"<td>{time_cell}</td><td>{seen}</td><td>{diagram(ply.after, marked=tuple(ply.move.path) if ply.move else ())}</td>"
            f'<td class="{"low" if flagged and doubt and doubt[1] < LOW_CERTAINTY else ""}">{certainty}</td>'
            f"<td>{alert_cells}</td></tr>")
    unread = "".join(
        f'<figure class="unread" data-start="{s.start:.1f}" data-end="{s.end:.1f}">'
        + (f'<img src="{e(a)}" alt="the camera from {clock(s.start)}">' if a else "")
        + f"<figcaption>{clock(s.start)}–{clock(s.end)}</figcaption></figure>"
        for s, a in zip(camera.stretches, frames))
    summary = "".join(f"<li>ply {s.ply}: {e(in_words(written, s.alert.reason))} — "
                      f"<b>{e(s.closed or 'still open')}</b></li>" for s in stories)
    players = f"{tags.get('White', '?')} – {tags.get('Black', '?')}"
    return _PAGE.format(
        title=e(tags.get("Event", "?")), players=e(players), result=e(tags.get("Result", "*")),
        termination=e(tags.get("Termination", "")), plies=len(moves), alerts=len(stories),
        summary=summary or "<li>none</li>", share="not measured" if camera.share_read is None else f"{camera.share_read:.0%} of the video",
        unread=unread or "<p>none</p>", rows="".join(rows), stretches=len(camera.stretches),
        start=diagram(game.start), pdn=e(pdn), style=_STYLE, script=_FILTER)


_STYLE = """
body { font-family: sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; } td { border-top: 1px solid #ccc; padding: 6px; vertical-align: top; }
td.move { font-weight: bold; font-size: 1.2em; } .mark { font-weight: normal; font-size: .8em; color: #a33; }
.alert { color: #a33; } .closing { color: #555; font-size: .9em; } td.low { color: #a33; font-weight: bold; }
.small { font-size: .8em; color: #555; } .none { width: 240px; color: #888; }
figure.unread { display: inline-block; margin: 0 1em 1em 0; } figure.unread img { width: 320px; }
body.only-flagged tr.ply:not(.flagged) { display: none; }
header dl { display: grid; grid-template-columns: max-content auto; gap: 2px 1em; } dt { font-weight: bold; }
"""
_FILTER = ("document.getElementById('only-flagged').addEventListener('change', "
           "(e) => document.body.classList.toggle('only-flagged', e.target.checked));")

_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}: review</title>
<style>{style}</style></head>
<body>
<header><h1>{title}</h1><dl>
<dt>Players</dt><dd>{players}</dd><dt>Result</dt><dd>{result} {termination}</dd>
<dt>Plies</dt><dd>{plies}</dd><dt>Alerts</dt><dd>{alerts}<ul class="alerts">{summary}</ul></dd>
<dt>Board read</dt><dd id="share">{share}</dd>
<dt>Not read</dt><dd>{stretches} stretch(es)<div>{unread}</div></dd></dl></header>
<label><input type="checkbox" id="only-flagged">
 only plies with an alert or a low certainty</label>
<table><thead><tr><th colspan="2">ply</th><th>video</th><th>the camera</th><th>after the move</th>
<th>least certain</th><th>alert</th></tr></thead>
<tbody>{rows}</tbody></table>
<details><summary>The start and the PDN</summary>{start}<pre>{pdn}</pre></details>
<script>{script}</script>
</body></html>
"""
