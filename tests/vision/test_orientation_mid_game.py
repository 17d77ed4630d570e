"""A board found again mid-game is numbered as the log's game has it (#25), not by the
start position's cue (darker men at the bottom), which a crossed-over game turns round."""

import numpy as np

from makhos.engine import Colour, Position, Rules
from makhos.engine.starts import start_boards
from lab.render import Renderer, sample_scene
from makhos.vision.classifier import SquareClassifier
from makhos.vision.pipeline import BoardReader, GameKnowledge

#: Late in a game: the dark men have crossed to the light side's half and back.
CROSSED = {s: "d" for s in (5, 6, 7, 10, 11, 14)} | {s: "l" for s in (19, 22, 23, 26, 27)} | {1: "D"}


def position_of(board: dict[int, str]) -> Position:
    text = {"d": "", "D": "K"}
    dark = ",".join(text[p] + str(s) for s, p in board.items() if p in "dD")
    light = ",".join(("K" if p == "L" else "") + str(s) for s, p in board.items() if p in "lL")
    return Position.from_fen(f"B:W{light}:B{dark}")


def first_reading(reader: BoardReader, image: np.ndarray):
    for k in range(90):
        result = reader.process(image, k / 30)
        if result.reading is not None:
            return result.reading
    return None


def test_a_board_found_again_mid_game_is_numbered_as_the_game_has_it():
    rng = np.random.default_rng(25)
    frame = Renderer(sample_scene(rng, held_out=True, elevation=(50, 70), size=(640, 480))).render(CROSSED, seed=2)
    position = position_of(CROSSED)
    classifier = SquareClassifier()
    guided = BoardReader(classifier)
    guided.follow(GameKnowledge(tuple(start_boards(Rules())), expected=position.board))
    reading = first_reading(guided, frame.image)
    assert reading is not None
    sides = position.board[:2]  # who stands where (a king from above is the network's weak call)
    assert reading.position(Colour.DARK).board[:2] == sides
    # The start position's cue alone numbers this board the other way round, or not at all.
    alone = first_reading(BoardReader(classifier), frame.image)
    assert alone is None or alone.position(Colour.DARK).board[:2] != sides


def test_a_board_found_again_mid_game_may_be_numbered_on_the_squares_the_cue_calls_unplayed(monkeypatch):
    """The cheap cue's colour of squares in play is a guess on a board with few men left (a
    dark room: julie-log8 taken up at ply 17 was read on its empty squares): the game's board
    chooses among all eight numberings, whatever the cue says."""
    import makhos.vision.pipeline as pipeline
    from makhos.vision.orientation import Orientation

    rng = np.random.default_rng(25)
    frame = Renderer(sample_scene(rng, held_out=True, elevation=(50, 70), size=(640, 480))).render(CROSSED, seed=2)
    position = position_of(CROSSED)
    classifier = SquareClassifier()
    cue = pipeline.numbered

    def wrong_colour(*args: object, **kwargs: object) -> Orientation:
        right = cue(*args, **kwargs)
        other = "light" if right.played == "dark" else "dark"
        return Orientation(right.location, other, right.confidence, right.quarter_turns)

    monkeypatch.setattr(pipeline, "numbered", wrong_colour)
    guided = BoardReader(classifier)
    guided.follow(GameKnowledge(tuple(start_boards(Rules())), expected=position.board))
    reading = first_reading(guided, frame.image)
    assert reading is not None
    assert reading.position(Colour.DARK).board[:2] == position.board[:2]
