"""An alerted attempt is neither taken back nor played on by a glimpse (issue #42, item 3).

Both failures came from held-out kingplay renders in dim light: a board glimpsed between two
passes of a hand, four squares off, read as the alerted king back home and the reply made
twice; and the very readings that raised an alert read, a moment later with no hand, as the
alert's board played on. A reply is a change of the board, and an attempt taken back plus a
new irregularity is two acts, rarer than a misread that lasts a glimpse.
"""

from __future__ import annotations

from makhos.engine import Piece, Position
from makhos.events import EventKind

from makhos.vision.reading import CLASS_INDEX, Reading

from feed import started, wavering

#: Dark to move; after 25-22 light's king must take 14x27, and plays 14-21 instead.
BEFORE = "B:W1,2,K4,5,8,9,11,K14:B19,23,25,26,K29,K30,31,32"
ALERTED = "B:W1,2,K4,5,8,9,11,K21:B19,22,23,26,K29,K30,31,32"  # after 25-22 14-21
#: The glimpse: the king read back on 14 (and the reply 22-17 made), as if light had taken
#: its attempt back and dark then moved twice.
GLIMPSE = "W:W1,2,K4,5,8,9,11,K14:B17,19,23,26,K29,K30,31,32"
#: The truth after the reply 22-17 and light's king taking 21x14x27 (17 and 23).
AFTER = "B:W1,2,K4,5,8,9,11,K27:B19,26,K29,K30,31,32"


def test_a_glimpse_between_hands_does_not_take_an_alerted_attempt_back():
    feed = started(BEFORE)
    feed.hand()
    feed.board("W:W1,2,K4,5,8,9,11,K14:B19,22,23,26,K29,K30,31,32", 30)  # 25-22
    feed.hand()
    alerted = feed.board(ALERTED, 30)
    assert [e.move for e in alerted if e.kind is EventKind.IRREGULARITY] == ["14-21"]
    feed.hand(30)
    glimpsed = feed.board(GLIMPSE, 2)
    feed.hand(30)
    feed.board(AFTER, 120)
    assert not [e for e in glimpsed if e.kind is EventKind.IRREGULARITY]
    moves = [(m.move, m.irregular is not None) for m in feed.tracker.logged_game.current.moves]
    assert moves == [("25-22", False), ("14-21", True), ("22-17", False), ("21x14x27", False)]


#: Dark to move, 25x18 or 31x17 due; its king plays 30-23 instead. The square it left reads
#: as holding a light king, and light's man on 22 is read unsure: then light's 22-26 and
#: 26-30 crowned fit the reads better than the alert's board does.
KING_LEFT = "B:W1,K2,K3,K4,5,7,10,22:B20,25,27,K29,K30,K31,32"
KING_ALERTED = "W:W1,K2,K3,K4,5,7,10,22:B20,K23,25,27,K29,K31,32"


def test_the_board_that_raised_an_alert_is_not_also_the_reply_to_it():
    feed = started(KING_LEFT)
    feed.hand()
    events = []
    for _ in range(90):  # three seconds, no hand
        feed.time += 1 / 30
        p = wavering(Position.from_fen(KING_ALERTED), feed.time, misread={30: Piece.LIGHT_KING},
                     kings_as_men=False).probabilities
        p[21] = 0.01
        p[21, CLASS_INDEX[Piece.LIGHT_MAN]], p[21, CLASS_INDEX[None]] = 0.3, 0.67
        events += feed.log(feed.tracker.observe(feed.time, Reading(feed.time, p)))
    said = [(e.kind, e.move) for e in events if e.kind is not EventKind.CLOCK]
    assert said == [(EventKind.IRREGULARITY, "30-23")]
    assert feed.tracker.alert is not None and feed.tracker.alert.move == "30-23"
