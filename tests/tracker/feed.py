"""Synthetic readings for a tracker: boards as certain (or lightly noisy) readings at 30 fps,
hands as no reading, and a log that numbers each event and reads it back."""

from __future__ import annotations

import numpy as np

from makhos.engine import Colour, Piece, Position
from makhos.engine.game import Game
from makhos.events import GameEvent
from makhos.events.decisions import parse_action
from makhos.tracker import GameTracker, TrackerConfig
from makhos.vision.reading import CLASS_INDEX, Reading


class Feed:
    """Plays readings into a tracker at 30 fps and keeps every event, numbered and read
    back to the tracker as a session's log does."""

    def __init__(self, tracker: GameTracker, rng_seed: int | None = None) -> None:
        self.tracker = tracker
        self.time = 0.0
        self.events = []  # what readings brought
        self.stored: list[GameEvent] = []  # the whole log, decisions and the start included
        self.seq = 0
        self.rng = np.random.default_rng(rng_seed) if rng_seed is not None else None

    def log(self, events: list[GameEvent]) -> list[GameEvent]:
        stored = []
        for event in events:
            self.seq += 1
            stored.append(event.with_seq(self.seq))
            self.stored.append(stored[-1])
            self.tracker.logged(stored[-1])
        return stored

    def board(self, fen_or_position, frames: int = 5) -> list:
        position = fen_or_position if isinstance(fen_or_position, Position) else Position.from_fen(fen_or_position)
        new = []
        for _ in range(frames):
            self.time += 1 / 30
            reading = Reading.certain(position, self.time)
            if self.rng is not None:
                noisy = reading.probabilities + self.rng.uniform(0, 0.1, reading.probabilities.shape)
                reading = Reading(self.time, (noisy / noisy.sum(axis=1, keepdims=True)).astype(np.float32))
            new += self.log(self.tracker.observe(self.time, reading))
        self.events += new
        return new

    def seen(self, position: Position, seconds: float, misread: dict | None = None,
             kings_as_men: bool = True) -> list:
        """``seconds`` of settled readings of ``position`` as :func:`wavering` reads it."""
        new = []
        for _ in range(round(seconds * 30)):
            self.time += 1 / 30
            reading = wavering(position, self.time, misread, kings_as_men)
            new += self.log(self.tracker.observe(self.time, reading))
        self.events += new
        return new

    def hand(self, frames: int = 10) -> list:
        new = []
        for _ in range(frames):
            self.time += 1 / 30
            new += self.log(self.tracker.observe(self.time, None))
        self.events += new
        return new

    def wait(self, seconds: float, position) -> list:
        return self.board(position, frames=int(seconds * 30))


def kinds(events) -> list[str]:
    return [e.kind.value for e in events]


def started(fen: str, **config) -> Feed:
    start = Position.from_fen(fen)
    tracker = GameTracker("b1", config=TrackerConfig(first_mover=Colour.DARK, **config))
    feed = Feed(tracker)
    feed.log(tracker.start_from(start, 0.0))
    return feed


def decision(feed: Feed, game: int = 1, **detail) -> None:
    feed.log([parse_action(detail).to_event("b1", game, feed.time)])


def wavering(position: Position, time: float, misread: dict | None = None,
             kings_as_men: bool = True) -> Reading:
    """A reading as a real camera gives it: every king scored as a man with the confidence
    the reader has in a real stacked king seen side-on (about -5 log-odds of king), and the
    squares of ``misread`` read, with confidence, as the piece (or None) it names."""
    p = Reading.certain(position, time, sureness=0.96).probabilities
    for square in range(1, 33):
        piece = position.piece_at(square)
        if kings_as_men and piece is not None and piece.is_king:
            p[square - 1] = 0.005
            p[square - 1, CLASS_INDEX[Piece.of(piece.colour, False)]] = 0.975
            p[square - 1, CLASS_INDEX[piece]] = 0.005
    for square, piece in (misread or {}).items():
        p[square - 1] = 0.02
        p[square - 1, CLASS_INDEX[piece]] = 0.92
    return Reading(time, p)


def flickering(feed: Feed, position: Position, bursts: list[int], hand: int = 5) -> list:
    """``position`` read at 15 a second in ``bursts`` of settled readings, each followed by
    ``hand`` covered frames, its kings read as men in one reading and as kings in the next
    (:func:`wavering`), as a real stack seen side-on is read."""
    new, flicker = [], False
    for burst in bursts:
        read = []
        for _ in range(burst):
            feed.time += 1 / 15
            flicker = not flicker
            read += feed.log(feed.tracker.observe(feed.time, wavering(position, feed.time,
                                                                        kings_as_men=flicker)))
        feed.events += read
        new += read + (feed.hand(hand) if hand else [])
    return new


def after(fen: str, line: str) -> Position:
    """The position the plies of ``line`` (space-separated, as a score writes them) lead
    to from ``fen``."""
    game = Game(start=Position.from_fen(fen))
    for text in line.split():
        game.play_text(text)
    return game.positions()[-1]


def seen_then_unseen(fen: str, frames: int = 200) -> Feed:
    """A tracker (offline, as ``makhos record``) that saw the game start from ``fen``, then
    nothing for ``frames`` frames: the plies of a gap may have been made."""
    start = Position.from_fen(fen)
    tracker = GameTracker("1", config=TrackerConfig(first_mover=Colour.DARK, offline=True))
    feed = Feed(tracker)
    feed.log(tracker.start_from(start, 0.0))
    feed.board(start, frames=30)
    feed.hand(frames)
    return feed
