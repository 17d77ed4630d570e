"""The scoring of a recorded real game against its hand labels (``lab.realgames.score``):
a record that slips a ply, invents one or loses an irregular one is told apart."""

from __future__ import annotations

from pathlib import Path

from lab.realgames import RealGame, Step, score
from makhos.engine import Colour, Position
from makhos.events import EventKind, GameEvent

# Dark's 22-18, light's 9-14, light's 14-17 out of turn (irregular), dark's 21x14.
LABELS = ("........l...........dd..........", "........l........d..d...........",
          ".............l...d..d...........", "................ld..d...........",
          ".............d...d..............")


def game() -> RealGame:
    return RealGame("composed", Path("."), 12, Colour.DARK,
                    tuple(Step(f"p{k}.jpg", t) for k, t in enumerate(LABELS)))


def positions(g: RealGame, order: list[int]) -> list[Position]:
    truth = g.positions()
    return [Position.from_pieces(truth[k].pieces, Colour.DARK) for k in [0, *order]]


def alert(ply: int) -> GameEvent:
    return GameEvent(board="b", kind=EventKind.IRREGULARITY, time=0.0, ply=ply - 1, move="14-17")


def test_the_composed_game_has_its_out_of_turn_ply_irregular():
    assert game().irregular() == [3]


def test_a_perfect_record_with_its_alert_is_perfect():
    g = game()
    result = score(g, positions(g, [1, 2, 3, 4]), [alert(3)])
    assert result.perfect and (result.right, result.recorded, result.true) == (4, 4, 4)


def test_an_irregular_ply_without_its_alert_is_not_perfect():
    g = game()
    result = score(g, positions(g, [1, 2, 3, 4]), [])
    assert not result.perfect and result.alerted == 0 and result.irregular == 1


def test_a_lost_ply_shifts_the_rest_and_is_missing():
    g = game()
    result = score(g, positions(g, [1, 2, 4]), [])
    assert (result.right, result.missing, result.shifted, result.invented) == (2, 1, 1, 0)


def test_a_swallowed_irregular_ply_is_invented_and_its_alert_does_not_count():
    g = game()
    swallowed = positions(g, [1, 2])
    swallowed.append(Position.from_pieces({14: g.positions()[4].pieces[14]}, Colour.DARK))
    result = score(g, swallowed, [alert(3)])
    assert (result.right, result.invented, result.alerted) == (2, 1, 0)
