"""Kings after the game's first crowning: the reader that learns the game against the reader
refit on the start alone (#42).

    python -m bench.learning [--scenes 12] [--first 0] [--plies 16]

Rendered games whose kings look like men from the camera: the renderer's held-out palettes,
480x270, 35 degrees of elevation, low men (0.12-0.16 of a square), so a king is a short stack
seen side-on. Each scene's start is adapted on; then a game's boards come one by one: men of
both sides, the first king (dark) crowned a quarter of the way in, light kings only later,
kings on squares of every row. Each board is read first (what the tracker would be given),
then learnt from as the game would accept it. Printed, over the boards after the first
crowning: kings read as kings and men read as men (whatever their side), each for the
reader refit on the start alone and for the learning reader; the learning reader's kings on
squares where no king had been learnt yet, and light kings before any light king was
learnt; squares wrong; and the milliseconds of a read, of a refit (on its own thread), and of
learning a board on the camera's thread, on this machine.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one thread: a board read's budget is one core

import argparse
import time
from dataclasses import dataclass, field

import numpy as np

from bench.machine import describe
from lab.render import Renderer
from lab.render.side_on import side_on
from lab.tally import Tally
from makhos.vision.learning import AdaptingReader
from makhos.vision.reader import PieceReader
from makhos.vision.reading import labels_of

#: The shared set whose photos show kings (stickers with a printed symbol, not stacks).
SOON = "soon-jynn-chu-checkers-piece-detection"
#: The 8-man start in square order.
START = "l" * 8 + "." * 16 + "d" * 8


def game_boards(seed: int, plies: int) -> tuple[list[str], int]:
    """A game's boards (32 labels each) and the index of the first with a king: a dark man
    crowned on the light side's back row; light kings from three boards later on."""
    rng = np.random.default_rng(seed)
    crowning = plies // 4
    boards = []
    for k in range(plies):
        squares = rng.permutation(32)
        board = ["."] * 32
        for s in squares[:6]:
            board[s] = "l"
        for s in squares[6:12]:
            board[s] = "d"
        if k >= crowning:
            board[int(rng.integers(0, 4)) if k == crowning else int(squares[12])] = "D"
            dark_kings = int(rng.integers(0, 3))
            for s in squares[13:13 + dark_kings]:
                board[s] = "D"
            if k >= crowning + 3:
                for s in squares[16:16 + int(rng.integers(1, 3))]:
                    board[s] = "L"
        boards.append("".join(board))
    return boards, crowning


@dataclass
class Counts:
    """Kings read as kings and men read as men (whatever their side), and the squares' tally."""

    tally: Tally = field(default_factory=Tally)
    kings: int = 0
    kings_right: int = 0
    men: int = 0
    men_right: int = 0

    def add(self, truth: str, read: str) -> None:
        t, r = np.array(list(truth)), np.array(list(read))
        self.tally.add(t, r)
        kings, men = np.isin(t, ["L", "D"]), np.isin(t, ["l", "d"])
        self.kings += int(kings.sum())
        self.kings_right += int((kings & np.isin(r, ["L", "D"])).sum())
        self.men += int(men.sum())
        self.men_right += int((men & np.isin(r, ["l", "d"])).sum())

    def line(self, name: str) -> str:
        return (f"{name:<34} kings read as kings {self.kings_right}/{self.kings}  men read as men "
                f"{self.men_right}/{self.men}  squares wrong {self.tally.wrong}/{self.tally.squares}")


def real_games(network: PieceReader) -> tuple[Counts, Counts, Counts]:
    """The shared photos with kings (``SOON``: sticker kings), each set-up's photos taken as
    one game in file order: adapted on the first, then each read before it is learnt (its
    true labels stand in for the tracker's); counted from the photo after the first with a
    king. The set's own photos only: nothing is trained on another set. Third, the learning
    reader from the photo after the game first showed both a man and a king: a set-up whose
    first photos are all kings (no game starts so) gives no man to tell a king from before."""
    from lab.realdata import ROOT, collections, photo_geometry

    start_only, learning, compared = Counts(), Counts(), Counts()
    if not ROOT.is_dir():
        return start_only, learning, compared
    photos = sorted(collections().get(SOON, []), key=lambda p: (p.setup, len(p.path.stem), p.path.stem))
    setups = sorted({p.setup for p in photos})
    for setup in setups:
        reader, fixed = AdaptingReader(network), AdaptingReader(network)
        crowned = False
        shown: set[str] = set()  # men and kings the game has shown (any side)
        for k, photo in enumerate(p for p in photos if p.setup == setup):
            image = photo.image()
            corners, lens, truth = photo_geometry(photo, image)
            if "?" in truth or not any(c != "." for c in truth):
                continue
            crops = network.crops(image, corners, "dark", lens)
            if fixed.state is None:
                fixed.restore(reader.adapt(image, corners, "dark", truth, lens))
                shown |= {"man" if c in "ld" else "king" for c in truth if c != "."}
                continue
            read = labels_of(reader.classify(crops))
            if crowned:
                start_only.add(truth, labels_of(fixed.classify(crops)))
                learning.add(truth, read)
            if shown == {"man", "king"}:
                compared.add(truth, read)
            reader.learn(crops, truth)
            crowned |= any(c in "LD" for c in truth)
            shown |= {"man" if c in "ld" else "king" for c in truth if c != "."}
    return start_only, learning, compared


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", type=int, default=12)
    parser.add_argument("--first", type=int, default=0, help="the first scene's seed (scenes 12-23: held out of tuning)")
    parser.add_argument("--plies", type=int, default=16)
    args = parser.parse_args()
    network = PieceReader()
    start_only, learning = Counts(), Counts()
    new_squares, unseen_side = Counts(), Counts()
    read_ms: list[float] = []
    refit_ms: list[float] = []
    learn_ms: list[float] = []  # on the caller's thread (the camera's): the refit runs on its own
    for seed in range(args.first, args.first + args.scenes):
        renderer = Renderer(side_on(1000 + seed))
        start = renderer.render({k + 1: c for k, c in enumerate(START) if c != "."}, seed=seed)
        fixed, reader = AdaptingReader(network), AdaptingReader(network)
        kept = reader.adapt(start.image, start.corners, start.played, START)
        fixed.restore(kept)
        boards, crowning = game_boards(seed, args.plies)
        king_squares: set[int] = set()
        light_learnt = False
        for k, truth in enumerate(boards):
            frame = renderer.render({s + 1: c for s, c in enumerate(truth) if c != "."}, seed=seed * 100 + k)
            crops = network.crops(frame.image, frame.corners, frame.played)
            began = time.process_time()
            read = labels_of(reader.classify(crops))
            read_ms.append(1000 * (time.process_time() - began))
            if k > crowning:
                start_only.add(truth, labels_of(fixed.classify(crops)))
                learning.add(truth, read)
                new = "".join(t if t in "LD" and s not in king_squares else "." for s, t in enumerate(truth))
                new_squares.add(new, "".join(r if t in "LD" and s not in king_squares else "."
                                             for s, (t, r) in enumerate(zip(truth, read))))
                if not light_learnt:
                    unseen_side.add("".join(t if t == "L" else "." for t in truth),
                                    "".join(r if t == "L" else "." for t, r in zip(truth, read)))
            began, on_thread = time.process_time(), time.thread_time()
            reader.learn(crops, truth)
            learn_ms.append(1000 * (time.thread_time() - on_thread))
            if reader.refitted() is not None:  # waited for: the refit's thread's time counts
                refit_ms.append(1000 * (time.process_time() - began))
            king_squares |= {s for s, t in enumerate(truth) if t in "LD"}
            light_learnt |= "L" in truth
    print(describe())
    print(f"{args.scenes} rendered games of {args.plies} boards, 480x270, 35 degrees, low men; "
          "figures over the boards after the first crowning, each read before it was learnt")
    print(start_only.line("refit on the start alone"))
    print(learning.line("learning the game"))
    print(f"{'  kings on squares not learnt yet':<34} {new_squares.kings_right}/{new_squares.kings}")
    print(f"{'  light kings before a light king':<34} {unseen_side.kings_right}/{unseen_side.kings}")
    print(f"read: median {np.median(read_ms):.1f} ms CPU; refit: median {np.median(refit_ms):.1f} ms, "
          f"max {np.max(refit_ms):.1f} ms CPU over {len(refit_ms)} refits; on the camera's thread, "
          f"learning a board: median {np.median(learn_ms):.1f} ms, max {np.max(learn_ms):.1f} ms")
    real = real_games(network)
    if not real[0].tally.boards:
        print("real photos: skipped (../shared/realdata is absent)")
        return
    print(f"real photos with kings ({SOON}), after the first photo with a king:")
    print(real[0].line("refit on the first photo alone"))
    print(real[1].line("learning the photos as a game"))
    print(real[2].line("  after a photo with men and kings"))


if __name__ == "__main__":
    main()
