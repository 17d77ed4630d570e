"""A board's view state: its record (:mod:`events.game`) and what every page and API call shows.

The events are folded by the one replay that the tracker also uses, so a page shows the
game the tracker recorded; this module adds the match's score, the JSON the pages read,
the PDN, and the check of a referee's decision against the board as it stands. Pure
Python, no Flask, no clock reads: the same events always give the same state, and a
restarted server shows what it showed before.
"""

from __future__ import annotations

import time
from typing import Any

from makhos.engine import Colour
from makhos.engine.game import Outcome
from makhos.events import decisions as ra
from makhos.events.clock import MOVE_SECONDS, WALL_CLOCK
from makhos.events.details import Irregularity
from makhos.events.game import Alert, MatchGame, LoggedGame
from makhos.events.match import Match
from makhos.events.moves import MoveEntry

from .config import Scoring

__all__ = ["BoardState", "EXTRA_MINUTES_PER_GAME"]

EXTRA_MINUTES_PER_GAME = 10  # two of 5 or one of 10, per side per game
OPPOSITE = {"won": "lost", "drawn": "drawn", "lost": "won"}  # the other player's game


class BoardState(LoggedGame):
    """Everything known about one board after the events applied so far (in log order).

    >>> from makhos.events import GameEvent, EventKind
    >>> s = BoardState("1")
    >>> s.apply(GameEvent("1", EventKind.MOVE, 0.0, ply=1, move="22-18",
    ...                   fen="W:W1,2,3,4,5,6,7,8:B18,25,26,27,28,29,30,31,32", seq=1))
    >>> s.current.moves[0].move, s.seq
    ('22-18', 1)
    """

    def __init__(self, board: str, scoring: Scoring | None = None) -> None:
        super().__init__(board)
        self.scoring = scoring or Scoring()

    # ------------------------------------------------------------ checking a decision

    def check(self, action: ra.RefereeAction) -> None:
        """Raise ActionError when a well-formed action does not fit the board as it stands."""
        record = self.current
        match action:
            case ra.Acknowledge(alert=seq) | ra.AcceptMove(alert=seq) | ra.Dismiss(alert=seq):
                if seq not in self.alerts:
                    raise ra.ActionError(f"no open alert {seq}")
            case ra.CorrectMove(move=text, alert=seq):
                if seq is not None and seq not in self.alerts:
                    raise ra.ActionError(f"no open alert {seq}")
                last = self.replaces_last(seq)
                if record.correction(text, last) is None:
                    if seq is None and not record.moves:
                        raise ra.ActionError("no move to correct yet")
                    before = record.game.plies[-1].before if last else record.game.position
                    raise ra.ActionError(f"{text} is not one legal move in {before.fen()} "
                                         "(write the full path when the short form is ambiguous)")
            case ra.ChooseLine(alert=seq, line=line):
                alert = self.alerts.get(seq)
                lines = alert.detail.lines if alert is not None and isinstance(alert.detail, Irregularity) else ()
                if line not in lines:
                    raise ra.ActionError(f"alert {seq} lists no line {line}" if lines
                                         else f"no open gap notice {seq}")
            case ra.TakeBack(plies=plies):
                if plies > len(record.moves):
                    raise ra.ActionError(f"only {len(record.moves)} plies to take back")
            case ra.GrantExtraTime(side=side, minutes=minutes):
                used = record.extra_used[side]
                if sum(used) + minutes > EXTRA_MINUTES_PER_GAME or (minutes == 10 and used):
                    raise ra.ActionError(f"{side.value} has used {'+'.join(map(str, used))} minutes: "
                                         "the allowance is two of 5 or one of 10 per game")

    # ------------------------------------------------------------ what is shown

    def players_of(self, record: MatchGame) -> dict[str, str]:
        """Which player has dark and light in a game: the first mover alternates."""
        match = self.match_of(record)
        mover, other = match.first, match.second
        if not match.moves_first(record):
            mover, other = other, mover
        if record.rules.first_mover is Colour.DARK:
            return {"dark": mover, "light": other}
        return {"dark": other, "light": mover}

    def score(self, match: Match | None = None) -> dict[str, int]:
        """Match points of the two players (of the match being played, by default) under the
        event's scoring."""
        match = match or self.match
        points = {"first": 0, "second": 0}
        for record in self.games_of(match):
            game = self.game_points(match, record)
            if game is not None:
                points["first"] += game["first"]
                points["second"] += game["second"]
        return points

    def game_points(self, match: Match, record: MatchGame) -> dict[str, int] | None:
        """The match points one finished game gave the two players (None while in play):
        a game's result is written as the match's score is, first player first."""
        result = record.result
        if result is None:
            return None
        mover = record.rules.first_mover
        first_side = mover if match.moves_first(record) else mover.opponent
        first = ("drawn" if result.outcome is Outcome.DRAW
                 else "won" if result.outcome is Outcome.win_for(first_side) else "lost")
        return {"first": self.scoring.points(first), "second": self.scoring.points(OPPOSITE[first])}

    def game_json(self, record: MatchGame) -> dict[str, Any]:
        result = record.result
        last = record.moves[-1] if record.moves else None
        match = self.match_of(record)
        return {
            "number": record.number,
            # The game's place in its own match ("Game 1 of 4 · Round 2"): the board's games
            # are numbered on across rounds, and an earlier game keeps its own round.
            "in_match": {"number": record.number - match.first_game + 1, "games": match.games,
                         "round": match.round, "named": bool(match.first)},
            "rules": record.rules.to_dict(),
            "start_fen": record.game.start.fen(),
            "fen": record.game.position.fen(),
            "turn": record.game.position.turn.value,
            "awaits_board": record.awaits_board,  # from the board: no reading of it yet
            "moves": [_move_json(m) for m in record.moves],
            "last_move": None if last is None else {
                "path": _path(last.move), "captured": last.captured},
            "result": None if result is None else {"outcome": result.outcome.value,
                                                   "reason": result.reason},
            "players": self.players_of(record),
            "extra_used": {side.value: used for side, used in record.extra_used.items()},
        }

    def to_json(self) -> dict[str, Any]:
        """The full view state, as the board page and ``/api/board/<id>`` give it."""
        record = self.current
        return {
            "board": self.board,
            "seq": self.seq,
            "game": self.game_json(record),
            "clock": {"side": self.clock.side.value, "started": self.clock.started,
                      "stopped": self.clock.stopped,
                      "extra_seconds": self.clock.extra_seconds,
                      "limit_seconds": self.clock.limit_seconds,
                      "level": None if self.clock.level is None else self.clock.level.value},
            "alerts": [_alert_json(a) for a in self.alerts.values()],  # in log order
            "match": self.match_json(self.match),
            "camera": None if self.camera is None else self.camera.value,
            "crowning_pending": self.crowning_pending,
        }

    def match_json(self, match: Match) -> dict[str, Any]:
        """A match with its score and each game's players and outcome (the standings' input)."""
        return {"first": match.first, "second": match.second, "round": match.round,
                "games": match.games, "score": self.score(match),
                "results": [{"game": r.number, "players": self.players_of(r),
                             "outcome": r.result.outcome.value if r.result else None,
                             "score": self.game_points(match, r)}
                            for r in self.games_of(match)]}

    def summary(self) -> dict[str, Any]:
        """The hall's line for this board: small enough to send on every event."""
        record = self.current
        result = record.result
        last = record.moves[-1] if record.moves else None
        return {
            "board": self.board,
            "seq": self.seq,
            "game": record.number,
            "fen": record.game.position.fen(),
            "plies": len(record.moves),
            "last_move": None if last is None else {"path": _path(last.move),
                                                    "captured": last.captured},
            "players": self.players_of(record),
            "result": None if result is None else {"outcome": result.outcome.value,
                                                   "reason": result.reason},
            "alert": bool(self.alerts),
            "match": {"first": self.match.first, "second": self.match.second,
                      "round": self.match.round, "score": self.score()},
        }

    def pdn(self, record: MatchGame, event_tags: dict[str, str]) -> str:
        """The PDN of one game of this board: the event's tags (Event, Site), the match's
        (Round, the players) and the day the game began, by the hall's clock (a video's
        frame times name no day: then ``????.??.??``)."""
        players = self.players_of(record)
        began = record.started
        day = time.strftime("%Y.%m.%d", time.localtime(began)) if began and began > WALL_CLOCK else "????.??.??"
        tags = {**event_tags, "Date": day, "Round": self.match_of(record).round or "?",
                "White": players["light"] or "?", "Black": players["dark"] or "?",
                "Board": self.board, "Game": str(record.number),
                "TimeControl": f"1/{MOVE_SECONDS}"}  # PGN's form: one move in 120 seconds
        return record.pdn(tags)

    def game(self, number: int) -> MatchGame | None:
        return next((r for r in self.games if r.number == number), None)


def _path(text: str | None) -> list[int]:
    return [int(s) for s in text.replace("x", "-").split("-")] if text else []


def _move_json(m: MoveEntry) -> dict[str, Any]:
    return {"ply": m.ply, "number": m.number, "side": m.side.value, "move": m.move, "fen": m.fen,
            "path": _path(m.move), "captured": m.captured, "irregular": m.irregular,
            "time": m.time, "spent": m.spent, "gap": m.note or None, "unconfirmed": m.unconfirmed}


def _alert_json(a: Alert) -> dict[str, Any]:
    return {"seq": a.seq, "kind": a.kind.value, "reason": a.reason,
            "side": None if a.side is None else a.side.value, "time": a.time,
            "detail": a.detail.to_dict(), "acknowledged": a.acknowledged}
