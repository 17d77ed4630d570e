"""The hall profile, as a worker reads it: which source watches each board, who plays there,
and the board profile (``makhos calibrate``'s file) of its camera.

One JSON file serves the whole hall (``makhos serve --hall-profile`` reads the same file for
labels, event name and scoring)::

    {"event": "Bangkok Open", "boards": [
        {"id": "1", "label": "Table 1", "source": "rtsp://10.0.0.21/stream",
         "players": ["Somchai", "Malee"], "profile": "boards/table1.json"}]}

A board profile's path is taken from the hall profile's folder when it is relative, so the
hall's files move together.

>>> plan = BoardPlan.from_json({"id": 7, "source": "0", "players": ["A", "B"]})
>>> plan.id, plan.source, plan.players, plan.profile
('7', '0', ('A', 'B'), None)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from makhos.events.decisions import ActionError, SetPlayers, parse_action


@dataclass(frozen=True, slots=True)
class BoardPlan:
    id: str
    source: str | None = None
    players: tuple[str, str] | None = None
    profile: Path | None = None  # the board profile of this board's camera

    @classmethod
    def from_json(cls, data: dict[str, Any], folder: Path = Path(".")) -> "BoardPlan":
        players = data.get("players")
        if players is not None and (not isinstance(players, list) or len(players) != 2):
            raise ValueError(f"board {data.get('id')}: players must be a list of two names")
        if players is not None:
            try:  # the names a referee could type, no others (a NUL would never reach a page)
                parse_action(SetPlayers(str(players[0]), str(players[1])).to_dict())
            except ActionError as error:
                raise ValueError(f"board {data.get('id')}: players: {error}") from None
        profile = data.get("profile")
        if profile is not None and (not isinstance(profile, str) or not profile):
            raise ValueError(f"board {data.get('id')}: profile must be the path of a board "
                             f"profile file (makhos calibrate -o FILE), got {profile!r}")
        source = data.get("source")
        return cls(str(data["id"]), None if source is None else str(source),
                   None if players is None else (str(players[0]), str(players[1])),
                   None if profile is None else folder / profile)


def board_plan(path: Path, board: str) -> BoardPlan:
    """The profile's entry for ``board``; ValueError when the file or the board is wrong."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        plans = [BoardPlan.from_json(b, path.parent) for b in data["boards"]]
    except json.JSONDecodeError as error:
        raise ValueError(f"{path} is not valid JSON: {error}") from None
    except (KeyError, TypeError, AttributeError) as error:
        raise ValueError(f"{path}: bad hall profile ({error!r})") from None
    except ValueError as error:
        raise ValueError(f"{path}: {error}") from None
    for plan in plans:
        if plan.id == board:
            return plan
    raise ValueError(f"{path}: no board {board!r} (boards: {', '.join(p.id for p in plans)})")
