"""A set-up is searched for on more than the first frame of a settled board (#42, kingplay
70048): one frame's codec noise decides the held-out doubt, and a set-up that stood still
1.5 s, refused on its first frame and read on 8 of the 15 frames after it, never started a
game. Later searches of the same settled period stand only where two of them agree: one
frame's pass alone is no start. A later search fixes the numbering only: the reader is taught
the set-up on the first search's frame, or where the tracker confirms it, never on the frame
whose luck let it pass (kingplay 70032 and 70048: a board one ply in passes so too), unless
the zero-shot reading hides the set-up's pieces, or reads phantom men between the camps and
every search since the first that found it found it, where the tracker cannot confirm it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np
import pytest

from makhos.engine import Position, Rules, Setup
from makhos.engine.starts import start_boards
from makhos.vision.classifier import SquareClassifier
from makhos.vision.learning import AdaptingReader
from makhos.vision.geometry import BoardLocation
from makhos.vision.orientation import Orientation
from makhos.vision import pipeline
from makhos.vision.locate import locate_board
from makhos.vision.pipeline import BoardReader
from makhos.vision.start_check import START_LOOK_S, START_LOOKS, StartSearches

from lab.render import Renderer, sample_scene
from lab.videos.kings import king_play

START = {s: "l" for s in range(1, 9)} | {s: "d" for s in range(25, 33)}
ONE_PLY_IN = {s: piece for s, piece in START.items() if s != 25} | {21: "d"}  # 25-21 made
Search = Callable[[BoardReader, np.ndarray, BoardLocation], "tuple[Orientation, Position] | None"]


def rendered(board: dict[int, str]) -> np.ndarray:
    scene = sample_scene(np.random.default_rng(7), held_out=True, elevation=(60, 85), size=(640, 480))
    image: np.ndarray = Renderer(scene).render(board, seed=1).image
    return image


@pytest.fixture(scope="module")
def start_image() -> np.ndarray:
    return rendered(START)


def searched(monkeypatch: pytest.MonkeyPatch, found_on: Callable[[int], bool],
             start: np.ndarray | None = None) -> list[int]:
    """Have the reader's start search find the start (as the real search does on this clean
    board, or on ``start`` seen by the same camera: whatever board is in view misread as the
    set-up) only on the searches ``found_on`` picks (counted from 1); returns the searches
    made, as they are made."""
    searches: list[int] = []
    search: Search = BoardReader.numbering_from_start

    def numbering_from_start(self: BoardReader, image: np.ndarray, found: BoardLocation
                             ) -> tuple[Orientation, Position] | None:
        searches.append(len(searches) + 1)
        return search(self, image if start is None else start, found) if found_on(len(searches)) else None

    monkeypatch.setattr(BoardReader, "numbering_from_start", numbering_from_start)
    return searches


def test_a_set_up_refused_on_its_first_settled_frame_is_read_on_the_next(monkeypatch, start_image) -> None:
    searches = searched(monkeypatch, lambda search: search > 1)
    reader = BoardReader(SquareClassifier())
    for k in range(60):
        reader.process(start_image, k / 30)
    assert not reader.seeking_start  # the numbering is fixed by the start
    assert len(searches) == 3  # refused, then found twice


def test_one_later_search_alone_is_no_start_and_the_searches_are_bounded(monkeypatch, start_image) -> None:
    searches = searched(monkeypatch, lambda search: search == 2)
    reader = BoardReader(SquareClassifier())
    for k in range(90):
        reader.process(start_image, k / 30)
    assert reader.seeking_start
    assert len(searches) == START_LOOKS  # a board that stays still is not searched on every frame


def test_a_board_one_ply_in_read_as_the_start_by_later_searches_is_not_taught_as_the_set_up(
        monkeypatch, start_image) -> None:
    searched(monkeypatch, lambda search: search > 1, start_image)
    reader = BoardReader(AdaptingReader())
    one_ply_in = rendered(ONE_PLY_IN)
    for k in range(60):
        reader.process(one_ply_in, k / 30)
    assert not reader.seeking_start  # numbered as its set-up: a ply does not turn the board
    assert reader.adaptation is None  # 21 and 25 not learnt as the set-up's
    reader.started("".join(ONE_PLY_IN.get(s, ".") for s in range(1, 33)))
    assert reader.adaptation is not None  # taught where the tracker confirms the board


def test_a_start_found_on_the_first_search_of_a_settled_board_is_taught_there(monkeypatch, start_image) -> None:
    searched(monkeypatch, lambda search: True)
    reader = BoardReader(AdaptingReader())
    for k in range(60):
        reader.process(start_image, k / 30)
    assert not reader.seeking_start
    assert reader.adaptation is not None  # taught on the frame the board settled on, as before


def test_a_set_up_whose_pieces_the_zero_shot_reading_hides_is_taught_where_later_searches_agree(
        monkeypatch) -> None:
    """Pieces the colour of their squares read zero-shot as the squares they hide: the
    tracker never sees such a set-up to confirm it, so a reader taught only there reads no
    game (kingplay 70095: dim, refused on its first settled frame, the game started nowhere
    and at last on a mid-game board read with one piece a side)."""
    rules = Rules(setup=Setup.THREE_KINGS)
    script, scene, _ = king_play(70005, 8)
    start = Position.start(rules)
    image = Renderer(scene).render({s: p.value for s in range(1, 33) if (p := start.piece_at(s)) is not None},
                                   seed=1).image
    searched(monkeypatch, lambda search: search > 1)
    reader = BoardReader(AdaptingReader(), starts=start_boards(rules))
    for k in range(60):
        reader.process(image, k / 30)
    assert not reader.seeking_start
    assert reader.adaptation is not None  # taught the set-up: the tracker can now see it


def phantom_men(monkeypatch: pytest.MonkeyPatch, found_on: Callable[[int], bool]) -> None:
    """Have the start search find the set-up only on the searches ``found_on`` picks, its
    zero-shot reading seven squares off it, as 70138's agreeing search read: dark men read on
    the empty dark squares between the camps."""
    search: Search = BoardReader.numbering_from_start
    searches: list[int] = []

    def misread(self: BoardReader, image: np.ndarray, found: BoardLocation) -> tuple[Orientation, Position] | None:
        searches.append(len(searches) + 1)
        start = search(self, image, found) if found_on(len(searches)) else None
        if start is not None:
            assert self._start_taken is not None
            self._start_taken = replace(self._start_taken, misread=(9, 10, 13, 14, 17, 18, 24))
        return start

    monkeypatch.setattr(BoardReader, "numbering_from_start", misread)


def test_a_set_up_read_zero_shot_with_phantom_men_is_taught_where_later_searches_agree_steadily(
        monkeypatch, start_image) -> None:
    """Dark men on dark squares in a dim room, read zero-shot with men on six to eight of the
    empty squares between the camps: the set-up found held out by later searches only, on
    every frame since it was first found, is a set-up the tracker never sees to confirm, as
    one whose pieces are hidden (kingplay 70138: not taught, no game until a board three
    plies in was taken for two, and nothing right after it)."""
    phantom_men(monkeypatch, lambda search: search > 1)
    reader = BoardReader(AdaptingReader())
    for k in range(60):
        reader.process(start_image, k / 30)
    assert not reader.seeking_start
    assert reader.adaptation is not None  # taught the set-up: the tracker can now see it


def test_a_set_up_read_with_phantom_men_found_between_refusals_is_not_taught(monkeypatch, start_image) -> None:
    """Kingplay 70048: found on the 3rd and 6th searches, refused between them: taught on the
    6th's frame, the reader read the dark man on 25 as gone on every frame after it, and a
    ply nobody played was recorded. Frames that pass by their luck teach nothing."""
    phantom_men(monkeypatch, lambda search: search in (2, 4))
    reader = BoardReader(AdaptingReader())
    for k in range(60):
        reader.process(start_image, k / 30)
    assert not reader.seeking_start  # the numbering is fixed
    assert reader.adaptation is None


def test_a_start_is_steady_only_where_every_search_since_it_was_first_found_found_it() -> None:
    searches, key = StartSearches(), ("dark", 0, 0)
    for k in range(3):
        assert searches.due(0.0, k * START_LOOK_S)
    assert not searches.agreed(key)  # the third search: the first to find it
    assert searches.due(0.0, 3 * START_LOOK_S) and searches.agreed(key)
    assert searches.steady
    assert searches.due(0.0, 4 * START_LOOK_S)  # refused
    assert searches.due(0.0, 5 * START_LOOK_S) and searches.agreed(key)
    assert not searches.steady


def test_a_start_confirmed_on_a_read_too_far_off_it_is_taught_on_the_first_board_read_well(monkeypatch) -> None:
    """Kingplay 70056: the tracker confirmed the set-up on a frame read further off than a
    start's misreads (its first ply made, a square or two misread), so the reader was not
    taught there; left zero-shot, it learnt nothing all game and later misread a man. The
    first board the game accepts that the reader reads within those misreads teaches it."""
    searched(monkeypatch, lambda search: False)
    reader = BoardReader(AdaptingReader())
    two_plies_in = ONE_PLY_IN.copy()
    del two_plies_in[8]
    two_plies_in[12] = "l"  # 8-12 made: four squares off the set-up
    image = rendered(two_plies_in)
    for k in range(60):
        reader.process(image, k / 30)
    reader.started("".join(START.get(s, ".") for s in range(1, 33)))
    assert reader.adaptation is None  # not taught the set-up on a read of another board
    reader.learn("".join(two_plies_in.get(s, ".") for s in range(1, 33)))
    assert reader.adaptation is not None  # the board the game accepted, read as it is


def test_a_start_taken_says_what_the_search_that_took_it_read(monkeypatch, start_image) -> None:
    """A start taken where the tracker then starts no game (kingplay 70046 and 70048: found on
    held-out squares, the zero-shot reading 9 and more squares off) is said to the referee
    with what the search read of it (``StartVerdict.found``), not left without a word."""
    searched(monkeypatch, lambda search: search > 1)
    reader = BoardReader(SquareClassifier())
    for k in range(60):
        reader.process(start_image, k / 30)
    assert not reader.seeking_start
    verdict = reader.start_verdict
    assert verdict is not None and verdict.found
    assert len(verdict.misread) <= verdict.allowed  # a clean render: read as the set-up
    assert verdict.describe().startswith("the set-up was found and the squares numbered by it")


def labels(board: dict[int, str]) -> str:
    return "".join(board.get(s, ".") for s in range(1, 33))


@pytest.mark.parametrize("board, taught", [(START, None), (ONE_PLY_IN, labels(ONE_PLY_IN))],
                         ids=["set-up", "one ply in"])
def test_a_set_up_whose_held_out_doubt_is_a_ply_in_teaches_the_board_a_ply_in(monkeypatch, board, taught) -> None:
    """Kingplay 70128: the set-up stood under glare for less time than a board takes to
    settle, and the first still frame was 26-23 made. Zero-shot it read two squares more
    otherwise (no leading start), held out the set-up was read with its two misreads allowed
    (23 and 26) but doubted as a board a ply in is: taught the set-up's labels there,
    the reader read the man on 23 as gone and 26 as holding it all game, 7-11 was recorded as
    the first ply and every ply after it invented. A set-up so doubted teaches the squares the
    boards a ply or two in show (``BoardReader._played_in``); one read as itself, its own."""
    monkeypatch.setattr(pipeline, "leading_start", lambda fit: None)  # zero-shot: misreads beyond a start's
    assert start_known(board) == taught


def start_known(board: dict[int, str]) -> str | None:
    """The squares the start search on ``board`` rendered teaches the reader (None: the set-up's)."""
    image = rendered(board)
    reader = BoardReader(AdaptingReader())
    found = reader.numbering_from_start(image, locate_board(image))
    assert found is not None and found[1] == Position.from_fen("B:W1,2,3,4,5,6,7,8:B25,26,27,28,29,30,31,32")
    return reader._start_known


def test_a_set_up_whose_pieces_are_hidden_so_doubted_teaches_its_own_labels(monkeypatch) -> None:
    """Where the zero-shot reading hides the set-up's pieces, the set-up's labels are taught as
    before (kingplay 70061: taught the board a ply in, the game was lost far on)."""
    monkeypatch.setattr(pipeline, "leading_start", lambda fit: None)
    monkeypatch.setattr(pipeline, "hides_pieces", lambda sides, classes: True)
    assert start_known(ONE_PLY_IN) is None
