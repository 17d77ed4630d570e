"""A board read in new light after plies made under the hands, read with the rules (#42).

    python -m bench.relight [--seeds 10] [--first 70010] [--made 0 1 2 3 4] [--beyond 6]

For each kingplay scene (:func:`lab.videos.kings.king_play`: 480x270, side-on, kings that
look like men), the reader is adapted on the game's board a few plies in, in full light.
Then 0, 1 or 2 plies are made (``--made``: 3 or 4 are more than the stories hold, as under
a sleeve, and what they changed should not be known) and a shadow falls over half the
board (a third of the light left on the top half, or on the left half). The boards the
game's stories lead to (one or two plies, the irregular catalogue) are weighed against the
frame on held-out squares (:func:`vision.relight.known_squares`), as the session does when
a read in new light fits no story; with ``--beyond N``, as it does where the time since the
game last followed a reading fits N plies: the boards further on from the best weighed too,
ply after ply (:func:`vision.relight.known_squares_doubted`). Printed per case: the boards weighed, the best board's
held-out fit, the squares known, how many of
them are not the board on the table (each one a square the reader is taught wrong), and the
CPU milliseconds of the weighing and of the adaptation on the known squares, on one core.
In all: cases with known squares, known squares wrong, the squares read wrong in the shadow
before and after the adaptation, and the p50/p95 of the weighing.

The camera's thread: the weighing and the refit (``AdaptingReader.fit``) run on a thread of
their own (``BoardReader.relight``); the camera's thread only swaps the refit in
(``AdaptingReader.restore``) before a later read. Printed: the CPU milliseconds the camera's
thread spent per relit read when it weighed and adapted itself (weighing + refit, as before),
and now (the swap), p50/p95/max.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one thread: the session's budget is one core

import argparse
import time

import numpy as np

from bench.machine import describe
from lab.render import Renderer
from lab.videos.kings import king_play
from makhos.engine.game import Game
from makhos.tracker.gaps import PliesBeyond
from makhos.tracker.scoring import board_classes
from makhos.tracker.stories import game_stories
from makhos.vision.learning import AdaptingReader
from makhos.vision.reading import LABELS, side_probabilities
from makhos.vision.rectify import SquareCrops, crop_squares
from makhos.vision.relight import held_out_fit, known_squares, known_squares_doubted
from makhos.vision.start_check import board_labels

#: The ply of each game the reader was last taught at.
TAUGHT = 3


def shaded(image: np.ndarray, top: bool) -> np.ndarray:
    """A shadow over the top (or left) half of the frame: a third of the light left."""
    out = image.astype(np.float32)
    h, w = image.shape[:2]
    if top:
        out[: h // 2] *= 0.35
    else:
        out[:, : w // 2] *= 0.35
    return out.astype(np.uint8)


def misread(reader: AdaptingReader, crops: SquareCrops, board: str) -> int:
    """The squares ``reader`` reads another side (or none) on than ``board``."""
    sides = np.array([{".": 0, "l": 1, "L": 1, "d": 2, "D": 2}[c] for c in board])
    return int((side_probabilities(reader.classify(crops)).argmax(1) != sides).sum())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--first", type=int, default=70010)
    parser.add_argument("--made", type=int, nargs="+", default=[0, 1, 2],
                        help="plies made under the shadow; more than 2 is more than the stories hold, "
                             "where nothing should be known")
    parser.add_argument("--beyond", type=int, default=0,
                        help="plies the time since fits: boards further on than the stories weighed too (0: none)")
    args = parser.parse_args()
    print(f"# {describe()}")
    print("seed  plies  shadow  boards  best_fit  known  wrong  before  after  weigh_cpu_ms  adapt_cpu_ms  swap_cpu_ms")
    cases = known_cases = wrong = before_all = after_all = 0
    weighs: list[float] = []
    on_thread_before: list[float] = []  # weighing + refit, where the camera's thread made them
    on_thread_now: list[float] = []  # the swap
    for seed in range(args.first, args.first + args.seeds):
        script, scene, _ = king_play(seed, 10)
        assert script.game is not None
        renderer = Renderer(scene)
        positions, plies = script.game.positions(), script.game.plies
        if any(ply.move is None or ply.irregularity for ply in plies[:TAUGHT]):
            continue  # the game's stories are built from legal plies here
        game = Game(script.game.rules, script.game.start)
        for ply in plies[:TAUGHT]:
            assert ply.move is not None
            game.play(ply.move)
        taught = renderer.render({s: c for s, c in enumerate(board_labels(game.position), 1) if c != "."}, seed=1)
        stories = game_stories(game, True, {}, None)
        rows = np.unique(board_classes([s.board for s in stories]), axis=0)
        boards = ["".join(LABELS[k] for k in row) for row in rows]
        for made in args.made:
            if any(ply.irregularity for ply in plies[TAUGHT:TAUGHT + made]):
                continue  # an irregular ply's board is no story of two legal plies
            on_table = board_labels(positions[TAUGHT + made])
            for top in (True, False):
                reader = AdaptingReader()
                reader.adapt(taught.image, taught.corners, taught.played, board_labels(game.position))
                frame = renderer.render({s: c for s, c in enumerate(on_table, 1) if c != "."}, seed=2 + made)
                image = shaded(frame.image, top)
                crops = crop_squares(image, frame.corners, frame.played, reader.geometry)
                before = misread(reader, crops, on_table)
                start = time.process_time()
                held = reader.held_out(crops, boards)
                further = PliesBeyond.of(stories, game.position.turn, game.rules, args.beyond, frozenset())
                known = (known_squares(held, boards) if further is None else known_squares_doubted(
                    lambda weighed: reader.held_out(crops, weighed), boards, further=further))
                weighed = (time.process_time() - start) * 1000
                best_fit = float(held_out_fit(held, boards).max())
                weighs.append(weighed)
                cases += 1
                bad, after, adapt_ms, swap_ms = 0, before, 0.0, 0.0
                if known is not None:
                    known_cases += 1
                    bad = sum(k not in ("?", t) for k, t in zip(known, on_table))
                    start = time.process_time()
                    kept = reader.fit(image, frame.corners, frame.played, known)
                    adapt_ms = (time.process_time() - start) * 1000
                    start = time.process_time()
                    reader.restore(kept)
                    swap_ms = (time.process_time() - start) * 1000
                    after = misread(reader, crops, on_table)
                on_thread_before.append(weighed + adapt_ms)
                on_thread_now.append(swap_ms)
                wrong += bad
                before_all += before
                after_all += after
                count = "-" if known is None else str(sum(k != "?" for k in known))
                print(f"{seed}  {made:5d}  {'top ' if top else 'left'}  {len(boards):6d}  {best_fit:8.1f}  {count:>5}"
                      f"  {bad:5d}  {before:6d}  {after:5d}  {weighed:8.0f}  {adapt_ms:8.0f}  {swap_ms:8.1f}",
                      flush=True)
    print(f"cases {cases}; squares known in {known_cases}; known squares wrong {wrong}; squares read "
          f"wrong in the shadow {before_all} before, {after_all} after; weighing CPU p50 "
          f"{np.percentile(weighs, 50):.0f} ms, p95 {np.percentile(weighs, 95):.0f} ms")
    for name, spent in (("weighing and refit there (before)", on_thread_before), ("the swap only (now)", on_thread_now)):
        print(f"camera thread CPU per relit read, {name}: p50 {np.percentile(spent, 50):.1f} ms, "
              f"p95 {np.percentile(spent, 95):.1f} ms, max {max(spent):.1f} ms")


if __name__ == "__main__":
    main()
