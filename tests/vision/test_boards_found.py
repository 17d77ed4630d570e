"""The board finder on boards it must not lose (#42 item 5): every real photo of the shared
sets and of the hand-labelled real games (../shared/realdata, skipped where absent), and the
classic red and black paper board, red men beside red squares, seen low, dim and under glare
(``lab.red_black``), where the grid is all in the colour and men hide many of its corners."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from bench.boards_found import RIGHT_WITHIN, corner_error, judge
from lab.realdata import ROOT, collections
from lab.realgames import game_photos
from lab.red_black import red_black_frame
from lab.render.renderer import Renderer
from lab.videos.kings import king_play
from makhos.vision.locate import locate_board


@pytest.mark.skipif(not ROOT.is_dir(), reason="../shared/realdata is not here")
def test_every_real_photo_of_the_shared_sets_and_games_is_found_right():
    photos = [p for photos in collections().values() for p in photos]
    photos += [p for p in game_photos() if p.path.is_file()]
    missed = [f"{p.name}: {verdict}" for p in photos if (verdict := judge(p)[0]) != "right"]
    assert not missed and len(photos) > 300


@pytest.mark.parametrize("seed", [*range(12), 13, 39, 45, 62, 69, 95, 96])
def test_a_hostile_red_and_black_paper_board_is_found(seed):
    """13, 69 and 96 were lost under a confidence floor of 0.25 (red men hide most of their
    corners), 39 to a pink cloth that outshone the board in the two planes searched; 45, 62
    and 95 to a lattice grown along a square's side and its diagonal (sheared), of which
    only every other node passed for a corner."""
    frame = red_black_frame(seed)
    found = locate_board(frame.image)
    assert found is not None
    assert corner_error(np.asarray(found.corners, float), frame.corners.astype(float)) < RIGHT_WITHIN



@pytest.mark.parametrize("seed", range(6))
def test_a_red_and_black_board_in_a_frame_of_its_own_colours_on_a_patterned_cloth_is_found(seed):
    """A frame of the squares' red or black continues their colours past the board's edge,
    and a gingham or striped cloth under it shows lines and crossings of its own."""
    frame = red_black_frame(seed, surroundings=True)
    found = locate_board(frame.image)
    assert found is not None
    assert corner_error(np.asarray(found.corners, float), frame.corners.astype(float)) < RIGHT_WITHIN


@pytest.mark.parametrize("seed", [70003, 70005])
def test_a_start_seen_side_on_at_480x270_is_found_where_men_hide_whole_lines_of_corners(seed):
    """The home rows' men, seen from 35 degrees, hide the corners of the lines at both ends
    and several windows hold the same corners: the squares and the board's surroundings
    settle it (``bench.kingplay``'s 70003 and 70005 found no board before)."""
    script, scene, _ = king_play(seed, 8)
    frame = Renderer(scene).render(script.shots[0].board, seed=seed)
    found = locate_board(frame.image)
    assert found is not None
    assert corner_error(np.asarray(found.corners, float), frame.corners.astype(float)) < RIGHT_WITHIN


def test_a_patch_of_a_gingham_cloth_is_never_taken_for_the_board():
    """Seed 139: a blue gingham seen low, whose corners fade out of the lattice past an 8x8
    patch 14 squares from the board, gave that patch at confidence 0.25; its checks go on
    past the patch's outline, a board's end there."""
    frame = red_black_frame(139, surroundings=True)
    found = locate_board(frame.image)
    assert found is None or corner_error(
        np.asarray(found.corners, float), frame.corners.astype(float)) < RIGHT_WITHIN


@pytest.mark.parametrize("seed", [10, 48, 96, 139, 161])
def test_a_dim_board_beside_a_checked_cloth_of_strong_contrast_is_found(seed):
    """The cloth's thousands of corners (white and its colour) outshine the red and black
    board's in every colour plane, so none of the board's were among the strongest: 10, 48
    and 96 were missed, 139 too (once found wrong: a patch of its gingham), and 161 was found
    a line off, onto the cloth past the board's near edge, on the way to this."""
    frame = red_black_frame(seed, surroundings=True)
    found = locate_board(frame.image)
    assert found is not None
    assert corner_error(np.asarray(found.corners, float), frame.corners.astype(float)) < RIGHT_WITHIN


def test_a_paper_board_on_a_check_of_its_own_colours_and_size_is_never_taken_a_line_off():
    """Seed 143 on a buffalo check of the board's own red and black, its checks the size of
    its squares, no frame: where the cloth meets the board's edge its checks make one more
    line of corners, and the plane where a glare washes out the board's far line took the
    cloth's line (confidence 0.34, main's finder too) while another plane placed the board
    right (0.22): where two planes disagree and neither is sure, no board."""
    frame = red_black_frame(143, own_check=True)
    found = locate_board(frame.image)
    assert found is None or corner_error(
        np.asarray(found.corners, float), frame.corners.astype(float)) < RIGHT_WITHIN


@pytest.mark.parametrize("jpeg", [None, 50])
def test_a_small_red_and_green_board_at_480x270_is_found_where_only_its_colour_shows_the_grid(jpeg):
    """``bench.kingplay``'s 70011: a red and green board of like brightness, a third of a
    480x270 picture high (squares of 10 pixels), its black and white men on the green
    squares. In grey the grid hardly shows, in each of B, G, R the men merge with one
    square colour; the colour-opponent planes show it. Its squares are too small to be
    measured at the half resolution of a codec's colour (the quadrants fall on the corner's
    pixel), so they are measured at full resolution. Through a JPEG's colour at half
    resolution too (``jpeg``: its quality). No board was found in any frame before."""
    script, scene, _ = king_play(70011, 10)
    frame = Renderer(scene).render(script.shots[0].board, seed=70011)
    image = frame.image
    if jpeg is not None:
        image = cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, jpeg])[1],
                             cv2.IMREAD_COLOR)
    found = locate_board(image)
    assert found is not None
    assert corner_error(np.asarray(found.corners, float), frame.corners.astype(float)) < RIGHT_WITHIN
