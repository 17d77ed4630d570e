"""Real whole games, labelled by hand, made into videos and scored move by move.

The time-ordered webcam frames of ``julie-robot-webcam/**/More`` (``../shared/realdata``,
never in the repository) are real games between a robot and a person, played under rules
that are not Thai: some of their plies are irregular here, which is the point, the game
must go on. Every settled position was written down by eye (``bench/realgames.json``,
32 labels in square order as :func:`lab.realdata.julie_labels` numbers them; a king is
upper case from its crowning on, though these men are never stacked). A position no photo
shows (a photo the project did not keep) stands in the truth with ``photo: null``.

:func:`game_video` holds each photo ~2 s, with a hand crossing the board between photos
(drawn over the real picture: the board, pieces and light are the world's) and every third
change a plain cross-fade. The frames begin in mid-game, so the referee sets the first
position up by FEN (:func:`referee_start`), as a referee at the board would, and
``makhos record --resume`` takes it up. :func:`score` compares the recorded plies with the
true ones.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from makhos.cli.main import main as makhos
from makhos.engine import Colour, Position, Rules
from makhos.engine.pdn import read_game
from makhos.engine.position import Piece
from makhos.events import GameEvent, JSONLinesLog
from makhos.events.decisions import parse_action

from .realdata import JULIE, JULIE_CORNERS, ROOT, RealPhoto, grid_of

LABELS = Path(__file__).resolve().parents[1] / "bench" / "realgames.json"
BOARD = "1"  # `makhos record`'s board when no --board is given
FPS = 15.0
HOLD_S = 2.0  # a settled board, seconds
CHANGE_S = 1.0  # a hand over the board, or a cross-fade, seconds
SIZE = (640, 480)  # the video's frame: a webcam's, a half of the photos'
PIECES = {"l": Piece.LIGHT_MAN, "L": Piece.LIGHT_KING, "d": Piece.DARK_MAN, "D": Piece.DARK_KING}


@dataclass(frozen=True)
class Step:
    """One position of a true game: the photo that shows it (None: no photo kept) and its
    32 labels in square order ('.', 'l', 'd', 'L', 'D')."""

    photo: str | None
    labels: str

    @property
    def pieces(self) -> dict[int, Piece]:
        return {s: PIECES[c] for s, c in enumerate(self.labels, start=1) if c != "."}


@dataclass(frozen=True)
class RealGame:
    """A real game labelled by hand: its frames' folder under ``../shared/realdata``, the
    number of men a side of its rules, the side to move at its first step, and the steps."""

    name: str
    folder: Path
    men: int
    first: Colour
    steps: tuple[Step, ...]

    @property
    def present(self) -> bool:
        return all((self.folder / s.photo).is_file() for s in self.steps if s.photo is not None)

    @property
    def rules(self) -> Rules:
        return Rules(men_per_side=self.men)

    def start(self) -> Position:
        return Position.from_pieces(self.steps[0].pieces, self.first)

    def positions(self) -> list[Step]:
        """The true game: its first position, then the position after each ply (a photo of
        an unchanged board is no ply)."""
        return [s for k, s in enumerate(self.steps) if k == 0 or s.labels != self.steps[k - 1].labels]

    def irregular(self) -> list[int]:
        """The plies (numbered from 1) that no legal move of the side to move explains: a
        move out of turn is one, and the turn passes to the mover's opponent."""
        plies, turn, truth = [], self.first, self.positions()
        for number, (before, after) in enumerate(zip(truth, truth[1:]), start=1):
            mover = _mover(before, after) or turn
            position = Position.from_pieces(before.pieces, mover)
            if mover is not turn or not any(position.play(m).pieces() == after.pieces
                                            for m in position.legal_moves(self.rules)):
                plies.append(number)
            turn = mover.opponent
        return plies


def _mover(before: Step, after: Step) -> Colour | None:
    """The side whose piece arrived on a square (None: no piece arrived)."""
    arrived = [p for s, p in after.pieces.items() if before.pieces.get(s, None) is None]
    return arrived[0].colour if arrived else None


def games(labels: Path = LABELS, root: Path = ROOT) -> list[RealGame]:
    """The hand-labelled real games."""
    data = json.loads(labels.read_text(encoding="utf-8"))
    return [RealGame(name, root / g["folder"], int(g["men"]), Colour(g["first"]),
                     tuple(Step(s[0], s[1]) for s in g["steps"]))  # s[2]: the labeller's note
            for name, g in data["games"].items()]


def game_photos(labels: Path = LABELS, root: Path = ROOT) -> list[RealPhoto]:
    """Every photo of the games as a labelled photo, with its camera set-up's corners
    (``bench/realdata_corners.json``): the board finder is checked on them too."""
    setups = json.loads(JULIE_CORNERS.read_text(encoding="utf-8"))
    photos = []
    for game in games(labels, root):
        setup = game.folder.relative_to(root / JULIE).as_posix()
        corners, played = np.asarray(setups[setup]["corners"], float), setups[setup]["played"]
        photos += [RealPhoto(f"{JULIE} games", setup, game.folder / s.photo, grid_of(s.labels, played),
                             corners) for s in game.steps if s.photo is not None]
    return photos


def _photo(path: Path) -> np.ndarray:
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise ValueError(f"cannot read {path}")
    return cv2.resize(image, SIZE, interpolation=cv2.INTER_AREA)


def _hand(scene: np.ndarray, depth: float, rng: np.random.Generator) -> np.ndarray:
    """``scene`` with an arm reaching ``depth`` (0..1) of the way to the frame's middle from
    its bottom edge: skin, a sleeve, soft edges and a shadow, over the real picture."""
    height, width = scene.shape[:2]
    base = np.array([width * rng.uniform(0.55, 0.95), height * 1.15])
    aim = np.array([width * rng.uniform(0.3, 0.6), height * rng.uniform(0.3, 0.55)])
    tip = base + (aim - base) * depth
    out = scene.astype(np.float32)
    shadow = np.zeros((height, width), np.float32)
    cv2.line(shadow, tuple(int(v) for v in base + (25, 10)), tuple(int(v) for v in tip + (25, 10)),
             1.0, int(width * 0.11))
    out *= 1 - 0.35 * cv2.GaussianBlur(shadow, (0, 0), 12)[..., None]
    for colour, start, thick in (((95, 125, 175), 0.0, 0.10), ((60, 50, 45), 0.55, 0.14)):
        mask = np.zeros((height, width), np.float32)
        near = tip + (base - tip) * start
        cv2.line(mask, tuple(int(v) for v in near), tuple(int(v) for v in base), 1.0, int(width * thick))
        if start == 0.0:
            cv2.circle(mask, tuple(int(v) for v in tip), int(width * thick / 2), 1.0, -1)
        soft = cv2.GaussianBlur(mask, (0, 0), 2)[..., None]
        out = out * (1 - soft) + soft * np.array(colour, np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def game_video(game: RealGame, path: Path, seed: int = 0) -> Path:
    """The game's photos as a video at :data:`FPS`: each held :data:`HOLD_S`, a hand over the
    board between two photos (the board changes under it), every third change a cross-fade."""
    rng = np.random.default_rng(seed)
    photos = [_photo(game.folder / s.photo) for s in game.steps if s.photo is not None]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"mp4v"), FPS, SIZE)
    hold, change = round(HOLD_S * FPS), round(CHANGE_S * FPS)
    try:
        for index, photo in enumerate(photos):
            for _ in range(hold):
                writer.write(photo)
            if index + 1 == len(photos):
                break
            after = photos[index + 1]
            fade = index % 3 == 2
            for k in range(change):
                t = (k + 1) / (change + 1)
                if fade:
                    writer.write(cv2.addWeighted(photo, 1 - t, after, t, 0))
                else:
                    writer.write(_hand(photo if t < 0.5 else after, math.sin(math.pi * t),
                                       np.random.default_rng([seed, index])))
        for _ in range(hold):  # the last board stays a while, as a finished game's does
            writer.write(photos[-1])
    finally:
        writer.release()
    return path


def referee_start(game: RealGame, log: Path) -> Path:
    """A board log holding the referee's new game from the first position (its FEN, side
    to move named): ``makhos record --events log --resume`` takes the game up from there."""
    action = parse_action({"action": "new_game", "rules": game.rules.to_dict(),
                           "fen": game.start().fen()})
    JSONLinesLog(log, fresh=True).append(action.to_event(BOARD, 1, 0.0))
    return log


def record(game: RealGame, folder: Path, videos: tuple[Path, ...] = ()) -> tuple[int, Score]:
    """The game's video (or ``videos``, the camera's files one after the other) through
    ``makhos record`` from the referee's start (its output kept quiet), scored against the
    labels: the command's exit status (the first that is not 0) and the score."""
    videos = videos or (game_video(game, folder / f"{game.name}.mp4"),)
    log = referee_start(game, folder / f"{game.name}.jsonl")
    pdn = folder / f"{game.name}.pdn"
    code = 0
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        for video in videos:
            code = code or makhos(record_arguments(game, video, log, pdn))
    return code, scored(game, log, pdn if code == 0 else None)


def cut_video(video: Path, fraction: float, turns: int = 0) -> tuple[Path, Path]:
    """``video`` as two files (the camera's next file: re-encoded, its clock at 0 again), the
    second from its frame at ``fraction`` of its length and turned ``turns`` quarter turns
    (the camera set up again on another side of the table)."""
    capture = cv2.VideoCapture(str(video))
    frames, rate = int(capture.get(cv2.CAP_PROP_FRAME_COUNT)), capture.get(cv2.CAP_PROP_FPS)
    parts = video.with_name(f"{video.stem}-a.mp4"), video.with_name(f"{video.stem}-b.mp4")
    writers: list[cv2.VideoWriter] = []
    try:
        while (got := capture.read())[0]:
            second = len(writers) > 0 and int(capture.get(cv2.CAP_PROP_POS_FRAMES)) > round(frames * fraction)
            frame = np.ascontiguousarray(np.rot90(got[1], turns)) if second else got[1]
            if len(writers) == int(second):  # this part's first frame
                height, width = frame.shape[:2]
                writers.append(cv2.VideoWriter(str(parts[len(writers)]),
                                               cv2.VideoWriter.fourcc(*"mp4v"), rate, (width, height)))
            writers[-1].write(frame)
    finally:
        capture.release()
        for writer in writers:
            writer.release()
    return parts


def record_arguments(game: RealGame, video: Path, log: Path, pdn: Path) -> list[str]:
    """``makhos record``'s arguments that take the game of ``log`` up from its end, the
    recorded game to ``pdn``."""
    return ["record", "--source", str(video), "--men", str(game.men), "--events", str(log),
            "--resume", "-o", str(pdn)]


def scored(game: RealGame, log: Path, pdn: Path | None) -> Score:
    """The game ``pdn`` recorded (none where it is None), with the alerts of ``log``, against
    the true game."""
    positions = read_game(pdn.read_text(encoding="utf-8")).game.positions() if pdn is not None else []
    return score(game, positions or [game.start()], JSONLinesLog(log).read_board(BOARD))


@dataclass(frozen=True)
class Score:
    """A recorded game against the true one. ``right``: plies recorded right before the
    first difference; ``invented``: recorded plies to a position the game never had;
    ``missing``: true plies whose position was never recorded; ``shifted``: recorded plies
    to a true position under another ply number; ``alerted``: the irregular true plies that
    stand in the record with an irregularity raised about them; ``alerts``: irregularities
    and board mismatches raised in all."""

    right: int
    recorded: int
    true: int
    invented: int
    missing: int
    shifted: int
    irregular: int
    alerted: int
    alerts: int

    @property
    def perfect(self) -> bool:
        return (self.right == self.recorded == self.true and self.alerted == self.irregular
                and not self.invented and not self.shifted)

    def line(self) -> str:
        return (f"{self.right} right / {self.recorded} recorded / {self.true} true; invented "
                f"{self.invented}, missing {self.missing}, shifted {self.shifted}; irregular "
                f"{self.alerted}/{self.irregular} alerted, {self.alerts} alert(s) in all")


def score(game: RealGame, recorded: list[Position], events: list[GameEvent]) -> Score:
    """How ``recorded`` (the positions of the recorded game, its start first) and the
    irregularities among ``events`` follow the true game."""
    truth = [s.pieces for s in game.positions()]
    seen = [p.pieces() for p in recorded]
    right = 0
    while right + 1 < min(len(seen), len(truth)) and seen[right + 1] == truth[right + 1]:
        right += 1
    at = [[j for j in range(1, len(truth)) if truth[j] == s] for s in seen[1:]]
    # An irregularity about a ply is logged before it, numbered with the plies played then.
    raised = {e.ply + 1 for e in events if e.kind.value == "irregularity" and e.move and e.ply is not None}
    irregular = game.irregular()
    standing = [p for p in irregular if p < len(seen) and seen[p] == truth[p]]
    return Score(
        right=right, recorded=len(seen) - 1, true=len(truth) - 1,
        invented=sum(not js for js in at),
        missing=sum(t not in seen[1:] for t in truth[1:]),
        shifted=sum(bool(js) and i not in js for i, js in enumerate(at, start=1)),
        irregular=len(irregular), alerted=sum(p in raised for p in standing),
        alerts=sum(e.kind.value in ("irregularity", "board_mismatch") for e in events))
