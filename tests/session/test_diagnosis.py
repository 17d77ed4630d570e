"""`makhos record` says why it recorded nothing: each message from a short clip that causes it."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np

from makhos.cli.main import main
from feed import started
from makhos.session.diagnosis import held_up

from drawn_boards import draw_hand, render, start_occupancy


def write_clip(path: Path, frames: list[np.ndarray], fps: float = 30.0) -> Path:
    h, w = frames[0].shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), fps, (w, h))
    for frame in frames:
        writer.write(frame)
    writer.release()
    return path


def jump(image: np.ndarray, dx: float, dy: float) -> np.ndarray:
    h, w = image.shape[:2]
    return cv2.warpAffine(image, np.float32([[1, 0, dx], [0, 1, dy]]), (w, h),
                          borderMode=cv2.BORDER_REFLECT)


def record(clip: Path, capsys) -> str:
    assert main(["record", "--source", str(clip), "-o", str(clip.with_suffix(".pdn"))]) == 1
    return capsys.readouterr().err


def test_no_board_in_view(tmp_path, capsys):
    table = np.random.default_rng(1).integers(60, 90, (360, 640, 3), dtype=np.uint8)
    err = record(write_clip(tmp_path / "table.mp4", [table] * 20), capsys)
    assert "board never found in 20 frames" in err


def test_a_board_that_never_stands_still_names_the_shake(tmp_path, capsys):
    board = render(21, size=(640, 360), elevation_deg=70, yaw_deg=10).image
    rng = np.random.default_rng(2)
    frames = [jump(board, *rng.uniform(-12, 12, 2)) for _ in range(45)]
    err = record(write_clip(tmp_path / "shaking.mp4", frames), capsys)
    assert "board found in" in err and "never still for 0.2 s" in err
    assert "px between frames (is the camera shaking?" in err


def test_a_board_not_in_the_start_position_shows_the_first_reading(tmp_path, capsys):
    board = next(b for b in (render(s, size=(640, 360), elevation_deg=70, yaw_deg=10)
                             for s in range(1, 40))
                 if not np.array_equal(b.occupied, start_occupancy(b.played_parity)))
    err = record(write_clip(tmp_path / "midgame.mp4", [board.image] * 60), capsys)
    assert "the start position was never seen: first reading was" in err


def test_an_empty_video_is_a_clear_error(tmp_path, capsys):
    empty = tmp_path / "empty.mp4"
    cv2.VideoWriter(str(empty), cv2.VideoWriter_fourcc(*"mp4v"), 30, (64, 64)).release()
    assert main(["record", "--source", str(empty)]) == 2
    assert "empty.mp4" in capsys.readouterr().err


def test_a_record_held_by_a_board_nobody_went_on_from_says_where_and_why():
    feed = started("B:W1,5:B22,30")
    feed.board("W:W1,5:B18,30")  # 22-18
    feed.hand()
    feed.board("B:W1,9:B18,30")  # 5-9
    assert held_up(feed.tracker.logged_game) is None
    feed.hand()
    feed.board("W:W1,9:B14,30")  # 18-14
    feed.hand()
    feed.board("W:W2,9:B30", frames=20)  # light's man goes 1 to 2 and takes 14: irregular
    said = held_up(feed.tracker.logged_game)
    assert said is not None and said.startswith("recording stopped after ply 3, at ")
    assert ": light man moved sideways (1x2); " in said and said.endswith("the PDN ends at ply 3")
    feed.hand()
    feed.board("W:W1,9:B14,30")  # put back: nothing holds the record any more
    assert held_up(feed.tracker.logged_game) is None


def test_a_video_that_ends_under_a_hand_says_the_moves_stopped_being_read(tmp_path, capsys):
    # The sample's start and first ply, then an arm that keeps moving over the board until
    # the video ends: whatever was played under it is not in the record, and that is said.
    capture = cv2.VideoCapture("models/sample/sample.mp4")
    frames = [capture.read()[1] for _ in range(100)]
    capture.release()
    rng = np.random.default_rng(5)
    for _ in range(150):
        frame = frames[99].copy()
        draw_hand(frame, rng, np.array([320, 180]) + rng.uniform(-40, 40, 2), 40)
        frames.append(frame)
    clip = write_clip(tmp_path / "covered.mp4", frames)
    assert main(["record", "--source", str(clip), "-o", str(tmp_path / "covered.pdn")]) == 0
    err = capsys.readouterr().err
    assert "moves stopped being read at 3.3 s of 8.3 s (after 1 plies)" in err
    assert "something covered it" in err
