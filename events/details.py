"""The event contract: each kind of event, and the typed facts that its ``detail`` carries.

Readers branch on these facts (the replay in :mod:`events.game`, the pages, the
benches), so they are frozen dataclasses with enums and :class:`engine.Colour`, not loose
dicts. On disk a detail is a JSON object keyed by the field names; a field at its default
is left out, so a log stays small and an older log, which lacks a newer field, reads with
the default. A detail that does not read (a wrong type, a value outside its enum) becomes
:class:`Unreadable`: every reader skips it and the log keeps it as it was.

How to extend the contract:

- a new fact about an existing kind: a field with a default (``None``, ``False``, ``()``),
  at the end of its dataclass;
- a new value of a closed set: a member of its enum (:class:`IrregularityKind`,
  :class:`ClockLevel`, :class:`CameraStatus`, :class:`AlertEnding`);
- a new kind: a member of :class:`EventKind` and a dataclass ``class X(Detail)`` with
  ``kind: ClassVar[EventKind] = EventKind.NEW``; defining it registers it, and the replay
  ignores kinds it has no rule for.
"""

from __future__ import annotations

import enum
import types
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar, Mapping, TypeVar, Union, get_args, get_origin, get_type_hints

from makhos.engine import Rules
from makhos.engine.game import Outcome


class EventKind(str, enum.Enum):
    GAME_STARTED = "game_started"  # fen: the start
    MOVE = "move"  # move, fen after, side; an irregular ply that stood has ``reason``
    IRREGULARITY = "irregularity"  # reason, side; fen: the irregular board, when one
    ALERT_CLOSED = "alert_closed"  # how an alert ended; reason: the alert's
    TAKEBACK = "takeback"  # the board went back some plies
    CROWNING_PENDING = "crowning_pending"  # a man reached the far row, not stacked yet
    CROWNED = "crowned"  # the new king is stacked: the board shows it
    BOARD_MISMATCH = "board_mismatch"  # no move explains the board; fen: the board seen
    BOARD_MATCHED = "board_matched"  # the board agrees with the game again
    CLOCK = "clock"  # a per-move clock signal for the side to move
    RESULT = "result"  # the game ended; reason
    CAMERA = "camera"  # the camera went away or came back
    REFEREE = "referee"  # a referee's decision (events.decisions)
    READER_ADAPTED = "reader_adapted"  # the square reader refit on this board's start


#: Kinds kept in the log for a worker taken up mid-game, never held by the server: a
#: reader's lesson is tens of kB a ply, and no page draws anything from it.
WORKER_ONLY: frozenset[EventKind] = frozenset({EventKind.READER_ADAPTED})


class IrregularityKind(str, enum.Enum):
    """What rule an irregularity broke: the catalogue of docs/RULES.md, "Irregularities".

    The engine's verdicts (:class:`engine.changes.Verdict`) and faults
    (:class:`engine.changes.Fault`) share their values, so ``IrregularityKind(x.value)``
    names an explained change.
    """

    MISSED_CAPTURE = "missed capture"
    PARTIAL_CHAIN = "partial chain"  # a capture chain stopped early
    TWO_PLIES = "two plies"
    WRONG_SIDE = "wrong side"
    TOO_FAR = "too far"
    SIDEWAYS = "sideways"
    BACKWARDS = "backwards"
    OWN_PIECE_JUMPED = "own piece jumped"
    FALSE_CAPTURE = "false capture"
    KING_BEYOND = "king beyond"
    PIECE_ADDED = "piece added"
    PIECE_REMOVED = "piece removed"
    IMPOSSIBLE = "impossible position"
    POSITION_CHANGED = "position changed"
    FORCED_OPENING = "forced opening"  # a deviation from the prescribed first moves
    CROWNING = "crowning"  # the opponent moved without stacking a new king
    GAP = "gap"  # plies unseen during a gap that several legal lines explain
    ILLEGAL = "illegal"  # no legal move explains the change (logs before the catalogue)


class AlertEnding(str, enum.Enum):
    """How an alert closed without a referee."""

    CORRECTED = "corrected"  # the board went back to the game's position
    STOOD = "stood"  # the opponent played on: the irregular change stands
    CHAIN_FINISHED = "chain finished"  # the capture chain went on after all


class ClockLevel(str, enum.Enum):
    YELLOW = "yellow"  # a warning (1:30 and 1:50 by default)
    RED = "red"  # the move's time is up


class CameraStatus(str, enum.Enum):
    LOST = "lost"  # no frame for a while: the worker reopens the source
    BACK = "back"  # frames again
    ENDED = "ended"  # a recording played to its end: no frame will come
    UNREADABLE = "unreadable"  # frames come, but none has read the board for a while in a game
    READABLE = "readable"  # the board is read again
    OPENED = "opened"  # a worker took up its source (started or restarted): which recording
    RELIT = "relit"  # the light on the board changed: its reads moved, no move is recorded of them


D = TypeVar("D", bound="Detail")


class Detail:
    """Base of every detail: ``kind`` is the event kind it belongs to."""

    __slots__ = ()
    kind: ClassVar[EventKind]
    _by_kind: ClassVar[dict[EventKind, type[Detail]]] = {}

    def __init_subclass__(cls, **options: Any) -> None:
        super().__init_subclass__(**options)
        if "kind" in cls.__dict__:  # a kind's own class; its subclasses (actions) share it
            Detail._by_kind[cls.__dict__["kind"]] = cls

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of the detail: every field away from its default."""
        out = {}
        for f in fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            if f.default is MISSING or value != f.default:
                out[f.name] = json_value(value)
        return out

    @classmethod
    def from_dict(cls: type[D], data: Mapping[str, Any]) -> D:
        """Read a detail written by :meth:`to_dict`; ValueError when a field does not fit.

        Unknown keys are ignored: a newer writer may know facts this reader does not.
        """
        hints = _hints(cls)
        values = {}
        for f in fields(cls):  # type: ignore[arg-type]
            if f.name in data:
                values[f.name] = _read(data[f.name], hints[f.name], f.name)
            elif f.default is MISSING:
                raise ValueError(f"{cls.__name__} needs {f.name}")
        return cls(**values)


def detail_type(kind: EventKind) -> type[Detail]:
    """The detail class of an event kind."""
    return Detail._by_kind[kind]


def read_detail(kind: EventKind, data: Any) -> Detail:
    """The detail of a stored event; :class:`Unreadable` when it does not fit its kind."""
    if not isinstance(data, dict):
        return Unreadable(kind, {}, "the detail is not a JSON object")
    try:
        return detail_type(kind).from_dict(data)
    except (ValueError, TypeError, KeyError) as error:
        return Unreadable(kind, dict(data), str(error))


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    """The resolved field types of a detail class (resolving them is slow: once per class)."""
    if cls not in _HINTS:
        _HINTS[cls] = get_type_hints(cls)
    return _HINTS[cls]


def json_value(value: Any) -> Any:
    """A field's value as JSON sees it."""
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple):
        return [json_value(v) for v in value]
    if isinstance(value, Rules):
        return value.to_dict()
    return value


def _read(value: Any, hint: Any, name: str) -> Any:
    """A JSON value checked and converted to the field's type."""
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        options = get_args(hint)
        if value is None and type(None) in options:
            return None
        (inner,) = [o for o in options if o is not type(None)]
        return _read(value, inner, name)
    if origin is tuple:
        if not isinstance(value, list):
            raise ValueError(f"{name} must be a list")
        return tuple(_read(v, get_args(hint)[0], name) for v in value)
    if origin is dict or hint is Any:
        return value
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint(value)
    if hint is Rules:
        if not isinstance(value, dict):
            raise ValueError(f"{name} must be an object of rule settings")
        return Rules.from_dict(value)
    if hint is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if hint in (int, float, str, bool) and type(value) is not hint:
        raise ValueError(f"{name} must be {hint.__name__}, not {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class Unreadable(Detail):
    """A stored detail that does not fit its kind: kept as it was, skipped by readers."""

    of: EventKind
    data: dict[str, Any]
    error: str

    def to_dict(self) -> dict[str, Any]:
        return dict(self.data)


@dataclass(frozen=True, slots=True)
class GameStarted(Detail):
    kind: ClassVar[EventKind] = EventKind.GAME_STARTED
    rules: Rules | None = None  # None: the reader's own rules
    turn_named: bool = False  # the referee named the side to move: only that side moves first


@dataclass(frozen=True, slots=True)
class MovePlayed(Detail):
    kind: ClassVar[EventKind] = EventKind.MOVE
    captured: tuple[int, ...] = ()  # the squares jumped, in order
    irregular: bool = False  # a change that broke a rule and stood (``reason`` says which)
    ambiguous: tuple[str, ...] = ()  # moves that leave the same board: the path is a guess
    gap: float | None = None  # seen only after a gap of this many seconds (no move time)
    unconfirmed: bool = False  # after a gap, the likeliest of several lines, not decided
    stood_for: int | None = None  # ... standing as play went on: the seq of the gap notice


@dataclass(frozen=True, slots=True)
class Irregularity(Detail):
    kind: ClassVar[EventKind] = EventKind.IRREGULARITY
    rule: IrregularityKind | None = None
    open: bool = True  # False: a notice that passes with the next move, not an alert
    missed: tuple[str, ...] = ()  # the captures that were compulsory
    lines: tuple[str, ...] = ()  # GAP: the legal lines that explain the board, plies spaced
    gap: float | None = None  # GAP: seconds the board was unseen


@dataclass(frozen=True, slots=True)
class AlertClosed(Detail):
    kind: ClassVar[EventKind] = EventKind.ALERT_CLOSED
    how: AlertEnding | None = None
    alert: int | None = None  # the seq of the alert; None: the open irregularity


@dataclass(frozen=True, slots=True)
class Takeback(Detail):
    kind: ClassVar[EventKind] = EventKind.TAKEBACK
    plies: int = 1


@dataclass(frozen=True, slots=True)
class CrowningPending(Detail):
    kind: ClassVar[EventKind] = EventKind.CROWNING_PENDING
    square: int  # where the new king stands, still a single man


@dataclass(frozen=True, slots=True)
class Crowned(Detail):
    kind: ClassVar[EventKind] = EventKind.CROWNED
    square: int  # the new king, now two men stacked


@dataclass(frozen=True, slots=True)
class BoardMismatch(Detail):
    kind: ClassVar[EventKind] = EventKind.BOARD_MISMATCH
    squares: tuple[int, ...] = ()  # where the board differs from the game
    rule: IrregularityKind | None = None  # the catalogue's name for it; None in older logs


@dataclass(frozen=True, slots=True)
class BoardMatched(Detail):
    kind: ClassVar[EventKind] = EventKind.BOARD_MATCHED


@dataclass(frozen=True, slots=True)
class ClockSignal(Detail):
    kind: ClassVar[EventKind] = EventKind.CLOCK
    level: ClockLevel
    seconds: float  # the mark reached, extra time included


@dataclass(frozen=True, slots=True)
class GameOver(Detail):
    kind: ClassVar[EventKind] = EventKind.RESULT
    outcome: Outcome


@dataclass(frozen=True, slots=True)
class CameraNotice(Detail):
    kind: ClassVar[EventKind] = EventKind.CAMERA
    status: CameraStatus
    # With OPENED: the recording taken up (``vision.sources.identity``; None for a camera,
    # whose frames carry the wall clock), and the log's time of its second 0. Only the
    # recording the log's last plies were read from is taken up where the log ends
    # (worker.takeup); any other source from its start.
    recording: str | None = None
    origin: float = 0.0


@dataclass(frozen=True, slots=True)
class ReaderAdapted(Detail):
    """The square reader's refit on the start position (``vision.squares.StartAdapting``),
    or again on a position the game accepted (``GameLearning``, #42), kept with the game so
    a worker restarted mid-game reads as it did: the last of a game is the one in force. The replay has no
    rule for it: it changes what the camera sees, not the game."""

    kind: ClassVar[EventKind] = EventKind.READER_ADAPTED
    adaptation: str  # the reader's own JSON
