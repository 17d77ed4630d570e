"""Perft against RULES.md's reference counts, and the ``makhos perft`` command.

The counts are distinct move paths, so they check chains, captured-piece handling and
crowning as well as the plain moves. The whole file runs in a few seconds: depth 8
without a table (~4 s) is the slow one; deeper counts use the transposition table.
"""

from __future__ import annotations

import pytest

from makhos.cli.main import main
from makhos.engine import CapturedRemoval, Position, Rules
from makhos.engine.perft import divide, perft
from makhos.engine.squares import BOARD_MASK

IMMEDIATE = Rules(captured_removal=CapturedRemoval.IMMEDIATE)
TWELVE_MEN = Rules(men_per_side=12, captured_removal=CapturedRemoval.IMMEDIATE)

#: RULES.md, "Reference move counts": standard 8-man start, dark to move.
START = {1: 7, 2: 49, 3: 392, 4: 3_136, 5: 26_592, 6: 218_695, 7: 1_820_189,
         8: 14_533_014, 9: 114_530_830}
#: RULES.md: the 12-man start with immediate removal.
START_12 = {1: 7, 2: 49, 3: 302, 4: 1_469, 5: 7_361, 6: 36_768, 7: 179_740,
            8: 845_931, 9: 3_963_648}
#: What depth 8 would give if a king could land on any empty square behind its capture.
LANDING_ANYWHERE_DEPTH_8 = 14_533_542


@pytest.mark.parametrize("depth", range(1, 9))
def test_perft_from_the_start(depth):
    assert perft(Position.start(), depth) == START[depth]


@pytest.mark.parametrize("depth", range(1, 7))
def test_perft_twelve_man_start_with_immediate_removal(depth):
    assert perft(Position.start(TWELVE_MEN), depth, TWELVE_MEN) == START_12[depth]


def test_perft_with_a_transposition_table_counts_the_same():
    start = Position.start()
    assert [perft(start, d, table=True) for d in range(1, 10)] == [START[d] for d in range(1, 10)]
    twelve = Position.start(TWELVE_MEN)
    assert [perft(twelve, d, TWELVE_MEN, table=True) for d in range(1, 10)] == [
        START_12[d] for d in range(1, 10)
    ]


def test_captured_removal_does_not_change_the_first_plies():
    """RULES.md: the two settings first differ at depth 12 from the 8-man start."""
    assert [perft(Position.start(), d, IMMEDIATE) for d in range(1, 7)] == [START[d] for d in range(1, 7)]


def test_king_landing_rule_shows_at_depth_8(monkeypatch, pure_engine):
    """A king that could land anywhere behind its capture gives RULES.md's wrong figure.

    This proves the depth-8 reference count actually checks the landing rule: the same
    generator with only the landing changed agrees up to depth 7 and differs at 8. It
    patches the Python source's generator: compiled code calls its own functions directly.
    """

    def land_anywhere(origin, at, landings, captured, occupied, theirs, immediate, out):
        extended = False
        for step in (-4, -5, 4, 5):
            over = at + step
            while 0 <= over < 35 and (BOARD_MASK >> over) & 1 and not (occupied >> over) & 1:
                over += step
            if not (0 <= over < 35) or not (theirs >> over) & 1 or (captured >> over) & 1:
                continue
            bit = 1 << over
            land = over + step
            while 0 <= land < 35 and (BOARD_MASK >> land) & 1 and not (occupied >> land) & 1:
                extended = True
                land_anywhere(origin, land, landings + (land,), captured | bit,
                              occupied & ~bit if immediate else occupied, theirs, immediate, out)
                land += step
        if not extended and landings:
            out.append((origin, landings, captured))

    monkeypatch.setattr(pure_engine.movegen, "_king_chains", land_anywhere)
    start = pure_engine.Position.start()
    assert pure_engine.perft.perft(start, 7, table=True) == START[7]
    assert pure_engine.perft.perft(start, 8, table=True) == LANDING_ANYWHERE_DEPTH_8


def _perft_by_play(position: Position, depth: int, rules: Rules) -> int:
    """Perft through the public Move / Position.play path instead of raw bitboards."""
    if depth == 0:
        return 1
    return sum(_perft_by_play(position.play(m), depth - 1, rules) for m in position.legal_moves(rules))


@pytest.mark.parametrize("rules", [Rules(), IMMEDIATE], ids=["end_of_turn", "immediate"])
@pytest.mark.parametrize(
    ("fen", "depth"),
    [
        ("B:W1,2,3,4,5,6,7,8:B25,26,27,28,29,30,31,32", 4),
        ("B:BK18:W15,22", 3),
        ("W:WK2,K3,9,10,14:BK30,K31,21,22,23", 3),
        ("B:WK4,6,7,15,22:BK29,9,27,28", 3),
    ],
)
def test_moves_played_through_positions_count_the_same(fen, depth, rules):
    """Move objects and Position.play agree with the bitboard perft, captures included."""
    position = Position.from_fen(fen)
    assert _perft_by_play(position, depth, rules) == perft(position, depth, rules)


def test_divide_sums_to_perft():
    split = divide(Position.start(), 4)
    assert set(split) == {"25-21", "25-22", "26-22", "26-23", "27-23", "27-24", "28-24"}
    assert sum(split.values()) == START[4]


def test_perft_depth_zero_and_negative():
    assert perft(Position.start(), 0) == 1
    with pytest.raises(ValueError):
        perft(Position.start(), -1)


# ------------------------------------------------------------------ makhos perft


def test_cli_perft_prints_one_line_per_depth(capsys):
    assert main(["perft", "4"]) == 0
    assert capsys.readouterr().out == "1 7\n2 49\n3 392\n4 3136\n"


def test_cli_perft_twelve_men_immediate(capsys):
    assert main(["perft", "5", "--men", "12", "--rules", '{"captured_removal": "immediate"}']) == 0
    assert capsys.readouterr().out.split("\n")[:5] == ["1 7", "2 49", "3 302", "4 1469", "5 7361"]


def test_cli_perft_from_a_fen_with_a_rules_setting(capsys):
    assert main(["perft", "1", "--fen", "B:BK18:W15,22"]) == 0
    assert capsys.readouterr().out == "1 2\n"
    assert main(["perft", "2", "--fen", "B:BK18:W15,22", "--rules", '{"captured_removal": "immediate"}']) == 0
    assert capsys.readouterr().out == "1 2\n2 0\n"  # the king took both: light has no move


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["perft", "2", "--fen", "B:W1,1:B2"], "makhos perft: error: malformed FEN 'B:W1,1:B2': square 1 given twice"),
        (["perft", "2", "--fen", "nonsense"], "makhos perft: error: malformed FEN 'nonsense'"),
        (["perft", "0"], "makhos perft: error: DEPTH must be at least 1"),
        (["perft", "2", "--rules", '{"captured_removal": "never"}'], "makhos perft: error: bad value for captured_removal"),
        (["perft", "2", "--rules", "{not json"], "makhos perft: error: --rules is not valid JSON"),
        (["perft", "2", "--rules", '{"kings_fly": false}'], "makhos perft: error: unknown rule settings: kings_fly"),
        (["perft", "2", "--rules", '{"golden_board": "2"}'], "makhos perft: error: bad value for golden_board"),
    ],
)
def test_cli_perft_bad_input_exits_2_with_a_clear_message(capsys, argv, message):
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(message)
