"""PDN written by the project, read back by a reader the project's reader shares nothing with.

``GrammarReader`` reads PDN by the published format alone, not by :mod:`engine.pdn`: tag
pairs, move numbers (``12.`` and ``12...``), moves (``22-18``, ``25x18x11``), the null move
``--`` (PGN's, for a change no move describes), comments (``{...}`` and ``;`` to the end of
the line), NAGs (``$3``), move strengths (``!``, ``?``), variations (skipped) and results;
FEN as PDN defines it (``B:W18,24,K10:B12,16-20``, the side to move first). It has no rules
engine: it places the pieces of a move by the board's geometry (the path's first square to
its last; a capture written square by square removes the one piece each leg passes over; a
man that ends its move on the far row in the direction it went is crowned), and after an
irregular ply's ``{irregular: ...; FEN ...}`` comment (engine/pdn.py's convention) the
board is that FEN; a ``{corrected: 6-1 taken back; ...}`` comment (the other) is kept with
the ply it comes before. So where the two readers agree on every position of a game, the moves
the project writes mean on any 8x8 board what the engine played.

``random_games`` makes the games such a check writes: random legal plies from every start
the rules name (8 and 12 men, the special events' kings, the golden boards, light moving
first, a random legal position), some irregular plies (a piece moved anywhere, a piece
taken away, a plain move while a capture was due) described as the tracker describes them,
attempts taken back before some plies, declared results, move times, tags with Thai names.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from makhos.engine import Colour, Position, Rules
from makhos.engine.changes import describe_change
from makhos.engine.game import Game, Outcome, Result
from makhos.engine.move import MoveText
from makhos.engine.pdn import Correction, Numbering, read_games, renumbering, write_game
from makhos.engine.position import Piece
from makhos.engine.rules import Setup

#: What a board is to the grammar reader: square to ``w``/``W``/``b``/``B`` (king in capitals).
Board = dict[int, str]

_TOKEN = re.compile(
    r"""(?P<space>\s+)
      | (?P<tag>\[\s*(?P<name>\w+)\s+"(?P<value>(?:[^"\\]|\\.)*)"\s*\])
      | \{(?P<comment>[^}]*)\}
      | ;(?P<line>[^\n]*)
      | (?P<result>2-0|0-2|1-1|0-0|1-0|0-1|1/2-1/2|\*)(?=\s|$)
      | (?P<number>\d+\.(?:\.\.)?)
      | (?P<move>\d+(?:[-x]\d+)+|--)[!?]*
      | (?P<nag>\$\d+)
      | (?P<open>\() | (?P<close>\))
    """, re.VERBOSE)


@dataclass
class ReadGame:
    """One game as the grammar reader saw it: tags, the move tokens, the boards (the start,
    then one after each move, each with the side to move) and the result token."""

    tags: dict[str, str] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)
    boards: list[tuple[str, Board]] = field(default_factory=list)
    result: str = "*"
    corrections: list[tuple[int, str]] = field(default_factory=list)  # (ply index, attempt)


def read_fen(text: str) -> tuple[str, Board]:
    """PDN's FEN: the side to move (``W``/``B``), then each colour's squares."""
    turn, *sides = text.strip().rstrip(".").split(":")
    if turn not in ("W", "B"):
        raise ValueError(f"FEN {text!r}: the side to move is W or B")
    board: Board = {}
    for side in sides:
        colour = side[:1].lower()
        if colour not in ("w", "b"):
            raise ValueError(f"FEN {text!r}: a side is W or B")
        for item in filter(None, side[1:].split(",")):
            king = item.startswith("K")
            first, _, last = item.lstrip("K").partition("-")
            for square in range(int(first), int(last or first) + 1):
                board[square] = colour.upper() if king else colour
    return turn, board


def _cell(square: int) -> tuple[int, int]:
    """Row and column on the 8x8 grid: four squares a row, the first row's from column 1."""
    row, index = divmod(square - 1, 4)
    return row, 2 * index + (1 - row % 2)


_SQUARE = {_cell(s): s for s in range(1, 33)}


def _play(board: Board, turn: str, text: str) -> Board:
    """The board after a move written as ``text``, by geometry alone."""
    path = [int(s) for s in re.split(r"[-x]", text)]
    board = dict(board)
    piece = board.pop(path[0], "")
    if piece.lower() != turn.lower():
        raise ValueError(f"{text}: square {path[0]} holds the side not to move")
    for start, end in zip(path, path[1:]):
        (r0, c0), (r1, c1) = _cell(start), _cell(end)
        if abs(r1 - r0) != abs(c1 - c0) or r0 == r1:
            raise ValueError(f"{text}: {start} and {end} are not on one diagonal")
        if "x" in text:
            dr, dc = (r1 > r0) - (r1 < r0), (c1 > c0) - (c1 < c0)
            over = [_SQUARE[r0 + k * dr, c0 + k * dc] for k in range(1, abs(r1 - r0))]
            taken = [s for s in over if s in board]
            if len(taken) != 1 or board[taken[0]].lower() == turn.lower():
                raise ValueError(f"{text}: the leg {start}x{end} passes over no single opposing piece")
            del board[taken[0]]
    row_went = _cell(path[1])[0] - _cell(path[0])[0]
    end_row = _cell(path[-1])[0]
    crowned = piece.islower() and end_row == (0 if row_went < 0 else 7)
    board[path[-1]] = piece.upper() if crowned else piece
    return board


class GrammarReader:
    """Every game of a PDN text, read by the format's grammar (see the module's doc)."""

    def __init__(self, text: str) -> None:
        self.games: list[ReadGame] = []
        game: ReadGame | None = None
        depth = 0
        at = 0
        unplayable: str | None = None  # a move no board geometry plays: an irregular FEN must follow
        while at < len(text):
            token = _TOKEN.match(text, at)
            if token is None:
                raise ValueError(f"offset {at}: unexpected {text[at:at + 12]!r}")
            at = token.end()
            kind = token.lastgroup
            if kind == "space" or kind == "line":
                continue
            if unplayable and kind != "comment":
                raise ValueError(unplayable)
            if depth and kind not in ("open", "close"):
                continue  # inside a variation
            if kind == "tag":
                if game is None or game.moves or game.boards:
                    game = ReadGame()
                    self.games.append(game)
                game.tags[token["name"]] = re.sub(r"\\(.)", r"\1", token["value"])
                continue
            if game is None:
                game = ReadGame()
                self.games.append(game)
            if not game.boards:
                game.boards.append(read_fen(game.tags["FEN"]) if "FEN" in game.tags
                                   else read_fen("B:W1-8:B25-32"))
            if kind == "open":
                depth += 1
            elif kind == "close":
                depth -= 1
            elif kind == "move":
                turn, board = game.boards[-1]
                game.moves.append(token["move"])
                after = board
                try:
                    after = board if token["move"] == "--" else _play(board, turn, token["move"])
                except ValueError as error:
                    unplayable = str(error)
                game.boards.append(("W" if turn == "B" else "B", after))
            elif kind == "comment":
                irregular = re.match(r"\s*irregular:.*;\s*FEN\s+(\S+)\s*$", token["comment"], re.S)
                corrected = re.match(r"\s*corrected:\s*(\S+)\s+taken back;", token["comment"])
                if corrected:
                    game.corrections.append((len(game.moves), corrected[1]))
                elif irregular and game.moves:
                    game.boards[-1] = read_fen(irregular[1])
                    unplayable = None
            elif kind == "result":
                game.result = token["result"]
                game = None


def written_board(position: Position, written: Callable[[str], str]) -> tuple[str, Board]:
    """An engine position as the grammar reader holds it, in the written numbering."""
    board = {int(written(str(square))): ("W" if piece.colour is Colour.LIGHT else "B")
             if piece.is_king else ("w" if piece.colour is Colour.LIGHT else "b")
             for square, piece in position.pieces().items()}
    return position.turn.pdn, board


# ---------------------------------------------------------------- random games


@dataclass
class RandomGame:
    """A game to write: the game, its tags, the numbering written and each ply's time."""

    game: Game
    tags: dict[str, str]
    numbering: Numbering
    seconds: list[float | None]
    corrections: dict[int, list[Correction]] = field(default_factory=dict)

    def pdn(self) -> str:
        return write_game(self.game, self.tags, move_seconds=self.seconds, numbering=self.numbering,
                          corrections=self.corrections)


_NAMES = ["Somchai", "Malee", "Anan", "Dao", "สมชาย", "มาลี", 'Lek "the wall"', "O'Neil, Pat"]
_STARTS = [Rules(), Rules(first_mover=Colour.LIGHT), Rules(men_per_side=12),
           Rules(men_per_side=12, first_mover=Colour.LIGHT),
           Rules(setup=Setup.ONE_KING), Rules(setup=Setup.TWO_KINGS), Rules(setup=Setup.THREE_KINGS),
           Rules(setup=Setup.GOLDEN, golden_board=3)]


def random_position(rng: random.Random) -> Position:
    """A position some game may reach: up to 8 pieces a side, no man on its crowning row,
    the side to move with a move."""
    while True:
        squares = rng.sample(range(1, 33), rng.randint(3, 14))
        pieces = {}
        for index, square in enumerate(squares):
            colour = Colour.DARK if index % 2 else Colour.LIGHT
            crowning = range(1, 5) if colour is Colour.DARK else range(29, 33)
            pieces[square] = Piece.of(colour, square in crowning or rng.random() < 0.2)
        position = Position.from_pieces(pieces, rng.choice(list(Colour)))
        if position.legal_moves():
            return position


def _attempt(game: Game, rng: random.Random) -> Correction | None:
    """A man or king of the side to move put on an empty square against the rules and taken
    back, as the tracker names it; None when the change is no step of one piece."""
    before = game.position
    pieces = before.pieces()
    start = rng.choice([s for s, p in pieces.items() if p.colour is before.turn])
    moved = dict(pieces)
    moved[rng.choice([s for s in range(1, 33) if s not in pieces])] = moved.pop(start)
    change = describe_change(before, Position.from_pieces(moved, before.turn.opponent), game.start)
    return Correction(change.move, change.reason) if change.move else None


def _irregular(game: Game, rng: random.Random) -> bool:
    """Play one irregular ply (as the tracker describes it) on ``game``; False if none fits."""
    before = game.position
    pieces = before.pieces()
    kind = rng.choice(["moved", "removed", "missed"])
    if kind == "missed":
        if not before.has_capture():
            return False
        plain = before.plain_moves()
        if not plain:
            return False
        move = rng.choice(plain)
        due = ", ".join(map(str, before.legal_moves(game.rules)))
        game.play_irregular(before.play(move), f"{before.turn.value} played {move} while a capture "
                            f"was compulsory ({due})", move)
        return True
    own = [s for s, p in pieces.items() if p.colour is before.turn]
    if kind == "moved":
        start = rng.choice(own)
        end = rng.choice([s for s in range(1, 33) if s not in pieces])
        moved = dict(pieces)
        moved[end] = moved.pop(start)
        after = Position.from_pieces(moved, before.turn.opponent)
    else:
        square = rng.choice(list(pieces))
        after = Position.from_pieces({s: p for s, p in pieces.items() if s != square},
                                     rng.choice(list(Colour)))
    change = describe_change(before, after, game.start)
    path = MoveText.parse(change.move).path(before.taken_by(after)) if change.move else None
    game.play_irregular(after, change.reason, path)
    return True


def random_game(rng: random.Random) -> RandomGame:
    """One game: a start (the standard one about a third of the time), up to 80 plies (about one in twelve irregular), maybe a declared
    result; the tags an event gives."""
    draw = rng.random()
    if draw < 0.25:
        game = Game(Rules(), random_position(rng))
    else:
        game = Game(Rules() if draw < 0.6 else rng.choice(_STARTS[1:]))
    corrections: dict[int, list[Correction]] = {}
    for _ in range(rng.randint(0, 80)):
        if game.result() is not None:
            break
        if rng.random() < 0.05 and (attempt := _attempt(game, rng)) is not None:
            corrections.setdefault(len(game.plies), []).append(attempt)
        if rng.random() < 0.08 and _irregular(game, rng):
            continue
        moves = game.legal_moves()
        if not moves:
            break
        game.play(rng.choice(moves))
    if game.result() is None and rng.random() < 0.15:
        game.declare(Result(rng.choice(list(Outcome)), "agreed"))
    white, black = rng.sample(_NAMES, 2)
    tags = {"Event": "PEA Open", "Site": "Bangkok, Thailand", "Date": f"2026.{rng.randint(1, 12):02d}.07",
            "Round": str(rng.randint(1, 9)), "White": white, "Black": black}
    seconds = [rng.choice([None, rng.uniform(0, 200)]) for _ in game.plies]
    return RandomGame(game, tags, rng.choice(list(Numbering)), seconds, corrections)


# ---------------------------------------------------------------- the check


def disagreements(games: list[RandomGame]) -> list[str]:
    """Write ``games`` as one event's PDN, read it back with the project's reader and with
    the grammar reader, and say every way either differs from what was played: the moves
    (as written), every position, the irregular plies and their reasons, the result, the
    tags. Empty when both readers give back the games."""
    text = "\n".join(g.pdn() for g in games)
    ours, theirs = read_games(text), GrammarReader(text).games
    found = []
    if len(ours) != len(games) or len(theirs) != len(games):
        return [f"{len(games)} games written, {len(ours)} read by the project, {len(theirs)} by the grammar"]
    for number, (made, mine, other) in enumerate(zip(games, ours, theirs), start=1):
        game = made.game
        written = renumbering(game.rules, made.numbering)
        where = f"game {number} (from {written(game.start.fen())})"
        # The project's reader: the same game, ply for ply.
        if mine.game.positions() != game.positions():
            found.append(f"{where}: the project's reader gives other positions")
        if [p.move for p in mine.game.plies] != [p.move for p in game.plies]:
            found.append(f"{where}: the project's reader gives other moves")
        reasons = [p.irregularity and p.irregularity.replace(";", ",") for p in game.plies]
        if [p.irregularity for p in mine.game.plies] != reasons:  # a reason's ';' is written ','
            found.append(f"{where}: the project's reader gives other irregular plies")
        if mine.game.result() != game.result():
            found.append(f"{where}: the project's reader gives another result")
        if mine.corrections != made.corrections:
            found.append(f"{where}: the project's reader gives other corrections")
        # The grammar reader: the moves as written, every board, the tags.
        if other.moves != [written(str(p.move)) if p.move else "--" for p in game.plies]:
            found.append(f"{where}: the grammar reader gives other moves")
        for index, (position, board) in enumerate(zip(game.positions(), other.boards, strict=True)):
            if written_board(position, written) != board:
                found.append(f"{where}: the grammar reader's board after ply {index} differs")
                break
        attempts = [(index, written(c.move)) for index, cs in sorted(made.corrections.items()) for c in cs]
        if other.corrections != attempts:
            found.append(f"{where}: the grammar reader gives other corrections")
        if len(other.boards) != len(game.plies) + 1:
            found.append(f"{where}: the grammar reader has {len(other.boards)} boards")
        if other.result != mine.tags["Result"]:
            found.append(f"{where}: the grammar reader's result {other.result} is not the Result tag")
        tags = {**made.tags, "GameType": "31"}
        if game.start != Position.start(Rules()):
            tags |= {"SetUp": "1", "FEN": written(game.start.fen())}
        if any(other.tags.get(k) != v for k, v in tags.items()) or other.tags != mine.tags:
            found.append(f"{where}: the tags differ")
    return found
