"""The glance: which frames the vision analyses, by the frames' times and a small picture."""

import numpy as np
import pytest

from makhos.vision.glance import Glance, GlanceConfig, differs, picture


#: The board of :func:`board_image` (image pixels), and with the gate's ring of two squares.
BOARD = np.array([[400.0, 120.0], [880.0, 120.0], [880.0, 600.0], [400.0, 600.0]])
WATCHED = BOARD + np.array([[-120.0, -120.0], [120.0, -120.0], [120.0, 120.0], [-120.0, 120.0]])


def board_image(shift: float = 0.0, hand: bool = False, passer_by: bool = False) -> np.ndarray:
    """A 720p picture of an 8x8 board of 60 px squares, moved ``shift`` px to the right;
    ``hand``: a skin-coloured arm reaching in from the right over two squares' width."""
    y, x = np.mgrid[0:720, 0:1280].astype(np.float32)
    squares = ((np.floor((x - 400 - shift) / 60) + np.floor((y - 120) / 60)) % 2).astype(np.float32)
    on_board = (x - shift >= 400) & (x - shift < 880) & (y >= 120) & (y < 600)
    grey = np.where(on_board, 60 + 140 * squares, 120)
    image = np.repeat(grey[..., None], 3, axis=2).astype(np.uint8)
    if hand:
        image[330:450, 700:] = (120, 160, 210)
    if passer_by:  # someone walking past at the picture's edge, far from the board
        image[200:700, 1160:1260] = (30, 40, 50)
    return image


def test_a_camera_wobbling_a_few_pixels_changes_nothing_an_arm_does():
    still = picture(board_image(), 160)
    assert not differs(picture(board_image(shift=3.0), 160), still, GlanceConfig())
    assert not differs(picture(board_image(shift=-5.0), 160), still, GlanceConfig())
    assert differs(picture(board_image(hand=True), 160), still, GlanceConfig())


@pytest.mark.parametrize("fps", [15, 25, 30, 60])
def test_frames_are_analysed_at_the_same_pace_whatever_the_frame_rate(fps):
    """A hand in motion for 3 s: twelve to fifteen frames a second, by the frames' own times."""
    glance = Glance()
    frames = [board_image(hand=k % 2 == 1) for k in range(2)]
    chosen = [k for k in range(3 * fps) if glance.wants(frames[k % 2], k / fps, settled=None)]
    assert 3 * 12 <= len(chosen) <= 3 * 15 + 1
    gaps = np.diff(chosen) / fps
    assert gaps.min() >= 1 / 15 - 1e-6


def test_a_settled_board_is_analysed_when_its_picture_changes_and_now_and_then():
    glance, image, arm = Glance(), board_image(), board_image(hand=True)
    assert glance.wants(image, 0.0, settled=WATCHED)  # the first frame is always analysed
    unchanged = [k for k in range(1, 60) if glance.wants(image, k / 30, settled=WATCHED)]
    assert unchanged == [30]  # nothing new: once a second (still_interval), not 29 times
    assert glance.wants(arm, 61 / 30, settled=WATCHED)  # an arm: at once (past moving_interval)
    assert not glance.wants(arm, 62 / 30, settled=None)  # within moving_interval: no


def test_someone_passing_far_from_a_settled_board_is_no_reason_to_analyse():
    glance, image = Glance(), board_image()
    assert glance.wants(image, 0.0, settled=WATCHED)
    assert not glance.wants(board_image(passer_by=True), 0.5, settled=WATCHED)
    assert glance.wants(board_image(passer_by=True), 0.5, settled=None)  # not settled: at the pace


def test_a_read_is_stale_only_when_the_board_s_picture_changed_since():
    glance = Glance()
    glance.wants(board_image(), 0.0, settled=None)
    read = glance.picture
    glance.wants(board_image(shift=2.0), 1.0, settled=None)
    assert not glance.changed_since(read, BOARD)
    glance.wants(board_image(hand=True), 2.0, settled=None)
    assert glance.changed_since(read, BOARD)
    assert not glance.changed_since(read, BOARD + [-380, 0])  # only the arm's end: outside the board
    assert glance.changed_since(None, BOARD)
