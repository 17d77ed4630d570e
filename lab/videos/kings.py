"""Irregular king play filmed the way the lost real game was (issue #42).

The real game that was lost had kings that look like men from the camera: low stacks of
two men seen side-on at 35 degrees at 480x270, a king's plain move while a flying capture
was compulsory, then the reply; one photo per move, hands between them and every third
change a plain cross-fade. :func:`king_play` draws such a video: a game that starts with
kings (so kings move from the first plies), one to two irregular king plies (a plain move
while a capture was due, a chain stopped after its first jump), each played on by the
opponent, stacks barely taller than a man, a wobbling, noisy, compressed camera.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from makhos.cli.main import main
from makhos.engine import Rules, Setup
from makhos.engine.game import Game
from makhos.engine.pdn import read_game
from lab.render import Scene, sample_scene
from lab.render.scene import sample_camera

from .nuisances import Nuisances, busy_hall_nuisances, hall_nuisances, sample_nuisances
from .render import shot_starts
from .script import FPS, KING_IRREGULARITIES, GameScript, Shot, script_game

SIZE = (480, 270)
ELEVATION = 35.0  # degrees: side-on, as the real game was filmed
LAST_BOARD_S = 4  # seconds the last board is held
#: The first seed whose video has a hall's nuisances too (dim light, a camera knocked to a
#: new angle, an arm resting on the board, a scoresheet): the seeds before render as they
#: did when their figures were taken.
HALL_SEEDS = 70_020
#: The first seed whose video has a busy hall's nuisances as well (men put down off-centre,
#: a fast hand blurred, the next table's board in view, a phone on the board's edge, captured
#: men beside it, a moving glare spot, a player's head at the frame's top, the focus hunting).
BUSY_HALL_SEEDS = 70_030


def low_stacks(scene: Scene, rng: np.random.Generator) -> Scene:
    """The scene's pieces made flat, their kings stacked square on each other: a king is a
    man a few pixels taller."""
    pieces = replace(scene.pieces, height=float(rng.uniform(0.07, 0.11)), king_offset=(0.0, 0.03),
                     boss_height=0.0)
    return replace(scene, pieces=pieces)


def king_script(seed: int, plies: int) -> GameScript:
    """A game from a set-up with kings, with irregular king plies, each played on; its last
    board held a while, as a game's last photo is."""
    setup = (Setup.TWO_KINGS, Setup.THREE_KINGS)[seed % 2]
    script = script_game(seed, Rules(setup=setup), plies=plies, irregularities=1 + seed // 2 % 2,
                         kinds=KING_IRREGULARITIES, corrected=0.0, fade_every=3)
    script.shots.append(Shot(script.shots[-1].after or script.shots[-1].board, LAST_BOARD_S * FPS))
    return script


def king_play(seed: int, plies: int) -> tuple[GameScript, Scene, Nuisances]:
    """One video's game, scene and hostile camera (wobble, light, noise, codec); from seed
    :data:`HALL_SEEDS` on, with a hall's nuisances too (:func:`hall_nuisances`), from
    :data:`BUSY_HALL_SEEDS` on a busy hall's (:func:`busy_hall_nuisances`)."""
    script = king_script(seed, plies)
    duration = float(shot_starts(script)[-1])
    nuisances = sample_nuisances(np.random.default_rng([seed, 7]), duration, size=SIZE)
    if seed >= HALL_SEEDS:
        nuisances = hall_nuisances(nuisances, np.random.default_rng([seed, 11]), duration)
    if seed >= BUSY_HALL_SEEDS:
        nuisances = busy_hall_nuisances(nuisances, np.random.default_rng([seed, 13]), duration)
    rng = np.random.default_rng(seed)
    scene = sample_scene(rng, held_out=True, elevation=(ELEVATION, ELEVATION), size=SIZE)
    # Framed as a player frames a game: the playing area fills the picture, a border or a
    # table edge cut off where it must be (the frame is small enough as it is).
    camera = sample_camera(rng, SIZE, (ELEVATION, ELEVATION), margin=0.2)
    return script, replace(low_stacks(scene, rng), camera=camera), nuisances


@dataclass(frozen=True)
class PlyScore:
    """A recorded game against the true one, ply by ply (each ply is judged by the board
    it leaves, so a path the camera cannot tell is no fault)."""

    plies: int  # in the true game
    right: int  # recorded right and in its place
    irregular: int  # irregular plies in the true game
    standing: int  # of them, recorded in place as irregular plies (the alert's ply stood)
    invented: int  # recorded plies whose board the true game never had
    shifted: int  # recorded plies whose board the true game had at another ply
    unconfirmed: int = 0  # of the invented and shifted, those the record said unconfirmed

    @property
    def perfect(self) -> bool:
        return self.right == self.plies and self.standing == self.irregular and not (
            self.invented or self.shifted)


def score_plies(truth: Game, recorded: Game, unconfirmed: frozenset[int] = frozenset()) -> PlyScore:
    """How ``recorded`` follows ``truth``: in place, irregular plies standing, none invented
    or shifted (a game recorded with plies swallowed is shifted from there on). ``unconfirmed``:
    the indices of the recorded plies the record says are unconfirmed (:func:`said_unconfirmed`);
    one not in place is still invented or shifted, and counted apart as said so."""
    true_boards = [p.after.board for p in truth.plies]
    right = standing = invented = shifted = unsure = 0
    for index, ply in enumerate(recorded.plies):
        board = ply.after.board
        if index < len(true_boards) and board == true_boards[index]:
            right += 1
            standing += ply.is_irregular and truth.plies[index].is_irregular
            continue
        if board in true_boards:
            shifted += 1
        else:
            invented += 1
        unsure += index in unconfirmed
    return PlyScore(len(truth.plies), right, sum(p.is_irregular for p in truth.plies), standing,
                    invented, shifted, unsure)


#: What a PDN holds that this scoring reads: a tag, a comment, a ply (an irregular one: ``--``).
_PDN_PARTS = re.compile(r"\[[^\]]*\]|(?P<comment>\{[^}]*\})|(?P<ply>\d{1,2}(?:[-x]\d{1,2})+|--)")


def said_unconfirmed(pdn: str) -> frozenset[int]:
    """The indices of the plies of a recorded game (one, as ``makhos record`` writes it)
    that its PDN says are unconfirmed: the likeliest of several lines through a gap, not
    decided (``{after a gap of 10 s, unconfirmed}`` after the ply).

    >>> sorted(said_unconfirmed('[FEN "B:W1,2:B31,32"] 1. 31-27 {after a gap of 9 s, unconfirmed} 2-6 '
    ...                         '{after a gap of 9 s} 2. 27-23 {after a gap of 9 s, unconfirmed} *'))
    [0, 2]
    """
    plies, said = -1, set()
    for part in _PDN_PARTS.finditer(pdn):
        if part["ply"]:
            plies += 1
        elif part["comment"] and plies >= 0 and part["comment"].startswith("{after a gap") \
                and part["comment"].endswith(", unconfirmed}"):
            said.add(plies)
    return frozenset(said)


def recorded_game(video: Path, rules: Rules) -> Game | None:
    """The game ``makhos record`` writes for ``video``, told the rules it was played under
    (its set-up with kings: kings that read as men); None when it found no game (the board
    never found: the reading's failure, not the rules')."""
    pdn = video.with_suffix(".recorded.pdn")
    settings = json.dumps({"setup": rules.setup.value})
    if main(["record", str(video), "--rules", settings, "-o", str(pdn)]) != 0:
        return None
    return read_game(pdn.read_text(encoding="utf-8")).game
