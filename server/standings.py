"""The event's matches by round, and the players' standings under the event's scoring.

Pure functions over the boards' match records as the view state gives them
(``BoardState.to_json()["match"]``: the two players, the round, and each game's players
and outcome), so the standings can never count a game differently from the board pages.
Points are per game (:class:`~server.config.Scoring`: 2/1/0 by default, 3/1/0 for the
sports association); players are ranked by points, then games won, then name; those who
have not played yet come last.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any, Callable, Iterable, TypeVar

from .config import Scoring

OUTCOME_WINNER = {"dark wins": "dark", "light wins": "light"}


@dataclass(frozen=True, slots=True)
class MatchLine:
    """One match of the event: on which board, in which round, and how it stands."""

    board: str
    label: str
    round: str
    first: str
    second: str
    games: int  # games the match is played over
    played: int  # games finished
    score: dict[str, int]  # match points: {"first": n, "second": m}
    results: list[str | None]  # per game: "first", "second", "draw", None while in play

    @property
    def finished(self) -> bool:
        return self.played >= self.games


@dataclass(frozen=True, slots=True)
class Standing:
    player: str
    points: int
    played: int
    won: int
    drawn: int
    lost: int
    rank: int = 0


def match_line(board: str, label: str, match: dict[str, Any]) -> MatchLine | None:
    """The board's match (None before players are named: no one to stand)."""
    first, second = match.get("first") or "", match.get("second") or ""
    if not first or not second:
        return None
    results = [_winner(r, first, second) for r in match.get("results", [])]
    return MatchLine(board, label, match.get("round") or "", first, second,
                     int(match.get("games") or len(results)),
                     sum(r is not None for r in results), dict(match["score"]), results)


def _winner(result: dict[str, Any], first: str, second: str) -> str | None:
    """Who won one game of the match, as "first"/"second"/"draw"; None while in play."""
    outcome = result.get("outcome")
    if outcome is None:
        return None
    if outcome == "draw":
        return "draw"
    name = result.get("players", {}).get(OUTCOME_WINNER.get(outcome, ""), "")
    return "first" if name == first else "second" if name == second else None


def standings(lines: Iterable[MatchLine], scoring: Scoring) -> list[Standing]:
    """Every named player's totals over every match, best first; equal points and wins
    share a rank. Players who have not played yet come after every player who has (a lost
    game is a game played: 0 points, but ranked), and share the last rank."""
    totals: dict[str, dict[str, int]] = {}
    for line in lines:
        for me in ("first", "second"):
            row = totals.setdefault(getattr(line, me), dict(points=0, played=0, won=0, drawn=0, lost=0))
            for result in line.results:
                if result is None:
                    continue
                outcome = "drawn" if result == "draw" else "won" if result == me else "lost"
                row["played"] += 1
                row[outcome] += 1
                row["points"] += scoring.points(outcome)
    def standing(row: dict[str, int]) -> tuple[bool, int, int]:
        return row["played"] == 0, -row["points"], -row["won"]

    ordered = sorted(totals.items(), key=lambda item: (*standing(item[1]), item[0]))
    table: list[Standing] = []
    for index, (player, row) in enumerate(ordered):
        tied = table and standing(asdict(table[-1])) == standing(row)
        table.append(Standing(player, rank=table[-1].rank if tied else index + 1, **row))
    return table


def round_key(name: str) -> tuple[tuple[int, int, str], ...]:
    """Rounds in natural order: "2" before "10", "Round 9" before "Round 10"."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part.lower())
                 for part in re.split(r"(\d+)", name) if part)


T = TypeVar("T")


def by_round(items: Iterable[T], round_of: Callable[[T], str]) -> list[tuple[str, list[T]]]:
    """Matches (or the hall's boards) grouped by round, the latest round first (the one
    being played), those without a round last; each group keeps the hall's order."""
    groups: dict[str, list[T]] = {}
    for item in items:
        groups.setdefault(round_of(item), []).append(item)
    named = sorted((r for r in groups if r), key=round_key, reverse=True)
    return [(r, groups[r]) for r in named + ([""] if "" in groups else [])]


def to_json(lines: list[MatchLine], scoring: Scoring) -> dict[str, Any]:
    return {"scoring": asdict(scoring),
            "rounds": [{"round": name, "matches": [_line_json(m) for m in matches]}
                       for name, matches in by_round(lines, lambda m: m.round)],
            "standings": [asdict(s) for s in standings(lines, scoring)]}


def _line_json(line: MatchLine) -> dict[str, Any]:
    return {**asdict(line), "finished": line.finished}
