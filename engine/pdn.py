"""PDN, the Portable Draughts Notation, for Thai checkers (``[GameType "31"]``).

Writing gives full-path captures (``25x18x11``) or the Thai short form (``25x11``);
reading accepts both. An irregular ply that stood is written as the change (or ``--``
when no single move describes it) followed by a comment carrying the reason and the FEN of
the board after it, so a game with an irregularity round-trips::

    3. 18-22 {irregular: man moved backwards (18-22); FEN W:W1,2:B22,30}

An attempt the player took back (a man moved backwards, put back, then a legal move) is
written as a comment before the move that followed, in the record's numbering::

    3. 18-22 {corrected: 6-1 taken back; light man moved backwards (6-1)} 6-10

The time a player spent on a ply, when known, follows it as an elapsed-move-time comment in
the style PGN tools read (ChessBase, Lichess): ``12. 10x19 {[%emt 0:01:05]}``.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from .game import Game, IllegalMove, Outcome, Ply, Result
from .move import Move, MoveText
from .position import Position
from .rules import Colour, Rules

GAME_TYPE = "31"
_RESULTS = {"2-0": Outcome.LIGHT_WINS, "1-0": Outcome.LIGHT_WINS, "0-2": Outcome.DARK_WINS,
            "0-1": Outcome.DARK_WINS, "1-1": Outcome.DRAW, "1/2-1/2": Outcome.DRAW}
_RESULT_TEXT = {Outcome.LIGHT_WINS: "2-0", Outcome.DARK_WINS: "0-2", Outcome.DRAW: "1-1"}
_IRREGULAR = re.compile(r"^\s*irregular:\s*(?P<reason>.*?);\s*FEN\s+(?P<fen>\S+)\s*$", re.DOTALL)
_CORRECTED = re.compile(r"^\s*corrected:\s*(?P<move>\S+)\s+taken back;\s*(?P<reason>.*?)\s*$", re.DOTALL)
_MOVE_TIME = re.compile(r"\[%emt\s+(?P<h>\d+):(?P<m>[0-5]\d):(?P<s>[0-5]\d(?:\.\d+)?)\]")


class Numbering(str, enum.Enum):
    """Which side's squares are 25-32 in what is written (docs/RULES.md, "Numbering").

    The engine numbers squares by colour (dark on 25-32, moving toward 1), so that one
    frame serves every game; the rules number them by who moves first. The two differ only
    when light moves first, and then by a half turn of the board: square ``s`` is ``33 - s``.
    """

    FIRST_MOVER = "first mover"  # the rules': the first mover starts on 25-32 (default)
    COLOUR = "colour"  # the engine's: dark starts on 25-32 whoever moves first


#: Squares named in an irregular ply's reason: moves (``22-13``, ``2x9``) and lone squares
#: after the words that name one (``removed from 6``, ``added on 19``).
_SQUARES_IN_WORDS = re.compile(r"\d{1,2}(?:[-x]\d{1,2})+|(?<=\bfrom )\d{1,2}\b|(?<=\bon )\d{1,2}\b"
                               r"|(?<=\bto )\d{1,2}\b|(?<=\bat )\d{1,2}\b|(?<=\bsquare )\d{1,2}\b")


def in_words(convert: Callable[[str], str], reason: str) -> str:
    """``reason`` with every square it names converted (a :func:`renumbering`), so the
    comments of a record speak the numbering of its moves.

    >>> turn = renumbering(Rules(first_mover=Colour.LIGHT), Numbering.FIRST_MOVER)
    >>> in_words(turn, "dark man moved more than one square (22-13); light man removed from 6")
    'dark man moved more than one square (11-20); light man removed from 27'
    """
    return _SQUARES_IN_WORDS.sub(lambda m: convert(m.group()), reason)


def renumbering(rules: Rules, numbering: Numbering) -> Callable[[str], str]:
    """The one conversion between the engine's squares and the written ones, for a move or
    a FEN (it is its own inverse: a half turn twice is no turn).

    >>> turn = renumbering(Rules(first_mover=Colour.LIGHT), Numbering.FIRST_MOVER)
    >>> turn("9-13"), turn("W:W1,2:BK32")
    ('24-20', 'W:W32,31:BK1')
    """
    if numbering is Numbering.FIRST_MOVER and rules.first_mover is Colour.LIGHT:
        return lambda text: re.sub(r"\d+", lambda m: str(33 - int(m.group())), text)
    return lambda text: text

_TOKEN = re.compile(
    r"""(?P<space>\s+)
      | (?P<tag>\[\s*(?P<name>[A-Za-z0-9_]+)\s+"(?P<value>(?:[^"\\]|\\.)*)"\s*\])
      | (?P<comment>\{[^}]*\})
      | (?P<result>2-0|0-2|1-1|1/2-1/2|1-0|0-1|\*)(?![\dx-])
      | (?P<number>\d+\.(?:\.\.)?)
      | (?P<move>\d{1,2}(?:[-x]\d{1,2})+|--)(?:[!?]{0,2})
      | (?P<nag>\$\d+)
      | (?P<open>\()
      | (?P<close>\))
    """,
    re.VERBOSE,
)


class PdnError(ValueError):
    """Malformed or illegal PDN, with the line and column where reading stopped."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(f"line {line}, column {column}: {message}")
        self.line = line
        self.column = column


@dataclass(frozen=True)
class Correction:
    """An attempt taken back before a ply: its path (``6-1``, in the engine's squares) and
    the rule it broke, in a referee's words."""

    move: str
    reason: str

    def comment(self, written: Callable[[str], str]) -> str:
        reason = in_words(written, _comment_text(self.reason))
        return f"{{corrected: {written(self.move)} taken back; {reason}}}"


@dataclass
class PdnGame:
    """A game with its PDN tags (Event, White, Black, Round, ...)."""

    game: Game
    tags: dict[str, str] = field(default_factory=dict)
    move_seconds: list[float | None] = field(default_factory=list)  # per ply, from %emt
    #: The attempts taken back before each ply, by the ply's index (the game's length:
    #: after the last ply, before the result).
    corrections: dict[int, list[Correction]] = field(default_factory=dict)


# ---------------------------------------------------------------- writing


def write_game(game: Game, tags: dict[str, str] | None = None, short: bool = False,
               move_seconds: Sequence[float | None] = (),
               notes: dict[int, tuple[str, str]] | None = None,
               numbering: Numbering = Numbering.FIRST_MOVER,
               corrections: Mapping[int, Sequence[Correction]] | None = None) -> str:
    """The PDN text of one game. ``short`` writes captures in the Thai short form, except
    where two legal chains share their ends (then the full path, as the Thai rules say).
    ``move_seconds[i]``, when given and not None, is the time spent on ply ``i + 1``.
    ``notes`` maps a ply's index to a mark written after its move (``?``, ``??``, ``!`` or
    ``""``) and a comment written after it (an analysis: ``{-1.20, best 22-18}``).
    ``numbering``: the squares written; a game light starts says which in a tag.
    ``corrections[i]``: the attempts taken back before ply ``i + 1`` (``len(plies)``: after
    the last), each written as a ``{corrected: ...}`` comment."""
    written = renumbering(game.rules, numbering)
    tags = dict(tags or {})
    result = game.result()
    header = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": "?", "Black": "?"}
    header.update(tags)
    header["GameType"] = GAME_TYPE
    header["Result"] = _RESULT_TEXT[result.outcome] if result else "*"
    if result and "Termination" not in tags:
        header["Termination"] = result.reason
    if game.start != Position.start(Rules()):
        # Any start but the standard 8-man one with dark to move, so that a reader that knows
        # nothing of the Rules tag (12 men, a set-up of kings, light moving first) opens the
        # game at its position with the right side to move.
        header["SetUp"] = "1"
        header["FEN"] = written(game.start.fen())
    if game.rules != Rules():
        header["Rules"] = _rules_text(game.rules)
    if game.rules.first_mover is Colour.LIGHT:
        header["Numbering"] = numbering.value
    lines = [f'[{name} "{_escape(value)}"]' for name, value in header.items()]
    tokens = []
    corrections = corrections or {}
    for index, ply in enumerate(game.plies):
        if index % 2 == 0:
            tokens.append(f"{index // 2 + 1}.")
        tokens += [c.comment(written) for c in corrections.get(index, ())]
        if ply.move is None:
            tokens.append("--")
        elif short and not ply.is_irregular and _short_is_unambiguous(ply, game.rules):
            tokens.append(written(ply.move.short()))
        else:
            tokens.append(written(str(ply.move)))
        mark, comment = (notes or {}).get(index, ("", ""))
        tokens[-1] += mark
        if ply.irregularity is not None:
            reason = in_words(written, _comment_text(ply.irregularity))
            tokens.append(f"{{irregular: {reason}; FEN {written(ply.after.fen())}}}")
        seconds = move_seconds[index] if index < len(move_seconds) else None
        if seconds is not None:
            tokens.append(f"{{[%emt {_clock_text(seconds)}]}}")
        if comment:
            tokens.append("{" + comment.replace("{", "(").replace("}", ")") + "}")
    tokens += [c.comment(written) for c in corrections.get(len(game.plies), ())]
    tokens.append(header["Result"])
    return "\n".join(lines) + "\n\n" + _wrap(tokens) + "\n"


def _comment_text(reason: str) -> str:
    """A reason as the text of a comment that a ``;`` splits: no braces, no semicolons."""
    return reason.replace("{", "(").replace("}", ")").replace(";", ",")


def _clock_text(seconds: float) -> str:
    """``h:mm:ss``, to the whole second (a camera's move times are no finer than that)."""
    whole = max(0, round(seconds))
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


def _short_is_unambiguous(ply: Ply, rules: Rules) -> bool:
    """The Thai short form names one move only when no other legal move shares its ends."""
    assert ply.move is not None
    wanted = MoveText.parse(ply.move.short())
    return sum(wanted.matches(m) for m in ply.before.legal_moves(rules)) == 1


def write_games(games: list[PdnGame], short: bool = False) -> str:
    """Several games, one after the other, as in an event's PDN file."""
    return "\n".join(write_game(g.game, g.tags, short) for g in games)


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _escape(value: str) -> str:
    """A tag value as one line of text: control characters (a newline, NUL, ESC) become spaces,
    whatever a name came through."""
    return _CONTROL.sub(" ", value.replace("\\", "\\\\").replace('"', '\\"'))


def _wrap(tokens: list[str], width: int = 79) -> str:
    lines, line = [], ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > width:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    lines.append(line)
    return "\n".join(lines)


def _rules_text(rules: Rules) -> str:
    default = Rules().to_dict()
    parts = []
    for key, value in rules.to_dict().items():
        if value != default[key]:
            text = ",".join(value) if isinstance(value, list) else str(value).lower()
            parts.append(f"{key}={text}")
    return ";".join(parts)


def _parse_rules(text: str) -> Rules:
    settings: dict[str, object] = {}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        key, _, value = part.partition("=")
        key = key.strip()
        if key in ("men_per_side", "golden_board", "repetition_threshold", "count_rule_moves"):
            settings[key] = int(value)
        elif key == "count_on_claim":
            settings[key] = value.strip() == "true"
        elif key == "forced_opening":
            settings[key] = tuple(filter(None, value.split(",")))
        else:
            settings[key] = value.strip()
    return Rules.from_dict(settings)


# ---------------------------------------------------------------- reading


def read_games(text: str) -> list[PdnGame]:
    """Every game in a PDN text. Raises PdnError on malformed or illegal input."""
    reader = _Reader(text)
    games = []
    while reader.more():
        games.append(reader.game())
    return games


def read_game(text: str) -> PdnGame:
    """The single game of a PDN text."""
    games = read_games(text)
    if len(games) != 1:
        raise PdnError(f"expected one game, found {len(games)}", 1, 1)
    return games[0]


def _described(parsed: MoveText, game: Game, after: Position) -> Move:
    """The move an irregular ply's text names: the legal move it names where that move
    leaves the board the comment gives, else its path as written, with the pieces the change
    took (one a landing) and a crowning where a man ended its path as a king."""
    before = game.position
    for move in before.legal_moves(game.rules):
        if parsed.matches(move) and before.play(move).board == after.board:
            return move
    path = parsed.path(before.taken_by(after, parsed.squares[0]))
    moved, landed = before.piece_at(path.start), after.piece_at(path.path[-1])
    crowned = moved is not None and not moved.is_king and landed is not None and landed.is_king
    return replace(path, crowns=crowned)


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0
        self._read: Callable[[str], str] = renumbering(Rules(), Numbering.FIRST_MOVER)

    def _where(self, offset: int) -> tuple[int, int]:
        line = self.text.count("\n", 0, offset) + 1
        column = offset - (self.text.rfind("\n", 0, offset) + 1) + 1
        return line, column

    def _error(self, message: str, offset: int) -> PdnError:
        return PdnError(message, *self._where(offset))

    def _next(self) -> re.Match[str] | None:
        while self.at < len(self.text):
            match = _TOKEN.match(self.text, self.at)
            if not match:
                snippet = self.text[self.at:self.at + 12].split("\n")[0]
                raise self._error(f"unexpected text {snippet!r}", self.at)
            self.at = match.end()
            if match.lastgroup != "space":
                return match
        return None

    def _peek(self) -> re.Match[str] | None:
        saved = self.at
        token = self._next()
        self.at = saved
        return token

    def more(self) -> bool:
        return self._peek() is not None

    def game(self) -> PdnGame:
        tags: dict[str, str] = {}
        token = self._peek()
        while token is not None and token.lastgroup == "tag":
            self._next()
            tags[token.group("name")] = re.sub(r"\\(.)", r"\1", token.group("value"))
            token = self._peek()
        start_offset = token.start() if token else len(self.text)
        if tags.get("GameType", GAME_TYPE).split(",")[0].strip() != GAME_TYPE:
            raise self._error(f"GameType {tags['GameType']} is not Thai checkers (31)", start_offset)
        try:
            rules = _parse_rules(tags["Rules"]) if "Rules" in tags else Rules()
            # Untagged: written before the numbering was a setting, in the engine's frame.
            self._read = renumbering(rules, Numbering(tags.get("Numbering", Numbering.COLOUR)))
            start = Position.from_fen(self._read(tags["FEN"])) if "FEN" in tags else None
        except ValueError as error:
            raise self._error(str(error), start_offset) from None
        game = Game(rules, start)
        seconds: list[float | None] = []
        corrections: dict[int, list[Correction]] = {}
        while True:
            token = self._next()
            if token is None:
                break
            kind = token.lastgroup
            corrected = _CORRECTED.match(token.group()[1:-1]) if kind == "comment" else None
            if corrected:
                corrections.setdefault(len(game.plies), []).append(Correction(
                    self._read(corrected["move"]), in_words(self._read, corrected["reason"])))
            elif kind == "comment" and game.plies:
                spent = _MOVE_TIME.search(token.group())
                if spent:
                    seconds += [None] * (len(game.plies) - len(seconds))
                    seconds[len(game.plies) - 1] = (int(spent["h"]) * 3600 + int(spent["m"]) * 60
                                                    + float(spent["s"]))
            if kind == "result":
                self._finish(game, tags, token)
                break
            if kind == "tag":
                raise self._error("tag inside the moves (missing result token?)", token.start())
            if kind == "move":
                self._play(game, token)
            elif kind == "open":
                self._skip_variation(token)
            elif kind == "close":
                raise self._error("')' without '('", token.start())
        if seconds:
            seconds += [None] * (len(game.plies) - len(seconds))
        return PdnGame(game, tags, seconds, corrections)

    def _play(self, game: Game, token: re.Match[str]) -> None:
        text = self._read(token.group("move"))
        comment = self._peek()
        irregular = None
        if comment is not None and comment.lastgroup == "comment":
            irregular = _IRREGULAR.match(comment.group()[1:-1])
        if irregular:
            self._next()
            try:
                after = Position.from_fen(self._read(irregular.group("fen")))
                move = None if text == "--" else _described(MoveText.parse(text), game, after)
            except ValueError as error:
                assert comment is not None
                raise self._error(str(error), comment.start()) from None
            game.play_irregular(after, in_words(self._read, irregular.group("reason")), move)
            return
        if text == "--":
            raise self._error("'--' must be followed by an {irregular: ...; FEN ...} comment",
                              token.start())
        try:
            game.play_text(text)
        except IllegalMove as error:
            raise self._error(str(error), token.start()) from None
        except ValueError as error:
            raise self._error(str(error), token.start()) from None

    def _skip_variation(self, opening: re.Match[str]) -> None:
        depth = 1
        while depth:
            token = self._next()
            if token is None:
                raise self._error("variation '(' never closed", opening.start())
            depth += {"open": 1, "close": -1}.get(token.lastgroup or "", 0)

    def _finish(self, game: Game, tags: dict[str, str], token: re.Match[str]) -> None:
        text = token.group("result")
        if text == "*":
            return
        outcome = _RESULTS[text]
        found = game.result()
        if found is None:
            game.declare(Result(outcome, tags.get("Termination", "declared")))
        elif found.outcome is not outcome:
            raise self._error(f"result {text} contradicts the game ({found.reason})", token.start())

