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

from dataclasses import replace

import numpy as np

from makhos.engine import Rules, Setup
from lab.render import Scene, sample_scene

from .nuisances import Nuisances, sample_nuisances
from .render import shot_starts
from .script import KING_IRREGULARITIES, GameScript, script_game

SIZE = (480, 270)
ELEVATION = 35.0  # degrees: side-on, as the real game was filmed


def low_stacks(scene: Scene, rng: np.random.Generator) -> Scene:
    """The scene's pieces made flat, their kings stacked square on each other: a king is a
    man a few pixels taller."""
    pieces = replace(scene.pieces, height=float(rng.uniform(0.07, 0.11)), king_offset=(0.0, 0.03),
                     boss_height=0.0)
    return replace(scene, pieces=pieces)


def king_script(seed: int, plies: int) -> GameScript:
    """A game from a set-up with kings, with irregular king plies, each played on."""
    setup = (Setup.TWO_KINGS, Setup.THREE_KINGS)[seed % 2]
    return script_game(seed, Rules(setup=setup), plies=plies, irregularities=1 + seed // 2 % 2,
                       kinds=KING_IRREGULARITIES, corrected=0.0, fade_every=3)


def king_play(seed: int, plies: int) -> tuple[GameScript, Scene, Nuisances]:
    """One video's game, scene and hostile camera (wobble, light, noise, codec)."""
    script = king_script(seed, plies)
    nuisances = sample_nuisances(np.random.default_rng([seed, 7]), float(shot_starts(script)[-1]),
                                 size=SIZE)
    rng = np.random.default_rng(seed)
    scene = sample_scene(rng, held_out=True, elevation=(ELEVATION, ELEVATION), size=SIZE)
    return script, low_stacks(scene, rng), nuisances
