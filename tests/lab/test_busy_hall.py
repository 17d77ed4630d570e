"""What a busy hall adds to the kingplay videos (lab.videos.busy_table, lab.videos.busy_camera):
drawn only from seed 70030 on, so the older seeds' videos stay as they were; each does what
it says."""

from __future__ import annotations

from dataclasses import fields, replace

import cv2
import numpy as np

from lab.render import Hand, Renderer, sample_scene
from lab.videos.busy_camera import BusyCamera
from lab.videos.busy_table import BusyTable, NextBoard, captured_stacks, lay_phone, nudges
from lab.videos.kings import BUSY_HALL_SEEDS, king_play
from lab.videos.nuisances import Nuisances, hall_nuisances, sample_nuisances
from lab.videos.render import _hand_frame, shot_starts
from lab.videos.script import Shot

SIZE = (320, 180)
BUSY = ("nudged", "hand_smear", "second_board", "phone", "captured_beside", "glare", "head_at",
        "head_s", "focus_hunts_per_min")


def _scene(seed: int = 5, elevation: float = 35.0) -> Renderer:
    return Renderer(sample_scene(np.random.default_rng(seed), held_out=True,
                                 elevation=(elevation, elevation), size=SIZE))


def _on_board(renderer: Renderer, grow: float = 0.0) -> np.ndarray:
    """(h, w) mask of the playing area grown by ``grow`` squares on each side."""
    outline = renderer.scene.camera.project_ideal(np.array(
        [[-grow, -grow, 0], [8 + grow, -grow, 0], [8 + grow, 8 + grow, 0], [-grow, 8 + grow, 0]], float))
    mask = np.zeros(renderer.background.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.rint(outline).astype(np.int32), 1)
    return mask > 0


def test_the_seeds_before_the_busy_hall_draw_none_of_it_and_keep_every_other_draw():
    defaults = {f.name: f.default for f in fields(Nuisances) if f.name in BUSY}
    for seed in range(BUSY_HALL_SEEDS - 3, BUSY_HALL_SEEDS + 3):
        script, _, nuisances = king_play(seed, 6)
        duration = float(shot_starts(script)[-1])
        hall = hall_nuisances(sample_nuisances(np.random.default_rng([seed, 7]), duration,
                                               size=nuisances.size),
                              np.random.default_rng([seed, 11]), duration)
        assert replace(nuisances, **defaults) == hall
        assert (nuisances == hall) == (seed < BUSY_HALL_SEEDS)


def test_the_busy_seeds_draw_each_nuisance_in_some_video_and_not_in_every_one():
    drawn = [king_play(seed, 6)[2] for seed in range(BUSY_HALL_SEEDS, BUSY_HALL_SEEDS + 10)]
    for name in ("nudged", "hand_smear", "glare", "focus_hunts_per_min"):
        assert 0 < sum(getattr(n, name) > 0 for n in drawn) < len(drawn), name
    for name in ("second_board", "phone", "captured_beside"):
        assert 0 < sum(getattr(n, name) for n in drawn) < len(drawn), name
    assert 0 < sum(n.head_at is not None for n in drawn) < len(drawn)


def test_a_man_put_down_off_centre_stays_there_until_it_moves_or_is_taken():
    start = {9: "d", 22: "l"}
    moved = {13: "d", 22: "l"}  # the man 9-13 is put down leaning
    shots = [Shot(start, 10), Shot(start, 10, path=((1.0, 1.0),), after=moved),
             Shot(moved, 10), Shot(moved, 10, path=((1.0, 1.0),), after={13: "d", 26: "l"})]
    drawn = nudges(shots, 1.0, np.random.default_rng(0))
    assert drawn[0] == ({}, {}) and drawn[1][0] == {}
    lean = drawn[1][1][13]
    assert 0.15 <= float(np.hypot(*lean)) <= 0.35
    assert drawn[2][0][13] == lean and drawn[3][0][13] == lean  # it stays
    assert 22 not in drawn[3][1]  # the man that moved left its lean behind
    assert drawn[3][1].get(13) in (None, lean)
    renderer = _scene()
    plain = renderer.render(moved, seed=3).image
    leaning = renderer.render(moved, seed=3, nudged={13: lean}).image
    assert np.any(plain != leaning)


def test_a_fast_hand_is_blurred_along_its_path_where_it_moves_and_what_it_never_passed_over_is_not():
    renderer = _scene()
    shot = Shot({9: "d"}, 10, path=((1.5, 1.5), (6.5, 6.5)), side="dark", after={9: "d"})

    def hand(u: float) -> Hand:
        return Hand(tip=(1.5 + 5 * u, 1.5 + 5 * u), angle=np.pi / 2, height=0.6, width=1.1,
                    skin=(120, 150, 200), sleeve=(90, 40, 30))

    sharp = _hand_frame(renderer, shot, 0.25, hand, 7, ({}, {}), 0.0)
    smeared = _hand_frame(renderer, shot, 0.25, hand, 7, ({}, {}), 0.3)
    assert np.array_equal(sharp, renderer.render({9: "d"}, hand=hand(0.25), seed=7).image)
    # Still when it puts the man down: no blur there.
    assert np.array_equal(_hand_frame(renderer, shot, 0.5, hand, 7, ({}, {}), 0.3),
                          renderer.render({9: "d"}, hand=hand(0.5), seed=7).image)
    swept = np.zeros(sharp.shape[:2], bool)  # where the hand or its shadow passed
    for u in np.linspace(0.1, 0.4, 5):
        swept |= np.any(renderer.render({9: "d"}, hand=hand(float(u)), seed=7).image != sharp, axis=2)
    differs = np.any(sharp != smeared, axis=2)
    assert differs.sum() > 100 and not differs[~swept].any()


def test_the_next_board_is_beside_this_one_never_on_it_and_is_played_on():
    for seed in range(4):
        renderer = _scene(seed, 60.0)
        before = renderer.background.copy()
        board = NextBoard(renderer, np.random.default_rng(seed), 60.0)
        board.lay_board()
        changed = np.any(renderer.background != before, axis=2)
        assert changed.sum() > 50 and not changed[_on_board(renderer)].any()
        assert len(board.boards) > 3 and board.boards[0] != board.boards[-1]
        assert board.state(0.0) == 0 and board.state(60.0) == len(board.boards) - 1
        assert all(abs(x - 4) > 4 or abs(y - 4) > 4 for x, y, *_ in board.men(board.state(30.0)))


def test_a_phone_lies_on_the_boards_edge_over_the_rim_of_its_edge_squares_never_deeper():
    for seed in range(6):
        renderer = _scene(seed, 60.0)
        before = renderer.background.copy()
        lay_phone(renderer, np.random.default_rng(seed))
        changed = np.any(renderer.background != before, axis=2)
        assert changed[_on_board(renderer, 0.3) & ~_on_board(renderer, -0.3)].any()
        assert not changed[_on_board(renderer, -0.6)].any()  # a quarter, turned, anti-aliased


def test_the_captured_men_are_stacked_beside_the_board_as_they_are_taken():
    renderer = _scene()
    start = {**{s: "d" for s in range(1, 9)}, **{s: "l" for s in range(25, 33)}}
    assert captured_stacks(renderer, start, start, True) == []
    board = {s: v for s, v in start.items() if s not in (25, 26, 27, 28, 29, 3)}
    discs = captured_stacks(renderer, start, board, True)
    light = [d for d in discs if d[4]]
    assert len(light) == 5 and len(discs) == 6
    assert all(x > 8 for x, *_ in discs)
    assert max(z1 for *_, z1, _, _ in light) > 3.5 * renderer.scene.pieces.height  # stacked by four


def test_the_table_is_redrawn_when_the_next_board_is_played_on_and_only_then():
    renderer = _scene(2, 60.0)
    calm = Nuisances.calm(SIZE, 30.0)
    shots = [Shot({9: "d"}, 300)]
    table = BusyTable(renderer, shots, replace(calm, second_board=True, seed=4), 10.0)
    assert table.update(0.0, 0)
    first = renderer.background.copy()
    assert not table.update(0.5, 0) and np.array_equal(first, renderer.background)
    assert table.next_board is not None
    later = table.next_board.times[1] + 0.1
    assert table.update(later, 0) and not np.array_equal(first, renderer.background)


def test_a_busy_camera_moves_its_glare_hides_the_top_under_a_head_and_hunts_its_focus():
    nuisances = replace(Nuisances.calm(SIZE, 30.0), glare=80.0, head_at=2.0, head_s=4.0,
                        focus_hunts_per_min=6.0, seed=3)
    busy = BusyCamera(nuisances, 60.0)
    spots = [np.unravel_index(int(np.argmax(busy.glare_spot(t))), (SIZE[1], SIZE[0]))
             for t in (0.0, busy._glare_period / 3)]
    assert spots[0] != spots[1] and busy.glare_spot(0.0).max() > 70
    grey = np.full((SIZE[1], SIZE[0], 3), 200, np.uint8)
    assert busy.head_share(1.0) == 0 and busy.head_share(4.0) == 1 and busy.head_share(7.0) == 0
    covered = busy.lens(grey, 4.0)
    assert covered[: SIZE[1] // 10].mean() < 150 and covered[-SIZE[1] // 4:].mean() > 195
    assert len(busy._hunts) > 0
    hunt = float(busy._hunts[0])
    assert busy.focus_sigma(hunt + 0.2) > 0.3 and busy.focus_sigma(hunt - 0.1) == 0
