"""The one tally of readings: what counts as wrong, and how boards are counted."""

import numpy as np

from lab.tally import Tally


def labels(text: str) -> np.ndarray:
    return np.array(list(text))


def test_occupancy_side_and_kind_errors_are_told_apart() -> None:
    tally = Tally()
    bad = tally.add(labels("l.dLDd"), labels(".ldLdD"))
    assert bad.tolist() == [True, True, False, False, True, True]
    assert (tally.occupancy_wrong, tally.side_wrong, tally.kind_wrong) == (2, 0, 2)
    assert tally.kinds == 4 and tally.wrong == 4 and tally.boards_right == 0


def test_kings_not_scored_where_the_set_has_no_stacked_kings() -> None:
    tally = Tally()
    bad = tally.add(labels("Ll"), labels("lL"), kinds=False)
    assert bad.tolist() == [False, True]  # a sticker king read as a man is no error; a man as a king is


def test_unseen_and_unscored_squares_do_not_count() -> None:
    tally = Tally()
    tally.add(labels("?l.d"), labels("dl.l"), scored=np.array([True, True, True, False]))
    assert tally.squares == 2 and tally.wrong == 0 and tally.boards_right == 1


def test_a_board_with_both_sides_named_the_other_way_round_is_swapped() -> None:
    swapped, merged = Tally(), Tally()
    swapped.add(labels("ld.L"), labels("dl.D"))
    assert swapped.swapped == 1 and swapped.boards_sides_right == 0
    one_missed = Tally()
    one_missed.add(labels("ld.L"), labels("d..D"))
    assert one_missed.swapped == 0
    merged.merge(swapped)
    merged.merge(one_missed)
    assert merged.boards == 2 and merged.wrong == swapped.wrong + one_missed.wrong
    assert len(merged.failures) == 2
