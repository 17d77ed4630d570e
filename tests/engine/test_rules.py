"""Every rule of RULES.md about moves, captures and set-ups, one test per rule.

Positions are written in PDN FEN (``B:W..:B..``, ``K`` for a king). Dark sits on 25-32
and moves toward square 1; light moves toward square 32. Square geometry, seen from dark:
row 0 holds 1-4, row 7 holds 29-32, and square 29 is dark's left corner.

The last part checks the bitboard generator against a slow one written straight from the
rules on a grid, on random positions and random games, so that a rule the hand-built
positions miss still cannot drift.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from makhos.engine import CapturedRemoval, Colour, Move, Piece, Position, Rules, Setup
from makhos.engine.squares import BIT, SQUARES, row_col, square_at

END_OF_TURN = Rules()
IMMEDIATE = Rules(captured_removal=CapturedRemoval.IMMEDIATE)


def moves(fen: str, rules: Rules = END_OF_TURN) -> set[str]:
    """The legal moves of a position in full-path PDN notation."""
    return {str(m) for m in Position.from_fen(fen).legal_moves(rules)}


def move(fen: str, text: str, rules: Rules = END_OF_TURN) -> Move:
    """The one legal move written ``text`` (full path)."""
    found = [m for m in Position.from_fen(fen).legal_moves(rules) if str(m) == text]
    assert len(found) == 1, f"{text} is not a legal move in {fen}"
    return found[0]


# ------------------------------------------------------------------ men


def test_man_moves_one_square_diagonally_forward():
    # Dark man on 22 (row 5): forward is toward row 4, squares 17 and 18.
    assert moves("B:W1:B22") == {"22-17", "22-18"}
    # On the edge only one forward diagonal exists.
    assert moves("B:W1:B29") == {"29-25"}


def test_man_never_moves_backward():
    # Both forward squares of 22 are taken by its own men; 25 and 26 behind are empty.
    legal = moves("B:W1:B17,18,22")
    assert not any(m.startswith("22-") for m in legal)
    assert "22-25" not in legal and "22-26" not in legal


def test_light_men_move_toward_32():
    assert moves("W:W10:B32") == {"10-14", "10-15"}
    # A light man on the first rows never steps back toward 1-4.
    assert moves("W:W14,15,10:B32") == {"14-17", "14-18", "15-18", "15-19"}


def test_man_captures_forward():
    assert moves("B:W18:B22") == {"22x15"}
    assert moves("W:W15:B18") == {"15x22"}


def test_men_never_capture_backward():
    # Dark man on 18 with a light man behind it on 22 and 25 empty: no capture, plain moves.
    assert moves("B:W22:B18") == {"18-14", "18-15"}
    # Light man on 15 with a dark man behind it (toward 1) on 11 and 8 empty.
    assert moves("W:W15:B11") == {"15-18", "15-19"}


def test_man_chain_continues_forward_only():
    # 22x15 then 15x8 over 11 (forward); the light man on 19 beside 15 can't be taken backward.
    assert moves("B:W11,18,19:B22") == {"22x15x8"}


# ------------------------------------------------------------------ kings


def test_king_flies_any_distance():
    assert moves("B:W1:BK29") == {f"29-{s}" for s in (25, 22, 18, 15, 11, 8, 4)}
    # From the centre a king flies along all four diagonals, forward and backward.
    assert moves("B:W1:BK18") == {
        f"18-{s}" for s in (14, 9, 5, 15, 11, 8, 4, 22, 25, 29, 23, 27, 32)
    }


def test_king_flight_stops_before_any_piece():
    # Its own man on 15, then two light men in a row on 15 and 11: the flight ends short.
    assert {m for m in moves("B:W1:BK29,15") if m.startswith("29")} == {"29-25", "29-22", "29-18"}
    assert moves("B:W15,11:BK29") == {"29-25", "29-22", "29-18"}


def test_king_captures_from_a_distance():
    assert moves("B:W15:BK29") == {"29x11"}


def test_king_lands_only_immediately_behind_the_captured_piece():
    # 11, 8 and 4 are all empty behind the light man on 15: only 11 is a landing.
    legal = moves("B:W15:BK29")
    assert legal == {"29x11"}
    assert not legal & {"29x8", "29x4"}
    # With its own king right behind the light man there is no capture at all, even
    # though 8 and 4 further on are empty.
    assert all("x" not in m for m in moves("B:W15:BK29,11"))


def test_king_chain_turns_on_its_landing_square():
    # 29x11 lands right behind 15, and from 11 only (never from 8 or 4) takes 7 on to 2.
    assert moves("B:W15,7:BK29") == {"29x11x2"}


def test_light_king_flies_and_captures_toward_1():
    assert moves("W:WK4:B30") == {f"4-{s}" for s in (8, 11, 15, 18, 22, 25, 29)}
    assert moves("W:WK4:B18") == {"4x22"}


# ------------------------------------------------------------------ captures


def test_no_jump_over_two_pieces_in_a_row():
    # Two light men on one diagonal: neither a man nor a king can take them.
    assert all("x" not in m for m in moves("B:W18,15:B22"))
    assert all("x" not in m for m in moves("B:W18,15:BK29"))
    # An enemy piece followed by one of the king's own side blocks too.
    assert all("x" not in m for m in moves("B:W18:BK29,15"))


def test_no_double_jump_over_one_piece():
    # After 18x11 the king could fly back over 15 to 18 if a piece could be taken twice.
    for rules in (END_OF_TURN, IMMEDIATE):
        assert moves("B:W15:BK18", rules) == {"18x11"}
        assert move("B:W15:BK18", "18x11", rules).captured == (15,)


def test_captured_pieces_stay_until_the_chain_ends():
    # RULES.md: end of turn gives 18x11 and 18x25 only; immediate 18x11x25 and 18x25x11.
    assert moves("B:BK18:W15,22") == {"18x11", "18x25"}
    assert moves("B:BK18:W15,22", IMMEDIATE) == {"18x11x25", "18x25x11"}


def test_immediate_removal_takes_both_pieces_when_the_king_turns_back():
    # Regression: the second jump flies over the square emptied by the first; the piece
    # taken is the one right before the landing, not the first captured square on the way.
    position = Position.from_fen("B:BK18:W15,22")
    there = move("B:BK18:W15,22", "18x11x25", IMMEDIATE)
    back = move("B:BK18:W15,22", "18x25x11", IMMEDIATE)
    assert there.captured == (15, 22) and back.captured == (22, 15)
    assert position.play(there).fen() == "W:W:BK25"
    assert position.play(back).fen() == "W:W:BK11"


def test_capture_is_compulsory():
    # The man on 29 could step to 25, but 22 can take 18: only the capture is legal.
    assert moves("B:W18:B22,29") == {"22x15"}
    # A capture by a king far away still forbids every plain move of the men.
    assert moves("B:W11:B30,31,K4") == {"4x15"}


def test_no_majority_rule():
    # 22x15x8 takes two, 28x19 takes one: both are legal.
    legal = moves("B:W18,11,24:B22,28")
    assert legal == {"22x15x8", "28x19"}


def test_chain_must_continue_to_its_end():
    legal = moves("B:W18,11,24:B22,28")
    assert "22x15" not in legal  # stopping on 15 while 15x8 is open is not a move
    king = moves("B:W15,7:BK29")
    assert "29x11" not in king


def test_two_routes_between_the_same_squares_are_two_moves():
    # 27 reaches 11 over 23 and 15, or over 24 and 16: one short form, two moves.
    legal = Position.from_fen("B:W15,16,23,24:B27").legal_moves()
    assert {str(m) for m in legal} == {"27x18x11", "27x20x11"}
    assert {m.short() for m in legal} == {"27x11"}


# ------------------------------------------------------------------ crowning


def test_a_man_reaching_the_far_row_is_crowned_and_the_turn_passes():
    position = Position.from_fen("B:W12:B5")
    crowning = move("B:W12:B5", "5-1")
    assert crowning.crowns
    after = position.play(crowning)
    assert after.piece_at(1) is Piece.DARK_KING and after.turn is Colour.LIGHT
    light = Position.from_fen("W:W28:B5")
    after = light.play(move("W:W28:B5", "28-32"))
    assert after.piece_at(32) is Piece.LIGHT_KING and after.turn is Colour.DARK


def test_a_king_moving_to_the_far_row_does_not_crown_again():
    assert not move("B:W12:BK5", "5-1").crowns


def test_promotion_stops_the_chain():
    # 9x2 crowns; as a king on 2 it could take 7 (2x11), but the turn ends at once.
    assert moves("B:W6,7:B9") == {"9x2"}
    crowning = move("B:W6,7:B9", "9x2")
    assert crowning.crowns and crowning.captured == (6,)
    after = Position.from_fen("B:W6,7:B9").play(crowning)
    assert after.turn is Colour.LIGHT and after.piece_at(7) is Piece.LIGHT_MAN


def test_a_new_king_moves_as_a_king_on_the_next_turn():
    after = Position.from_fen("B:W12:B5").play(move("B:W12:B5", "5-1"))
    after = after.play(move(after.fen(), "12-16"))
    assert moves(after.fen()) == {f"1-{s}" for s in (5, 6, 10, 15, 19, 24, 28)}


# ------------------------------------------------------------------ set-ups


def test_standard_start():
    start = Position.start()
    assert start.fen() == "B:W1,2,3,4,5,6,7,8:B25,26,27,28,29,30,31,32"
    assert start.turn is Colour.DARK and not start.kings
    assert moves(start.fen()) == {"25-21", "25-22", "26-22", "26-23", "27-23", "27-24", "28-24"}


def test_the_first_mover_is_a_setting():
    assert Position.start(Rules(first_mover=Colour.LIGHT)).turn is Colour.LIGHT


def test_twelve_man_start():
    start = Position.start(Rules(men_per_side=12))
    assert start.fen() == (
        "B:W1,2,3,4,5,6,7,8,9,10,11,12:B21,22,23,24,25,26,27,28,29,30,31,32"
    )


@pytest.mark.parametrize(
    ("setup", "light_kings", "dark_kings"),
    [
        (Setup.ONE_KING, {4}, {29}),
        (Setup.TWO_KINGS, {3, 4}, {29, 30}),
        (Setup.THREE_KINGS, {2, 3, 4}, {29, 30, 31}),
    ],
)
def test_special_event_setups(setup, light_kings, dark_kings):
    """PEA 2005 §11: the kings replace men on the back rows, 8 pieces a side."""
    pieces = Position.start(Rules(setup=setup)).pieces()
    light = {s for s, p in pieces.items() if p.colour is Colour.LIGHT}
    dark = {s for s, p in pieces.items() if p.colour is Colour.DARK}
    assert light == set(range(1, 9)) and dark == set(range(25, 33))
    assert {s for s, p in pieces.items() if p is Piece.LIGHT_KING} == light_kings
    assert {s for s, p in pieces.items() if p is Piece.DARK_KING} == dark_kings


@pytest.mark.parametrize(
    ("board", "fen"),
    [
        (1, "B:WK2:BK31"),
        (2, "B:WK2,K3:BK30,K31"),
        (3, "B:WK2,K3,K4:BK29,K30,K31"),
    ],
)
def test_golden_board(board, fen):
    """Kings on 2 and 31, then one more each on 3 and 30 per further board."""
    assert Rules(setup=Setup.GOLDEN, golden_board=board).start_fen() == fen
    assert Position.start(Rules(setup=Setup.GOLDEN, golden_board=board)).fen() == fen


def test_special_setups_are_for_the_eight_man_game():
    with pytest.raises(ValueError, match="8-man"):
        Rules(setup=Setup.TWO_KINGS, men_per_side=12)
    with pytest.raises(ValueError):
        Rules(men_per_side=10)
    with pytest.raises(ValueError):
        Rules(setup=Setup.GOLDEN, golden_board=0)


# ------------------------------------------------------------------ FEN


@pytest.mark.parametrize(
    "fen",
    [
        "B:W1,2,3,4,5,6,7,8:B25,26,27,28,29,30,31,32",
        "W:WK2,K3,9:B17,K30",
        "B:W:BK18",
        "W:W15,22:B",
        "B:W:B",
    ],
)
def test_fen_round_trip(fen):
    assert Position.from_fen(fen).fen() == fen
    assert Position.from_fen(Position.from_fen(fen).fen()) == Position.from_fen(fen)


def test_fen_accepts_ranges_lower_case_spaces_and_a_closing_period():
    expected = Position.from_fen("B:W1,2,3,4:BK29,K30,31")
    assert Position.from_fen("B:W1-4:BK29,K30,31") == expected
    assert Position.from_fen("b:w1-4:bk29,k30,31") == expected
    assert Position.from_fen(" B : W1, 2, 3, 4 : BK29, K30, 31 ") == expected
    assert Position.from_fen("B:W1-4:BK29,K30,31.") == expected  # regression: PDN's period


@pytest.mark.parametrize(
    ("fen", "reason"),
    [
        ("", "malformed"),
        ("X:W1:B2", "malformed"),
        ("B;W1;B2", "malformed"),
        ("B:W0:B2", "no square 0"),
        ("B:W1:B33", "no square 33"),
        ("B:W1,1:B2", "given twice"),
        ("B:W5:B5", "given twice"),
        ("B:Wx:B2", "bad square"),
        ("B:WK:B2", "bad square"),
        ("B:W1-2-3:B9", "bad square"),
        ("B:W1:B2:W3", "malformed"),
    ],
)
def test_malformed_fen_is_a_clear_value_error(fen, reason):
    with pytest.raises(ValueError, match=reason):
        Position.from_fen(fen)


def test_nonsense_positions_are_refused():
    with pytest.raises(ValueError, match="both"):
        Position(dark=BIT[5], light=BIT[5], kings=0, turn=Colour.DARK)
    with pytest.raises(ValueError, match="off the played squares"):
        Position(dark=1 << 8, light=0, kings=0, turn=Colour.DARK)  # bit 8 is a ghost
    with pytest.raises(ValueError, match="king without a piece"):
        Position(dark=BIT[5], light=0, kings=BIT[6], turn=Colour.DARK)
    with pytest.raises(ValueError, match="no square"):
        Position.from_pieces({0: Piece.DARK_MAN}, Colour.DARK)


# ------------------------------------------------------------------ rule settings


def test_rules_from_dict_refuses_unknown_keys():
    with pytest.raises(ValueError, match="unknown rule settings: captured_remvoal"):
        Rules.from_dict({"captured_remvoal": "immediate"})


def test_rules_from_dict_refuses_bad_values():
    with pytest.raises(ValueError, match="captured_removal"):
        Rules.from_dict({"captured_removal": "never"})
    with pytest.raises(ValueError, match="setup"):
        Rules.from_dict({"setup": "four-kings"})
    # Regressions: a number as a string raised a bare TypeError, and a lone string
    # became a forced opening of single characters ("2", "2", "-", ...).
    with pytest.raises(ValueError, match="golden_board"):
        Rules.from_dict({"golden_board": "2"})
    with pytest.raises(ValueError, match="men_per_side"):
        Rules.from_dict({"men_per_side": True})
    with pytest.raises(ValueError, match="forced_opening"):
        Rules.from_dict({"forced_opening": "22-18"})
    assert Rules.from_dict({"forced_opening": ["22-18"]}).forced_opening == ("22-18",)


def test_rules_dict_round_trip():
    rules = Rules(
        men_per_side=8,
        setup=Setup.GOLDEN,
        golden_board=2,
        first_mover=Colour.LIGHT,
        captured_removal=CapturedRemoval.IMMEDIATE,
        forced_opening=("22-18", "11-15"),
    )
    assert Rules.from_dict(rules.to_dict()) == rules
    assert Rules.from_dict({}) == Rules()


# ------------------------------------------------------------------ a plain reading of the rules

_DIAGONALS = ((-1, -1), (-1, 1), (1, -1), (1, 1))


def _forward(colour: Colour) -> int:
    return -1 if colour is Colour.DARK else 1


def reference_moves(position: Position, rules: Rules) -> set[tuple[tuple[int, ...], tuple[int, ...], bool]]:
    """Every legal move as (path, captured, crowns), by walking the grid square by square.

    Deliberately slow and literal, sharing nothing with the bitboard generator but the
    square numbering.
    """
    board = position.pieces()
    side = position.turn
    immediate = rules.captured_removal is CapturedRemoval.IMMEDIATE
    far_row = 0 if side is Colour.DARK else 7
    chains: set = set()

    def walk(at, king, rest, path, taken):
        row, col = row_col(at)
        directions = _DIAGONALS if king else ((_forward(side), -1), (_forward(side), 1))
        extended = False
        for dr, dc in directions:
            k = 1
            while king and (s := square_at(row + k * dr, col + k * dc)) is not None and s not in rest:
                k += 1
            over = square_at(row + k * dr, col + k * dc)
            if over is None or over not in rest or rest[over].colour is side or over in taken:
                continue
            land = square_at(row + (k + 1) * dr, col + (k + 1) * dc)
            if land is None or land in rest:
                continue
            extended = True
            after = {s: p for s, p in rest.items() if s != over} if immediate else rest
            if not king and row_col(land)[0] == far_row:
                chains.add((path + (land,), taken + (over,), True))
            else:
                walk(land, king, after, path + (land,), taken + (over,))
        if not extended and taken:
            chains.add((path, taken, False))

    for square, piece in board.items():
        if piece.colour is side:
            rest = {s: p for s, p in board.items() if s != square}
            walk(square, piece.is_king, rest, (square,), ())
    if chains:
        return chains

    plain = set()
    for square, piece in board.items():
        if piece.colour is not side:
            continue
        row, col = row_col(square)
        directions = _DIAGONALS if piece.is_king else ((_forward(side), -1), (_forward(side), 1))
        for dr, dc in directions:
            k = 1
            while (to := square_at(row + k * dr, col + k * dc)) is not None and to not in board:
                plain.add(((square, to), (), not piece.is_king and row_col(to)[0] == far_row))
                if not piece.is_king:
                    break
                k += 1
    return plain


def reference_play(position: Position, path, taken, crowns) -> Position:
    pieces = {s: p for s, p in position.pieces().items() if s not in taken and s != path[0]}
    piece = position.piece_at(path[0])
    assert piece is not None
    pieces[path[-1]] = Piece.of(piece.colour, piece.is_king or crowns)
    return Position.from_pieces(pieces, position.turn.opponent)


def assert_agrees_with_reference(position: Position, rules: Rules) -> list[Move]:
    legal = position.legal_moves(rules)
    assert {(m.path, m.captured, m.crowns) for m in legal} == reference_moves(position, rules), position.fen()
    assert len(legal) == len({(m.path, m.captured) for m in legal}), "a move listed twice"
    for m in legal:
        assert position.play(m) == reference_play(position, m.path, m.captured, m.crowns), (position.fen(), str(m))
    return legal


_SQUARE_CONTENT = st.sampled_from([None] * 6 + list(Piece))


@st.composite
def positions(draw) -> Position:
    """Random positions; men never stand uncrowned on their own far row."""
    pieces = {}
    for square in SQUARES:
        piece = draw(_SQUARE_CONTENT)
        if piece is Piece.DARK_MAN and square <= 4:
            piece = Piece.DARK_KING
        if piece is Piece.LIGHT_MAN and square >= 29:
            piece = Piece.LIGHT_KING
        if piece is not None:
            pieces[square] = piece
    return Position.from_pieces(pieces, draw(st.sampled_from(list(Colour))))


@settings(max_examples=300, deadline=None)
@given(positions(), st.sampled_from([END_OF_TURN, IMMEDIATE]))
def test_generator_agrees_with_the_rules_on_random_positions(position, rules):
    assert_agrees_with_reference(position, rules)


@pytest.mark.parametrize("rules", [END_OF_TURN, IMMEDIATE, Rules(men_per_side=12), Rules(setup=Setup.THREE_KINGS)])
def test_generator_agrees_with_the_rules_along_random_games(rules):
    """Random games reach the endgames with several kings where long chains live."""
    dice = random.Random(2026)
    for _ in range(12):
        position = Position.start(rules)
        for _ply in range(120):
            legal = assert_agrees_with_reference(position, rules)
            if not legal:
                break
            position = position.play(dice.choice(legal))
