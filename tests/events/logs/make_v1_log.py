"""Write v1_log.jsonl and v1_expected.json with the code of commit eecc8e5 (before issue #19).

Kept in history only: run it against that commit (``git show <commit>:tests/events/logs/
make_v1_log.py``). It drives the tracker of the time with certain readings through a
scripted hall session (every event kind, every referee action, a bad log entry), stores
each event in an SQLite log as a worker would, and records what the server's BoardState
and a resumed tracker of the time made of the log.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from engine import Colour, Position, Rules
from engine.game import Game
from events import EventKind, GameEvent, SQLiteLog
from events import referee as ra
from server.state import BoardState
from tracker import GameTracker, TrackerConfig
from tracker.resume import resume
from vision.reading import Reading

OUT = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent)
BOARD = "7"


class Hall:
    def __init__(self) -> None:
        self.log = SQLiteLog()
        self.tracker = GameTracker(BOARD)
        self.time = 0.0
        self.wall = 1_800_000_000.0

    def store(self, events):
        return [self.log.append(e) for e in events]

    def show(self, position, frames=4, step=1 / 15):
        if isinstance(position, str):
            position = Position.from_fen(position)
        out = []
        for _ in range(frames):
            self.time += step
            out += self.store(self.tracker.observe(self.time, Reading.certain(position, self.time)))
        return out

    def hand(self, frames=6):
        out = []
        for _ in range(frames):
            self.time += 1 / 15
            out += self.store(self.tracker.observe(self.time, None))
        return out

    def wait(self, seconds, position):
        return self.show(position, frames=int(seconds), step=1.0)

    def referee(self, action, game=None):
        self.wall += 7
        game = game or max(self.tracker.game_number, 1)
        stored = self.log.append(action.to_event(BOARD, game, self.wall))
        self.tracker.decide(stored)
        return stored

    def raw(self, event):
        stored = self.log.append(event)
        if event.kind is EventKind.REFEREE:
            self.tracker.decide(stored)
        return stored

    def camera(self, status):
        self.log.append(GameEvent(BOARD, EventKind.CAMERA, self.time, game=self.tracker.game_number,
                                  ply=len(self.tracker.game.plies), detail={"status": status}))

    def alert_seq(self, kind=EventKind.IRREGULARITY):
        return [e for e in self.log.read(BOARD, limit=100000) if e.kind is kind][-1].seq


def play(hall: Hall, game: Game, text: str) -> None:
    game.play_text(text)
    hall.hand()
    hall.show(game.position)


def until_capture(hall: Hall, game: Game) -> None:
    """Quiet moves (the first listed) until the side to move must capture."""
    while not game.legal_moves()[0].is_capture:
        play(hall, game, str(game.legal_moves()[len(game.plies) % len(game.legal_moves())]))


def main() -> None:
    hall = Hall()
    hall.referee(ra.SetPlayers("Somchai", "Malee", "R3", 2), game=1)
    start = Position.start()
    hall.show(start)  # game_started
    # Light moves first: the first move decides the first mover.
    game = Game(Rules(first_mover=Colour.LIGHT))
    until_capture(hall, game)
    # The side to move must capture and plays a plain move instead (missed capture) ...
    captures = game.legal_moves()
    assert captures[0].is_capture, captures
    plain = game.position.plain_moves()[0]
    irregular = game.position.play(plain)
    hall.hand()
    hall.show(irregular)
    seq = hall.alert_seq()
    hall.referee(ra.Acknowledge(seq))
    # ... and the board is put back (corrected), then the capture is played.
    hall.hand()
    hall.show(game.position)
    play(hall, game, str(captures[0]))
    # The next capture is missed too, and the opponent plays on: the irregular move stands.
    until_capture(hall, game)
    position = game.position
    assert game.legal_moves()[0].is_capture
    plain = position.plain_moves()[0]
    irregular = position.play(plain)
    hall.hand()
    hall.show(irregular)
    reply = irregular.legal_moves()[0]
    after = irregular.play(reply)
    hall.hand()
    hall.show(after)
    game.play_irregular(irregular, "x", plain)
    game.play(reply)
    # A light piece knocked off the board: mismatch, then put back.
    pieces = game.position.pieces()
    gone = next(s for s, p in sorted(pieces.items()) if p.colour is Colour.LIGHT)
    knocked = Position.from_pieces({s: p for s, p in pieces.items() if s != gone}, game.position.turn)
    hall.hand()
    hall.show(knocked, frames=8)
    hall.show(game.position)
    # A move, then the board put back: a takeback; then two plies seen at once.
    moves = game.legal_moves()
    hall.hand()
    hall.show(game.position.play(moves[0]))
    hall.hand()
    hall.show(game.position)
    first = moves[0]
    middle = game.position.play(first)
    second = middle.legal_moves()[0]
    game.play(first)
    game.play(second)
    hall.hand()
    hall.show(game.position)
    # The clock runs out on the side to move: yellow, yellow, red; the camera drops out.
    hall.camera("lost")
    hall.wait(125, game.position)
    hall.camera("back")
    side = game.position.turn.value
    hall.referee(ra.GrantExtraTime(side, 5))
    hall.wait(10, game.position)
    play(hall, game, str(game.legal_moves()[0]))
    # The referee corrects the last ply (no alert), then takes one back and the board follows.
    last = game.plies[-1]
    other = [m for m in last.before.legal_moves(game.rules) if m != last.move]
    hall.referee(ra.CorrectMove(str(other[0])))
    game.take_back(1)
    game.play(other[0])
    hall.hand()
    hall.show(game.position)
    hall.referee(ra.TakeBack(1))
    game.take_back(1)
    hall.hand()
    hall.show(game.position)
    # A wrong-side move: an alert the referee dismisses; then one the referee accepts.
    other_side = game.position.with_turn(game.position.turn.opponent)
    wrong = other_side.play(other_side.legal_moves()[0])
    hall.hand()
    hall.show(wrong)
    hall.referee(ra.Dismiss(hall.alert_seq()))
    hall.hand()
    hall.show(game.position)
    for text in [str(game.legal_moves()[0])]:
        play(hall, game, text)
    other_side = game.position.with_turn(game.position.turn.opponent)
    wrong = other_side.play(other_side.legal_moves()[0])
    hall.hand()
    hall.show(wrong)
    hall.referee(ra.AcceptMove(hall.alert_seq()))
    game.play_irregular(Position(*wrong.board, turn=game.position.turn), "accepted")
    # One more missed capture, corrected by the referee (the move due now) before the board.
    until_capture(hall, game)
    capture = game.legal_moves()[0]
    hall.hand()
    hall.show(game.position.play(game.position.plain_moves()[0]))
    hall.referee(ra.CorrectMove(str(capture), alert=hall.alert_seq()))
    game.play(capture)
    hall.hand()
    hall.show(game.position)
    # A bad entry in the log is skipped by every reader.
    hall.raw(GameEvent(BOARD, EventKind.REFEREE, hall.wall + 1, game=1,
                       detail={"action": "take_back", "plies": "all"}))
    # A few more moves, then a draw by agreement.
    for _ in range(3):
        moves = game.legal_moves()
        if not moves:
            break
        play(hall, game, str(moves[-1]))
    hall.referee(ra.SetResult("draw", "agreement"))

    # Game 2: a new game with the 10-move count and a forced opening; dark deviates.
    hall.referee(ra.NewGame({"count_rule_moves": 10, "forced_opening": ["26-22"]}), game=2)
    hall.hand()
    second = Game(Rules(count_rule_moves=10, forced_opening=("26-22",)))
    hall.show(second.position)
    play(hall, second, "25-21")  # deviation from the forced opening
    play(hall, second, "5-9")
    hall.referee(ra.CorrectMove("6-10", alert=None))
    second.take_back(1)
    second.play_text("6-10")
    hall.hand()
    hall.show(second.position)
    hall.referee(ra.SetResult("light wins", "resignation"))

    # Game 3: from a position the referee confirmed: a chain shown jump by jump that rests
    # (chain stopped early), then finishes and crowns late; the king is not stacked in time.
    hall.wait(3, second.position)
    third_start = Position.from_fen("B:W15,7,2,20:B19,30")
    hall.store(hall.tracker.start_from(third_start, hall.time))
    third = Game(hall.tracker.game.rules, third_start)
    hall.hand()
    hall.show("W:W15,7,2,20:B10,30", frames=3)
    hall.wait(3, "W:W7,2,20:B10,30")  # rests: the chain stopped early
    hall.hand()
    third.play_text("19x10x3")
    board = third.position
    man_on_3 = Position.from_pieces({**board.pieces(), 3: board.pieces()[3].__class__.of(Colour.DARK, False)}, board.turn)
    hall.show(man_on_3)  # finished, not crowned yet
    third.play_text("20-24")  # light moves without stacking: crowning not done
    hall.hand()
    hall.show(Position(*man_on_3.play(third.plies[-1].move).board, turn=third.position.turn))
    hall.show(third.position)  # stacked at last
    while third.result() is None:
        moves = third.legal_moves()
        play(hall, third, str(moves[len(third.plies) * 7 % len(moves)]))

    log = hall.log.read(BOARD, limit=100000)
    (OUT / "v1_log.jsonl").write_text("".join(e.to_json() + "\n" for e in log), encoding="utf-8")
    state = BoardState(BOARD)
    views = []
    for event in log:
        state.apply(event)
        view = state.to_json()
        views.append({"seq": event.seq, "summary": state.summary(), "alerts": view["alerts"],
                      "clock": view["clock"], "camera": view["camera"],
                      "crowning_pending": view["crowning_pending"]})
    again = GameTracker(BOARD)
    last = resume(again, log)
    expected = {
        "written_by": "eecc8e5 (before issue #19)",
        "events": len(log),
        "kinds": sorted({e.kind.value for e in log}),
        "view": state.to_json(),
        "views": views,
        "pdn": [state.pdn(r, "Fixture Open") for r in state.games],
        "resumed": {
            "last_seq": last,
            "game": again.game_number,
            "start": again.game.start.fen(),
            "fens": [p.after.fen() for p in again.game.plies],
            "irregular": [p.irregularity for p in again.game.plies],
            "result": again.game.result().outcome.value if again.game.result() else None,
            "rules": again.rules.to_dict(),
        },
        "live": {
            "game": hall.tracker.game_number,
            "fens": [p.after.fen() for p in hall.tracker.game.plies],
            "irregular": [p.irregularity for p in hall.tracker.game.plies],
        },
    }
    (OUT / "v1_expected.json").write_text(json.dumps(expected, ensure_ascii=False, separators=(",", ":")) + "\n",
                                          encoding="utf-8")
    counts = {}
    for e in log:
        counts[e.kind.value] = counts.get(e.kind.value, 0) + 1
    print(len(log), counts)
    actions = sorted({e.detail.get("action") for e in log if e.kind is EventKind.REFEREE})
    print(actions)


if __name__ == "__main__":
    main()
