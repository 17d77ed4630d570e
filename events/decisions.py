"""What a referee can decide, as data: one frozen dataclass per action.

Every action is stored as a :class:`~events.GameEvent` of kind ``referee`` whose
``detail`` is the action itself, ``{"action": NAME, **fields}`` on disk. The event *is* the
decision: every reader applies it through the one replay (:mod:`events.game`), and
nobody re-emits its effect as another kind of event, so a decision is never applied twice.

Actions (fields; effect):

- ``acknowledge`` (alert: the seq of the alert event): heard; the beep stops, the alert stays.
- ``accept_move`` (alert): the irregular change stands as a ply (the board of the alert
  event's ``fen``); the alert closes.
- ``dismiss`` (alert): the alert closes with no change (a false alarm).
- ``correct_move`` (move: PDN, full path or Thai short form; alert, optional): with an
  alert, whose irregular change was never recorded, ``move`` is played in the game's
  position; without one, the last ply is taken back and ``move`` played in its place.
- ``choose_line`` (alert; line: the plies of one of the alert's lines, spaced): of the
  legal lines that explain a board seen after a gap, this one was played; its plies are
  recorded as seen after the gap, and the alert closes.
- ``take_back`` (plies >= 1): the last ``plies`` plies are undone.
- ``set_result`` (outcome: "dark wins", "light wins" or "draw"; reason): the game ends.
- ``new_game`` (rules: ``Rules.to_dict()`` form, partial allowed; fen, optional: a start
  position as PDN FEN, naming the side to move, in the log's squares; or from_board: true
  with turn, "dark" or "light", the side to move): the next game of the match starts, from
  that position when one is given (an adjourned game resumed, a simultaneous board, a
  composed problem; no forced opening then), or from the board as the camera reads it next,
  which the camera's tracker logs as the game's ``game_started`` with its FEN; the event's
  ``game`` is its number.
- ``set_players`` (first, second, round, games): the match; ``first`` moves first in game 1,
  then the first move alternates.
- ``grant_extra_time`` (side: "dark" or "light"; minutes: 5 or 10): the side's per-move
  clock gets longer, within two of 5 or one of 10 per side per game.
"""

from __future__ import annotations

import enum
import unicodedata
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar, Mapping

from makhos.engine import Colour, MoveText, Position, Rules
from makhos.engine.game import Outcome

from .details import Detail, EventKind, json_value
from .event import GameEvent

MAX_TEXT = 80  # a name or a reason longer than this is a mistake, not a name
MAX_FEN = 200  # 24 pieces, kings marked, ranges or not: under 120 characters
# Bidirectional embeddings and overrides: they would make a name display as another.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Letters and symbols that draw nothing (Hangul fillers, the blank Braille cell, the
# grapheme joiner, Khmer's inherent vowels, Mongolian selectors): a name of them shows blank.
_BLANKS = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u2800\u3164\uffa0")
# Marks drawn on the character before them: one at the start, or after a space, sits on nothing.
_MARK_CATEGORIES = frozenset({"Mn", "Me", "Mc"})


def shows_nothing(value: str) -> tuple[str, str] | None:
    """The first character of ``value`` that a page draws as nothing, and what it is: a
    letter that draws nothing (U+3164, U+2800) or a mark with no letter before it (a lone
    U+0301, U+FE0F). Names of them showed blank on the board page and in the PDN's tags.

    >>> shows_nothing("สมชาย")
    >>> shows_nothing("\u3164")
    ('\u3164', 'a character that shows as nothing')
    """
    before = " "
    for char in value:
        if char in _BLANKS:
            return char, "a character that shows as nothing"
        if before.isspace() and unicodedata.category(char) in _MARK_CATEGORIES:
            return char, "a mark with no letter to sit on"
        before = char
    return None


class ActionError(ValueError):
    """A referee request that cannot be an action; the message says what to fix."""


@dataclass(frozen=True, slots=True)
class RefereeAction(Detail):
    """Base of all actions: ``name`` is the wire name in ``detail.action``."""

    kind: ClassVar[EventKind] = EventKind.REFEREE
    name: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.name, **{f.name: json_value(getattr(self, f.name)) for f in fields(self)}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RefereeAction:
        return parse_action(data)

    def to_event(self, board: str, game: int, time: float) -> GameEvent:
        return GameEvent(board=board, kind=EventKind.REFEREE, time=time, game=game, detail=self)


@dataclass(frozen=True, slots=True)
class Acknowledge(RefereeAction):
    name: ClassVar[str] = "acknowledge"
    alert: int


@dataclass(frozen=True, slots=True)
class AcceptMove(RefereeAction):
    name: ClassVar[str] = "accept_move"
    alert: int


@dataclass(frozen=True, slots=True)
class Dismiss(RefereeAction):
    name: ClassVar[str] = "dismiss"
    alert: int


@dataclass(frozen=True, slots=True)
class CorrectMove(RefereeAction):
    name: ClassVar[str] = "correct_move"
    move: str
    alert: int | None = None


@dataclass(frozen=True, slots=True)
class ChooseLine(RefereeAction):
    name: ClassVar[str] = "choose_line"
    alert: int
    line: str


@dataclass(frozen=True, slots=True)
class TakeBack(RefereeAction):
    name: ClassVar[str] = "take_back"
    plies: int = 1


@dataclass(frozen=True, slots=True)
class SetResult(RefereeAction):
    name: ClassVar[str] = "set_result"
    outcome: Outcome
    reason: str = "referee"


@dataclass(frozen=True, slots=True)
class NewGame(RefereeAction):
    name: ClassVar[str] = "new_game"
    rules: dict[str, Any]
    fen: str | None = None
    from_board: bool = False  # the start is the board the camera reads next
    turn: Colour | None = None  # from the board: the side to move (a FEN names its own)


@dataclass(frozen=True, slots=True)
class SetPlayers(RefereeAction):
    name: ClassVar[str] = "set_players"
    first: str
    second: str
    round: str = ""
    games: int = 4


@dataclass(frozen=True, slots=True)
class GrantExtraTime(RefereeAction):
    name: ClassVar[str] = "grant_extra_time"
    side: Colour
    minutes: int


ACTIONS: dict[str, type[RefereeAction]] = {
    cls.name: cls
    for cls in (Acknowledge, AcceptMove, Dismiss, CorrectMove, ChooseLine, TakeBack, SetResult,
                NewGame, SetPlayers, GrantExtraTime)
}
OUTCOMES = tuple(o.value for o in Outcome)
_ENUM_FIELDS: tuple[tuple[str, type[enum.Enum], str], ...] = (
    ("outcome", Outcome, f"outcome must be one of: {', '.join(OUTCOMES)}"),
    ("side", Colour, "side must be 'dark' or 'light'"),
    ("turn", Colour, "turn must be 'dark' or 'light', the side to move"),
)


def parse_action(data: Any) -> RefereeAction:
    """Check a request body (or an event's ``detail``) and build its action.

    >>> parse_action({"action": "take_back", "plies": 2})
    TakeBack(plies=2)
    >>> parse_action({"action": "grant_extra_time", "side": "dark", "minutes": 7})
    Traceback (most recent call last):
    ...
    makhos.events.decisions.ActionError: minutes must be 5 or 10
    """
    if not isinstance(data, Mapping):
        raise ActionError("the body must be a JSON object with an 'action' field")
    name = data.get("action")
    cls = ACTIONS.get(name) if isinstance(name, str) else None
    if cls is None:
        raise ActionError(f"unknown action {name!r}; one of: {', '.join(ACTIONS)}")
    known = {f.name for f in fields(cls)}
    unknown = set(data) - known - {"action"}
    if unknown:
        raise ActionError(f"{name}: unknown field(s) {', '.join(sorted(unknown))}")
    values = {k: v for k, v in data.items() if k != "action"}
    optional = {f.name for f in fields(cls) if f.default is None}
    for key, enum_type, message in _ENUM_FIELDS:
        if key in values and not (values[key] is None and key in optional):
            try:
                values[key] = enum_type(values[key])
            except ValueError:
                raise ActionError(message) from None
    try:
        action = cls(**values)
    except TypeError:
        required = [f.name for f in fields(cls)
                    if f.default is MISSING and f.default_factory is MISSING]
        raise ActionError(f"{name} needs: {', '.join(required)}") from None
    _check(action)
    return action


def _text(value: Any, what: str, allow_empty: bool = False) -> None:
    if not isinstance(value, str):
        raise ActionError(f"{what} must be text")
    if not allow_empty and not value.strip():
        raise ActionError(f"{what} must not be empty")
    if len(value) > MAX_TEXT:
        raise ActionError(f"{what} is longer than {MAX_TEXT} characters")
    control = next((c for c in value
                    if unicodedata.category(c) in ("Cc", "Zl", "Zp") or c in _BIDI_CONTROLS), None)
    if control is not None:
        raise ActionError(f"{what} holds a control character (U+{ord(control):04X}); "
                          "names, rounds and reasons are one line of plain text")
    blank = shows_nothing(value)
    if blank is not None:
        raise ActionError(f"{what} holds {blank[1]} (U+{ord(blank[0]):04X}); "
                          "names, rounds and reasons are one line of plain text")


def _count(value: Any, what: str, low: int, high: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ActionError(f"{what} must be a whole number from {low} to {high}")


def _check(action: RefereeAction) -> None:
    match action:
        case Acknowledge(alert=alert) | AcceptMove(alert=alert) | Dismiss(alert=alert):
            _count(alert, "alert", 1, 2**62)
        case CorrectMove(move=move, alert=alert):
            _text(move, "move")
            try:
                MoveText.parse(move)
            except ValueError as error:
                raise ActionError(str(error)) from None
            if alert is not None:
                _count(alert, "alert", 1, 2**62)
        case ChooseLine(alert=alert, line=line):
            _count(alert, "alert", 1, 2**62)
            if not isinstance(line, str) or not line.split() or len(line) > 4 * MAX_TEXT:
                raise ActionError("line must be the plies of one line, spaced")
            try:
                for text in line.split():
                    MoveText.parse(text)
            except ValueError as error:
                raise ActionError(str(error)) from None
        case TakeBack(plies=plies):
            _count(plies, "plies", 1, 1000)
        case SetResult(reason=reason):
            _text(reason, "reason")
        case NewGame(rules=rules, fen=fen, from_board=from_board, turn=turn):
            _start(from_board, fen, turn)
            if not isinstance(rules, dict):
                raise ActionError("rules must be a JSON object of rule settings")
            try:
                Rules.from_dict(rules)
            except (ValueError, TypeError) as error:
                raise ActionError(f"rules: {error}") from None
            if fen is not None:
                if not isinstance(fen, str) or len(fen) > MAX_FEN:
                    raise ActionError(f"fen must be a PDN FEN of at most {MAX_FEN} characters")
                try:
                    Position.from_fen(fen)
                except ValueError as error:
                    raise ActionError(f"fen: {error}") from None
        case SetPlayers(first=first, second=second, round=round_, games=games):
            _text(first, "first")
            _text(second, "second")
            _text(round_, "round", allow_empty=True)
            _count(games, "games", 1, 20)
        case GrantExtraTime(minutes=minutes):
            if minutes not in (5, 10) or isinstance(minutes, bool):
                raise ActionError("minutes must be 5 or 10")


def _start(from_board: Any, fen: Any, turn: Colour | None) -> None:
    """A new game starts from its rules' set-up, a FEN (which names the side to move), or the
    board (whose side to move the referee names): one of them, never two."""
    if not isinstance(from_board, bool):
        raise ActionError("from_board must be true or false")
    if from_board and fen is not None:
        raise ActionError("a new game starts from the board or from a FEN, not both")
    if from_board and turn is None:
        raise ActionError("a new game from the board needs turn: the side to move, 'dark' or 'light'")
    if not from_board and turn is not None:
        raise ActionError("turn goes with from_board; a FEN names the side to move itself")
