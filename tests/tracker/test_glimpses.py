"""The game goes on when the reading wavers (issue #42, items 2-3): plies glimpsed between hands.

Kingplay 70002 (10 plies) stopped after its 5th ply: the next plies were each read once
between hands (a hand over the board for most of every ply), the kings read as men and
back, and the board three plies on was read in short bursts broken by covered frames.
No streak lasted: the tracker recorded nothing for the rest of the game. A stretch in
which no reading was followed is a gap, and the readings met on the way (the glimpses)
tell in which order its plies were played.
"""

from __future__ import annotations

import pytest

from makhos.engine import Piece, Position
from makhos.engine.game import Game
from makhos.events import EventKind
from makhos.events.details import IrregularityKind, MovePlayed
from makhos.tracker import GameTracker, TrackerConfig

from feed import Feed, after, flickering, seen_then_unseen, started, wavering


def boards_of(start: Position, line: str) -> list[Position]:
    """The position after each ply of ``line``."""
    game = Game(start=start)
    for text in line.split():
        game.play_text(text)
    return game.positions()[1:]


def glimpsed_then_seen(feed: Feed, boards: list[Position], hand: int = 45) -> None:
    """Each board but the last read once between hands that stay 1.5 s, kings flickering;
    the last read in short bursts, past any misread's patience."""
    for board in boards[:-1]:
        feed.hand(hand)
        flickering(feed, board, [1], hand=0)
    feed.hand(hand)
    flickering(feed, boards[-1], [3, 1, 2, 1, 4, 3, 2, 5, 3, 4])


def moves_of(feed: Feed) -> list[str]:
    return [m.move for m in feed.tracker.logged_game.current.moves]


#: The board of kingplay 70002 after its 5th ply (light to move) and the three plies that
#: came each glimpsed once: light's king 3-7, dark's king 30-23, light's man 9-14. The same
#: plies in another order, 9-14 30-23 3-7, leave the same board.
KINGPLAY_70002 = "W:W1,2,K3,K4,6,8,9,11:B22,24,25,27,28,K29,K30,31"


@pytest.mark.parametrize("line", ["3-7 30-23 9-14", "9-14 30-23 3-7"])
def test_plies_glimpsed_between_hands_with_kings_flickering_are_recorded_in_the_order_seen(line: str) -> None:
    start = Position.from_fen(KINGPLAY_70002)
    feed = Feed(GameTracker("b1", config=TrackerConfig()))
    feed.log(feed.tracker.start_from(start, 0.0))
    flickering(feed, start, [10])
    glimpsed_then_seen(feed, boards_of(start, line))
    assert moves_of(feed) == line.split()
    assert not [e for e in feed.events if e.kind in (EventKind.IRREGULARITY, EventKind.BOARD_MISMATCH)]
    assert feed.tracker.game.position == boards_of(start, line)[-1]  # the kings kept, read as men or not
    # No move time: nobody saw when each ply was made, only that it came before the next.
    assert all(isinstance(e.detail, MovePlayed) and e.detail.gap is not None and not e.detail.unconfirmed
               for e in feed.events if e.kind is EventKind.MOVE)


@pytest.mark.parametrize("line", ["25-21 5-9 28-24", "28-24 5-9 25-21"])
def test_of_the_lines_to_one_board_the_glimpses_choose(line: str) -> None:
    feed = started(Position.start().fen())
    feed.board(Position.start(), frames=10)
    glimpsed_then_seen(feed, boards_of(Position.start(), line))
    assert moves_of(feed) == line.split()


def test_with_nothing_glimpsed_the_lines_are_still_the_referees_to_choose() -> None:
    """Hands that covered every ply: the lines to the board are told apart by nothing seen,
    so they are a notice listing them, as after any gap."""
    feed = started(Position.start().fen())
    feed.board(Position.start(), frames=10)
    feed.hand(150)
    flickering(feed, boards_of(Position.start(), "25-21 5-9 28-24")[-1], [3, 1, 2, 1, 4])
    (notice,) = [e for e in feed.events if e.kind is EventKind.IRREGULARITY]
    assert set(notice.detail.lines) == {"25-21 5-9 28-24", "28-24 5-9 25-21"}
    assert moves_of(feed) == []


def test_a_board_three_plies_on_soon_after_the_last_one_followed_is_no_gap() -> None:
    """Glimpsed plies make a gap only once ``gap_after`` passed without a reading followed:
    three plies in a second and a half are a board that does not match, not three moves."""
    feed = started(Position.start().fen())
    feed.board(Position.start(), frames=10)
    glimpsed_then_seen(feed, boards_of(Position.start(), "25-21 5-9 28-24"), hand=10)
    assert moves_of(feed) == []
    assert [e.kind for e in feed.events if e.kind is not EventKind.CLOCK] == [EventKind.BOARD_MISMATCH]


def test_a_chain_that_rests_between_hands_is_a_chain_stopped_once_its_patience_passed() -> None:
    """Kingplay 70002's 17x26 rested 3 s on its first landing, read in short runs between
    covered frames: it rests from when it was first read so, not from the last hand."""
    fen = "B:W2,3,7,14,22,12:BK29,23,27,31,32"  # dark's king must take 29x18x9
    position = Position.from_fen(fen)
    chain = next(m for m in position.legal_moves() if str(m).startswith("29x18"))
    pieces = position.pieces()
    pieces[chain.path[1]] = pieces.pop(chain.start)
    pieces.pop(chain.captured[0])
    feed = started(fen)
    feed.hand()
    events = flickering(feed, Position.from_pieces(pieces, position.turn.opponent), [4] * 8, hand=10)
    (alert,) = [e for e in events if e.kind is EventKind.IRREGULARITY]
    assert alert.detail.rule is IrregularityKind.PARTIAL_CHAIN and alert.move == "29x18"


#: Kingplay 70117 before its arm came to rest on the board (dark to move): dark's 31-27 and
#: 24-19, light's 9-14 and king 2-16 were made under it, read again only after it left. Either
#: dark ply may come first, and either light one: four lines lead to the same board.
KINGPLAY_70117 = after("B:W1,K2,K3,K4,5,6,7,8:B25,26,27,28,K29,K30,K31,32", "27-24 7-10 26-23 5-9")


def under_an_arm(feed: Feed, boards: list[Position], glimpsed: bool = True) -> None:
    """Each board but the last made under an arm resting on the board, that hides square 3
    (read there as a dark man) and keeps every frame covered: glimpsed through it once the
    hand that played is gone (``GameTracker.glimpse``); the last read after the arm left."""
    for board in boards[:-1]:
        feed.hand(60)
        if glimpsed:
            feed.tracker.glimpse(wavering(board, feed.time, misread={3: Piece.DARK_MAN}))
    feed.hand(60)
    feed.board(boards[-1], frames=30)


@pytest.mark.parametrize("line", ["31-27 9-14 24-19 2-16", "24-19 9-14 31-27 2-16", "31-27 2-16 24-19 9-14"])
def test_plies_made_under_an_arm_are_recorded_in_the_order_glimpsed_through_it(line: str) -> None:
    feed = seen_then_unseen(KINGPLAY_70117.fen(), frames=0)
    under_an_arm(feed, boards_of(KINGPLAY_70117, line))
    assert moves_of(feed) == line.split()
    moves = [e for e in feed.events if e.kind is EventKind.MOVE]
    assert all(e.detail.gap is not None and not e.detail.unconfirmed for e in moves)
    assert "unconfirmed" not in feed.tracker.logged_game.current.pdn()


def test_plies_made_under_an_arm_never_glimpsed_are_the_likeliest_line_and_said_unconfirmed() -> None:
    feed = seen_then_unseen(KINGPLAY_70117.fen(), frames=0)
    under_an_arm(feed, boards_of(KINGPLAY_70117, "31-27 9-14 24-19 2-16"), glimpsed=False)
    moves = [e for e in feed.events if e.kind is EventKind.MOVE]
    assert len(moves) == 4 and all(e.detail.unconfirmed for e in moves)


def test_a_glimpse_through_a_cover_is_no_sight_of_the_board() -> None:
    """Glimpses alone are never a board to explain: a ply glimpsed through an arm that never
    left is not recorded."""
    feed = seen_then_unseen(KINGPLAY_70117.fen(), frames=0)
    for _ in range(10):
        feed.hand(30)
        feed.tracker.glimpse(wavering(after(KINGPLAY_70117.fen(), "31-27"), feed.time))
    assert moves_of(feed) == [] and feed.tracker.game.position == KINGPLAY_70117
