"""What a relight may be taught where the stories' boards are not all the frame may show
(``vision.relight.known_squares_doubted``): boards the game left, a gap's board read not
well, and boards more plies on than the stories hold are weighed as doubt only. One that
fits about as well as the best story, or better, makes the squares it puts otherwise
unknown; none of them is taught whole (kingplay 70033, 70039, 70068, 70082, 70096)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from makhos.vision.reading import LABELS
from makhos.vision.relight import MOST_WEIGHED, known_squares_doubted

#: Eight light men on 1-8, eight dark on 25-32: the board the game last accepted.
SHOWN = "l" * 8 + "." * 16 + "d" * 8


def moved(board: str, start: int, end: int) -> str:
    """``board`` with the piece on ``start`` moved to ``end`` (squares 1-32)."""
    out = list(board)
    out[end - 1], out[start - 1] = out[start - 1], "."
    return "".join(out)


def frame(board: str, sure: float = 0.9) -> "HeldOut":
    """A frame that shows ``board``: each square read as it, at ``sure``."""
    p = np.full((32, 5), (1 - sure) / 4)
    for square, label in enumerate(board):
        p[square, LABELS.index(label)] = sure
    return HeldOut(p)


class HeldOut:
    """The held-out read of every board alike, as a frame's own read; counts boards weighed."""

    def __init__(self, p: np.ndarray) -> None:
        self.p, self.weighed = p, 0

    def __call__(self, boards: Sequence[str]) -> np.ndarray:
        self.weighed += len(boards)
        return np.stack([self.p] * len(boards))


ONE = moved(SHOWN, 25, 21)  # dark's ply since
TWO = moved(ONE, 5, 9)  # and light's reply
THREE = moved(TWO, 26, 22)  # a ply more than the stories hold


def test_a_board_the_game_left_that_fits_as_well_is_doubt_not_a_lesson() -> None:
    before = moved(SHOWN, 8, 12)  # the game's last ply (12-8) taken back: 8 full, 12 empty
    shown = moved(before, 12, 8)
    held = frame(before)
    known = known_squares_doubted(held, [shown, moved(shown, 25, 21)], doubted=[before])
    assert known is not None
    assert known[7] == "?" and known[11] == "?"  # neither 8 nor 12 taught
    assert known[24] == "d"  # 21-25 is not what the frame shows: 25 still known


def test_a_doubted_board_the_frame_does_not_support_changes_nothing() -> None:
    held = frame(ONE)
    far = moved(moved(SHOWN, 1, 13), 2, 14)
    assert known_squares_doubted(held, [SHOWN, ONE], doubted=[far]) == ONE


def further_from(plies: dict[str, int], most: int):
    """The boards a ply on (a dark or light man one row on, as ``moved``) from each board of
    ``plies``, the plies it is on, up to ``most``."""
    steps = [(26, 22), (27, 23), (6, 10), (7, 11)]

    def further(board: str) -> list[str]:
        if plies.get(board, most) >= most:
            return []
        out = [moved(board, a, b) for a, b in steps if board[a - 1] != "." and board[b - 1] == "."]
        for child in out:
            plies.setdefault(child, plies[board] + 1)
        return out
    return further


def test_a_board_a_ply_past_the_stories_that_fits_better_makes_its_squares_unknown() -> None:
    """Kingplay 70068: three plies unseen; the two-ply story fitted best of the stories and,
    taught whole, made the reader read the third ply's squares as they were, for good."""
    held = frame(THREE)
    stories = [SHOWN, ONE, TWO]
    assert known_squares_doubted(held, stories) == TWO  # the stories alone: taught wrong on 22, 26
    known = known_squares_doubted(held, stories, further=further_from({SHOWN: 0, ONE: 1, TWO: 2}, 6))
    assert known is not None
    assert known[21] == "?" and known[25] == "?"
    assert all(k in ("?", t) for k, t in zip(known, THREE))


def test_a_board_past_the_stories_that_fits_no_better_is_no_doubt() -> None:
    """Kingplay 70096: under an arm, boards a ply on that fit within the margin but worse than
    the best story only take known squares away, and with them what the reader was sure of."""
    held = frame(TWO)
    held.p[25] = held.p[21] = 0.0
    held.p[25, LABELS.index("d")] = held.p[21, LABELS.index(".")] = 0.55  # 26-22 a hair less likely
    held.p[25, LABELS.index(".")] = held.p[21, LABELS.index("d")] = 0.45
    stories = [SHOWN, ONE, TWO]
    assert known_squares_doubted(held, stories, further=further_from({SHOWN: 0, ONE: 1, TWO: 2}, 6)) == TWO


def test_where_boards_past_the_stories_are_too_many_nothing_is_known() -> None:
    held = frame(TWO)

    def endless(board: str) -> list[str]:
        return [f"{board[:31]}{chr(0x100 + k)}" for k in range(MOST_WEIGHED + 1)]  # all fit as well
    assert known_squares_doubted(held, [TWO], further=endless) is None


def test_a_board_past_the_stories_whose_way_fits_worse_than_the_best_makes_its_squares_unknown() -> None:
    """Kingplay 70104: 8-11 then 29x8 unseen; the board after 8-11 fits the frame no better
    than the stories' best (the man it moved is taken by the next ply), the board after 29x8
    far better. Weighed only from boards that fit better than the best, the weighing stopped
    at 8-11 and the reader was taught the stories' best whole."""
    into = moved(TWO, 7, 11)  # a man moved into a capture
    taken = moved(into[:10] + "." + into[11:], 26, 22)  # taken, the taker on 22
    decoys = [moved(TWO, 6, 10), moved(TWO, 8, 12)]
    plies = {SHOWN: 0, ONE: 1, TWO: 2, into: 3}

    def further(board: str) -> list[str]:
        return {TWO: [into, *decoys], into: [taken]}.get(board, []) if plies.get(board, 6) < 6 else []
    known = known_squares_doubted(frame(taken), [SHOWN, ONE, TWO], further=further)
    assert known is not None
    assert known[6] == "?" and known[21] == "?" and known[25] == "?"  # 7, 22, 26 not taught
    assert all(k in ("?", t) for k, t in zip(known, taken))
