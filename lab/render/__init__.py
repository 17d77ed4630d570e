"""Synthetic camera frames of a Thai checkers board (numpy + OpenCV only).

>>> import numpy as np
>>> scene = sample_scene(np.random.default_rng(1), size=(320, 240))
>>> frame = Renderer(scene).render({1: "l", 32: "D"}, seed=1)
>>> frame.image.shape, frame.squares[0], frame.squares[31]
((240, 320, 3), 'l', 'D')
"""

from .renderer import Hand, RenderedFrame, Renderer, random_position, sample_hand
from .scene import Scene, sample_scene, widened

__all__ = ["Hand", "RenderedFrame", "Renderer", "Scene", "random_position", "sample_hand",
           "sample_scene", "widened"]
