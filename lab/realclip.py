"""A real game clip nobody here rendered, and what hostile cameras would have made of it.

``alexkassil-playing-the-computer/checkers.mp4`` (``../shared/realdata``, never in the
repository) is an overhead clip of real hands making three moves on a real wooden board;
five of its frames are labelled. It is the one real video with a known game, so it is the
check that our own renderer cannot bias: the pieces, hands, light and codec are the world's.

:func:`hostile_clip` films it again through a camera of the lab's nuisance model
(:mod:`lab.videos.nuisances`: wobble, jolts, exposure, flicker, a person's shadow, noise,
dropped frames, a low bit rate), from another side of the table (a quarter turn), at a slant
(the board plane seen from an elevation, with a roll of the camera), at another frame size
and rate. The slant is a homography of the overhead picture: exact for the board, while the
men stay flat discs rather than showing their sides, so it is milder than a real slanted
camera for the pieces.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from makhos.engine.position import Position

from .realdata import ROOT, RealPhoto, grid_of, labelled_photos
from .videos.nuisances import Camera, Nuisances, content_times, sample_nuisances
from .videos.render import video_writer

CLIP = ROOT / "alexkassil-playing-the-computer"
VIDEO = CLIP / "checkers.mp4"
MEN = 12


def cells_of(position: Position) -> np.ndarray:
    """(8, 8) characters of a position, as the labels write a grid ('.', 'l', 'd', 'L', 'D')."""
    labels = "".join(p.value if (p := position.piece_at(s)) is not None else "." for s in range(1, 33))
    return np.array([list(row) for row in grid_of(labels)])


def symmetries(cells: np.ndarray) -> list[np.ndarray]:
    """The eight ways a camera can see one board: four quarter turns, each mirrored."""
    turns = [np.rot90(cells, k) for k in range(4)]
    return turns + [t[:, ::-1] for t in turns]


def _labelled_frames() -> list[RealPhoto]:
    """The clip's labelled frames in time order (their names number the frames)."""
    return sorted((p for p in labelled_photos(CLIP) if p.setup == "video"), key=lambda p: p.path.name)


def labelled_positions() -> list[np.ndarray]:
    """The clip's labelled frames in time order, each position once: the true game."""
    distinct: list[np.ndarray] = []
    for photo in _labelled_frames():
        if not distinct or not np.array_equal(distinct[-1], photo.cells):
            distinct.append(photo.cells)
    return distinct


def plies_followed(recorded: list[Position], truth: list[np.ndarray]) -> int | None:
    """How many plies of the true game the recorded positions follow, one for one and in
    order, with the sides named as the labels name them, under one view of the board for the
    whole game; ``None`` where a recorded position is not the true one (a wrong move, or
    more moves than were played)."""
    if len(recorded) > len(truth):
        return None
    seen = [symmetries(cells_of(p)) for p in recorded]
    if any(all(np.array_equal(views[k], t) for views, t in zip(seen, truth)) for k in range(8)):
        return len(recorded) - 1
    return None


def follows(recorded: list[Position], truth: list[np.ndarray]) -> bool:
    """Whether the recorded positions are the whole true game (:func:`plies_followed`)."""
    return plies_followed(recorded, truth) == len(truth) - 1


@dataclass(frozen=True)
class Slant:
    """Where the board is seen from: quarter turns of the picture (the side of the table),
    the camera's elevation above the board plane (90: overhead) and its roll (degrees)."""

    quarter_turns: int
    elevation: float
    roll: float

    @classmethod
    def draw(cls, rng: np.random.Generator, quarter_turns: int) -> Slant:
        return cls(quarter_turns, float(rng.uniform(40.0, 90.0)), float(rng.uniform(-20.0, 20.0)))

    def homography(self, board: np.ndarray, size: tuple[int, int]) -> np.ndarray:
        """Source picture -> a frame of ``size`` in which the board (its four corners in the
        source) is seen from this slant, filling about two thirds of the frame's height."""
        turn = math.radians(90.0 * self.quarter_turns + self.roll)
        unit = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])
        c, s = math.cos(turn), math.sin(turn)
        plane = unit @ np.array([[c, s], [-s, c]])
        # A pinhole camera three board sides away, raised to the elevation, looking at the
        # board's centre: the far edge comes out shorter than the near one.
        e = math.radians(self.elevation)
        depth = 3.0 + plane[:, 1] * math.cos(e)
        seen = np.stack([plane[:, 0], plane[:, 1] * math.sin(e)], 1) / depth[:, None]
        seen -= (seen.max(0) + seen.min(0)) / 2
        width, height = size
        scale = 0.66 * min(height / np.ptp(seen[:, 1]), width / np.ptp(seen[:, 0]))
        target = seen * scale + np.array([width / 2, height / 2])
        return np.asarray(cv2.getPerspectiveTransform(board.astype(np.float32),
                                                      target.astype(np.float32)))


def _frames() -> tuple[list[np.ndarray], float]:
    video = cv2.VideoCapture(str(VIDEO))
    fps = float(video.get(cv2.CAP_PROP_FPS))
    frames = []
    while (got := video.read())[0]:
        frames.append(got[1])
    video.release()
    if not frames:
        raise RuntimeError(f"cannot read {VIDEO}")
    return frames, fps


def hostile_clip(seed: int, folder: Path) -> tuple[Path, dict[str, Any]]:
    """Write the clip as camera ``seed`` films it (the side of the table is ``seed`` mod 4)
    into ``folder``; return its path and what was drawn."""
    rng = np.random.default_rng([seed, 30])
    frames, fps = _frames()
    duration = len(frames) / fps
    nuisances = sample_nuisances(rng, duration)
    slant = Slant.draw(rng, seed % 4)
    board = _labelled_frames()[0].corners
    warp = slant.homography(board, nuisances.size)
    camera = Camera(nuisances, duration)
    times = content_times(int(duration * nuisances.fps), nuisances)
    path = Path(folder) / f"clip-{seed}.mp4"
    path.parent.mkdir(parents=True, exist_ok=True)
    writer = video_writer(path, nuisances)
    try:
        for time in times:
            source = frames[min(int(time * fps), len(frames) - 1)]
            scene = cv2.warpPerspective(source, warp, nuisances.size, flags=cv2.INTER_LINEAR,
                                        borderMode=cv2.BORDER_REPLICATE)
            writer.write(camera.frame(scene, float(time)))
    finally:
        writer.close()
    return path, {"slant": slant, "nuisances": nuisances}


def describe(drawn: dict[str, Any]) -> str:
    """One line of what a hostile clip's camera was."""
    slant: Slant = drawn["slant"]
    nz: Nuisances = drawn["nuisances"]
    shadow = "shadow" if nz.shadow_at is not None else "-"
    return (f"turn {slant.quarter_turns} elev {slant.elevation:4.1f} roll {slant.roll:+5.1f} "
            f"{nz.size[0]}x{nz.size[1]} {nz.fps:g}fps {nz.codec} {nz.bit_rate / 1e6:.1f}Mb "
            f"wobble {nz.wobble_px:.1f}px noise {nz.noise:.0f} {shadow}")
