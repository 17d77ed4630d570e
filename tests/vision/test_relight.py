"""A board read in new light after plies made under the hands (kingplay 70012: a person's
shadow slid over the board while light played 5-9 and dark 29x8): the boards the plies since
can lead to are checked against the frame on held-out squares (``vision.relight``), and the
squares they agree on are what the reader adapts on. A known square is never another board's."""

from __future__ import annotations

import numpy as np
import pytest

from makhos.engine import Position
from makhos.engine.game import Game
from makhos.tracker.scoring import board_classes
from makhos.tracker.stories import game_stories
from makhos.vision.learning import AdaptingReader
from makhos.vision.reading import LABELS
from makhos.vision.rectify import crop_squares
from makhos.vision.relight import FEWEST_PIECES, known_squares

from lab.render import Renderer
from lab.videos.kings import king_play


def labels(position: Position) -> str:
    return "".join("." if (p := position.piece_at(s)) is None else p.value for s in range(1, 33))


def pieces(board: str) -> dict[int, str]:
    return {s: label for s, label in enumerate(board, 1) if label != "."}


def shaded(image: np.ndarray) -> np.ndarray:
    """The frame with a shadow over its top half, as a person standing by leaves it."""
    out = image.astype(np.float32)
    out[: image.shape[0] // 2] *= 0.55
    return out.astype(np.uint8)


@pytest.fixture(scope="module")
def shadow() -> tuple[Renderer, Game, AdaptingReader, np.ndarray, str]:
    """Kingplay 70012's scene and game three plies in (the board the game last accepted),
    a reader adapted on that board in full light, and the board's corners and numbering."""
    script, scene, _ = king_play(70012, 10)
    assert script.game is not None
    renderer, game = Renderer(scene), Game(script.game.rules, script.game.start)
    for ply in script.game.plies[:3]:
        game.play(ply.move)
    frame = renderer.render(pieces(labels(game.position)), seed=1)
    reader = AdaptingReader()
    reader.adapt(frame.image, frame.corners, frame.played, labels(game.position))
    return renderer, game, reader, frame.corners, frame.played


def since(game: Game) -> list[str]:
    """The boards the game's stories lead to (one or two plies, the irregular catalogue)."""
    rows = np.unique(board_classes([s.board for s in game_stories(game, True, {}, None)]), axis=0)
    return ["".join(LABELS[k] for k in row) for row in rows]


@pytest.mark.parametrize("plies", [0, 2])
def test_the_squares_known_in_new_light_are_the_board_on_the_table(shadow, plies) -> None:
    renderer, game, reader, corners, played = shadow
    table = Game(game.rules, game.start)
    for ply in game.plies + [p for p in king_play(70012, 10)[0].game.plies[3:3 + plies]]:
        table.play(ply.move)
    on_table = labels(table.position)
    image = shaded(renderer.render(pieces(on_table), seed=5).image)
    boards = since(game)
    assert on_table in boards
    known = known_squares(reader.held_out(crop_squares(image, corners, played, reader.geometry), boards), boards)
    assert known is not None
    assert all(k in ("?", t) for k, t in zip(known, on_table))
    assert sum(k not in ".?" for k in known) >= FEWEST_PIECES
