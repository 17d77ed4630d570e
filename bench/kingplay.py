"""Irregular king play through `makhos record`, filmed as the lost real game was (issue #42).

    python -m bench.kingplay --videos 12 --plies 10 --folder /work/cache/kingplay

Each video (:func:`lab.videos.kings.king_play`, seeds 70000..) is a game from a set-up with
kings, stacked low and seen side-on at 35 degrees at 480x270 through a wobbling, noisy,
compressed camera, hands between the boards and every third change a cross-fade, with one
or two irregular king plies (a plain move while a capture was compulsory, a chain stopped
after its first jump), each followed by the reply. It is rendered once into ``--folder``,
recorded by `makhos record` told the set-up, and scored ply by ply
(:func:`lab.videos.kings.score_plies`). Prints per video and in all: plies right and in
place, irregular plies standing with their alert, plies invented, plies shifted (and apart,
how many of those the record said unconfirmed: a gap's likeliest line, marked so); games
recorded every ply right; and apart, the videos where no game was found at all (the board
never found: a failure of the reading, before any rule is applied).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import platform
from datetime import date
from pathlib import Path

from lab.videos.kings import PlyScore, king_play, recorded_game, said_unconfirmed, score_plies
from lab.videos.render import write_video

FIRST_SEED = 70_000


def video(seed: int, plies: int, folder: Path) -> tuple[PlyScore | None, str]:
    """Render (once) and record one video; its score (None: no game found) and what
    `makhos record` said on its error stream."""
    script, scene, nuisances = king_play(seed, plies)
    path = folder / f"kings-{seed}-{plies}.mp4"
    if not path.exists():
        write_video(script, scene, path, seed=seed, nuisances=nuisances)
    assert script.game is not None  # script_game keeps the game it scripted
    said = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(said):
        recorded = recorded_game(path, script.rules)
    if recorded is None:
        return None, said.getvalue()
    unconfirmed = said_unconfirmed(path.with_suffix(".recorded.pdn").read_text(encoding="utf-8"))
    return score_plies(script.game, recorded, unconfirmed), said.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--videos", type=int, default=12)
    parser.add_argument("--plies", type=int, default=10)
    parser.add_argument("--first", type=int, default=FIRST_SEED)
    parser.add_argument("--folder", type=Path, default=Path("/tmp/makhos-kingplay"))
    args = parser.parse_args()
    args.folder.mkdir(parents=True, exist_ok=True)
    print(f"# {platform.node()} {date.today()}: {args.videos} videos of irregular king play, "
          f"about {args.plies} plies each, seeds {args.first}..")
    print("seed    plies right  irregular standing  invented  shifted")
    scores, lost = [], []
    for seed in range(args.first, args.first + args.videos):
        score, said = video(seed, args.plies, args.folder)
        if score is None:
            lost.append(seed)
            why = said.strip().splitlines()[-1:] or ["(record said nothing)"]
            print(f"{seed}  no game found: {why[0].split(': ', 2)[-1]}", flush=True)
            continue
        scores.append(score)
        print(f"{seed}  {score.plies:5d} {score.right:5d}  {score.irregular:9d} {score.standing:8d}"
              f"  {score.invented:8d} {score.shifted:8d}{'' if score.perfect else '  <-'}"
              f"{f'  ({score.unconfirmed} of them said unconfirmed)' if score.unconfirmed else ''}", flush=True)
    total = PlyScore(*(sum(getattr(s, f) for s in scores) for f in PlyScore.__dataclass_fields__))
    print(f"plies right {total.right}/{total.plies}; irregular plies standing "
          f"{total.standing}/{total.irregular}; invented {total.invented}; shifted {total.shifted} "
          f"({total.unconfirmed} of them said unconfirmed); "
          f"games every ply right {sum(s.perfect for s in scores)}/{len(scores)}; "
          f"no game found {len(lost)} ({', '.join(map(str, lost)) or 'none'})")


if __name__ == "__main__":
    main()
