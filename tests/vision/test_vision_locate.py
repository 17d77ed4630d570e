"""Marker-free localisation on drawn boards: any rotation, low elevations, stripes, no board."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from drawn_boards import render

from makhos.vision.geometry import (
    BOARD_CORNERS,
    clockwise,
    corner_error,
    location_from_corners,
    project,
)
from makhos.vision.locate import locate_aruco, locate_board, refine_location


def side(corners: np.ndarray) -> float:
    return float(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1).mean())


@pytest.mark.parametrize(
    "seed, elevation, yaw, stripes",
    [
        (1, 90, 0, False),
        (2, 70, 30, True),
        (3, 55, 135, False),
        (4, 45, 200, True),
        (5, 35, 250, False),
        (6, 35, 80, True),
        (7, 40, 315, False),
    ],
)
def test_finds_board_corners_within_one_and_a_half_percent(seed, elevation, yaw, stripes):
    frame = render(seed, elevation_deg=elevation, yaw_deg=yaw, stripes=stripes)
    found = locate_board(frame.image)
    assert found is not None
    assert corner_error(found.corners, frame.corners) < 0.015 * side(frame.corners)
    assert found.confidence > 0.5


def test_corners_are_clockwise_and_match_the_homography():
    found = locate_board(render(11, elevation_deg=50, yaw_deg=100).image)
    assert found is not None
    assert clockwise(found.corners)
    np.testing.assert_allclose(project(found.homography, BOARD_CORNERS), found.corners, atol=0.5)


def test_finds_nothing_on_an_empty_striped_table():
    table = np.zeros((720, 1280, 3), np.uint8)
    table[:, (np.arange(1280) // 40) % 2 == 1] = (200, 180, 160)
    table[:] = cv2.GaussianBlur(table, (5, 5), 0)
    assert locate_board(table) is None


def test_finds_nothing_on_a_checked_cloth_larger_than_a_board():
    """Twenty squares each way, in perspective: every 8x8 window of it is X-corners inside
    and the window settles in the cloth's corner, where two of its sides are the cloth's
    edge; past the other two its checks go on, as no board's do."""
    dark = (np.indices((20 * 24, 20 * 24)) // 24).sum(axis=0) % 2 == 1
    cloth = np.pad(np.where(dark, 40, 200).astype(np.uint8), 20, constant_values=200)
    width = cloth.shape[0]
    view = cv2.getPerspectiveTransform(
        np.float32([[0, 0], [width, 0], [width, width], [0, width]]),
        np.float32([[80, 40], [560, 60], [620, 460], [20, 440]]))
    seen = cv2.warpPerspective(cloth, view, (640, 480), borderValue=120)
    assert locate_board(cv2.cvtColor(cv2.GaussianBlur(seen, (3, 3), 0), cv2.COLOR_GRAY2BGR)) is None


def _on_a_checked_cloth(board: bool) -> tuple[np.ndarray, np.ndarray]:
    """A cloth of white and blue checks, each 0.4 of the board's square, seen in perspective,
    with a dim red and black board in a black frame on it where ``board``: the picture and
    the board's outer corners."""
    size, square, frame, check = 1600, 44, 14, 18
    table = np.where(((np.indices((size, size)) // check).sum(axis=0) % 2 == 1)[..., None],
                     np.array((160, 80, 40), np.float32), np.float32(235))
    start, end = (size - 8 * square) // 2, (size + 8 * square) // 2
    if board:
        dark = (np.indices((8 * square, 8 * square)) // square).sum(axis=0) % 2 == 1
        table[start - frame:end + frame, start - frame:end + frame] = 20
        table[start:end, start:end] = np.where(dark[..., None], (13, 13, 14), (18, 18, 86))
    view = cv2.getPerspectiveTransform(
        np.float32([[0, 0], [size, 0], [size, size], [0, size]]),
        np.float32([[340, 80], [940, 80], [1400, 720], [-120, 720]]))
    seen = cv2.warpPerspective(table, view, (1280, 720), borderValue=(120, 120, 120))
    picture = cv2.GaussianBlur(seen, (0, 0), 1.0).clip(0, 255).astype(np.uint8)
    outline = np.float32([[start, start], [end, start], [end, end], [start, end]])
    return picture, cv2.perspectiveTransform(outline[None], view)[0]


def test_finds_a_dim_board_on_a_checked_cloth_of_strong_contrast():
    """The cloth's checks give thousands of X-corners stronger than the dim board's, in every
    colour plane (none of the board's among the strongest); but they lie between white and
    blue, the board's between red and black."""
    picture, corners = _on_a_checked_cloth(board=True)
    found = locate_board(picture)
    assert found is not None
    assert corner_error(found.corners, corners) < 0.03 * side(corners)


def test_finds_nothing_on_the_checked_cloth_alone():
    """Without the board, no corners are left once the cloth's colours are set aside."""
    picture, _ = _on_a_checked_cloth(board=False)
    assert locate_board(picture) is None


def test_refit_follows_a_small_shift_and_keeps_the_corner_order():
    frame = render(12, elevation_deg=60, yaw_deg=20)
    found = locate_board(frame.image)
    shift = np.array([[1, 0, 4.0], [0, 1, -3.0], [0, 0, 1]])
    moved = render(12, homography=shift @ frame.homography)
    refit = refine_location(moved.image, found)
    assert refit is not None
    np.testing.assert_allclose(refit.corners, found.corners + [4.0, -3.0], atol=1.5)


def test_manual_corners_are_put_in_clockwise_order():
    counter_clockwise = np.array([[100, 100], [100, 500], [500, 500], [500, 100]], np.float32)
    location = location_from_corners(counter_clockwise)
    assert clockwise(location.corners)
    np.testing.assert_array_equal(location.corners[0], counter_clockwise[0])


def test_aruco_markers_give_the_board_corners():
    image = np.full((720, 1280, 3), 255, np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    board = np.array([[400, 120], [900, 120], [900, 560], [400, 560]], np.float32)
    size = 80
    # Each marker sits diagonally outside its corner, its inner corner on the board's.
    offsets = [(-size, -size), (0, -size), (0, 0), (-size, 0)]
    for marker_id, ((x, y), (dx, dy)) in enumerate(zip(board.astype(int), offsets)):
        image[y + dy : y + dy + size, x + dx : x + dx + size] = cv2.aruco.generateImageMarker(
            dictionary, marker_id, size
        )[..., None]
    found = locate_aruco(image)
    assert found is not None and found.method == "aruco"
    assert corner_error(found.corners, board) < 2.0


def test_a_hint_keeps_the_numbering_corner_order():
    frame = render(13, elevation_deg=65, yaw_deg=70)
    numbered = locate_board(frame.image).rotated(2)  # as if the pieces had said so
    again = locate_board(frame.image, hint=numbered)
    assert again is not None
    np.testing.assert_allclose(again.corners, numbered.corners, atol=1.5)
