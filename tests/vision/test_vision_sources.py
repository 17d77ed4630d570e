"""Frame sources: folders, video files, live cameras that drop, and clear errors."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from makhos.vision.sources import (
    Backoff,
    ImageFolder,
    LiveCamera,
    SourceError,
    VideoFile,
    open_source,
)


def picture(value: int) -> np.ndarray:
    image = np.zeros((48, 64, 3), np.uint8)
    image[:, : 8 * (value + 1)] = 200
    return image


def test_image_folder_plays_images_in_name_order(tmp_path: Path):
    for i in (2, 0, 1):
        cv2.imwrite(str(tmp_path / f"frame-{i}.png"), picture(i))
    (tmp_path / "notes.txt").write_text("not an image")
    frames = list(open_source(tmp_path, fps=10))
    assert [f.index for f in frames] == [0, 1, 2]
    assert [f.timestamp for f in frames] == pytest.approx([0.0, 0.1, 0.2])
    assert [int((f.image[0, :, 0] > 100).sum()) for f in frames] == [8, 16, 24]


def test_corrupt_image_is_named_in_the_error(tmp_path: Path):
    cv2.imwrite(str(tmp_path / "a.png"), picture(0))
    (tmp_path / "b.jpg").write_bytes(b"\xff\xd8 this is not really a jpeg")
    frames = iter(ImageFolder(tmp_path))
    next(frames)
    with pytest.raises(SourceError, match="b.jpg"):
        next(frames)


def test_video_file_gives_every_frame(tmp_path: Path):
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 25.0, (64, 48))
    for i in range(5):
        writer.write(picture(i))
    writer.release()
    frames = list(open_source(str(path)))
    assert len(frames) == 5
    assert frames[-1].timestamp == pytest.approx(4 / 25)
    assert frames[2].image.shape == (48, 64, 3)
    rest = list(open_source(str(path), start=0.12))  # a recorder resumed on the rest of a video
    assert [f.index for f in rest] == [3, 4]
    assert rest[0].timestamp == pytest.approx(3 / 25)
    assert int((rest[0].image[0, :, 0] > 100).sum()) == 32
    with pytest.raises(ValueError, match="video file"):
        open_source(0, start=5.0)


def test_corrupt_or_missing_video_gives_a_clear_error(tmp_path: Path):
    path = tmp_path / "broken.mp4"
    path.write_bytes(np.random.default_rng(0).integers(0, 256, 4096, dtype=np.uint8).tobytes())
    with pytest.raises(SourceError, match="broken.mp4"):
        list(VideoFile(path))
    with pytest.raises(SourceError, match="no such file"):
        list(open_source(tmp_path / "missing.mp4"))


class FakeCapture:
    """Gives ``frames`` pictures and then drops, like an unplugged camera."""

    def __init__(self, frames: int, opened: bool = True) -> None:
        self.left, self.opened = frames, opened

    def isOpened(self) -> bool:
        return self.opened

    def read(self):
        if self.left <= 0:
            return False, None
        self.left -= 1
        return True, picture(self.left)

    def release(self) -> None:
        self.opened = False


def test_live_camera_reconnects_with_backoff():
    captures = iter(
        [FakeCapture(2), FakeCapture(0, opened=False), FakeCapture(0, opened=False), FakeCapture(3)]
    )
    waits: list[float] = []
    camera = LiveCamera(
        "rtsp://cam/stream",
        Backoff(first=0.5, longest=10, max_attempts=5),
        lambda _: next(captures),
        waits.append,
    )
    frames = []
    for frame in camera:
        frames.append(frame)
        if len(frames) == 5:
            break
    assert [f.index for f in frames] == [0, 1, 2, 3, 4]
    assert waits == [0.5, 1.0, 2.0]  # two failed reopenings, then the third works


def test_live_camera_gives_up_after_the_last_attempt():
    captures = iter([FakeCapture(1)] + [FakeCapture(0, opened=False)] * 3)
    camera = LiveCamera(0, Backoff(first=0.1, max_attempts=3), lambda _: next(captures), lambda _: None)
    with pytest.raises(SourceError, match="webcam 0: gone, and 3 reconnection attempts failed"):
        list(camera)


@pytest.mark.parametrize("target, hint", [(3, "webcam 3: no camera found"),
                                          ("rtsp://cam/x", "rtsp://cam/x: cannot be opened")])
def test_a_camera_that_never_opens_is_named_with_a_hint(target, hint):
    waits: list[float] = []
    camera = LiveCamera(target, Backoff(), lambda _: FakeCapture(0, opened=False), waits.append)
    with pytest.raises(SourceError, match=hint):
        list(camera)
    assert waits == []  # at once, not after the backoff


def test_open_source_knows_each_kind(tmp_path: Path):
    assert isinstance(open_source("0"), LiveCamera)
    assert isinstance(open_source("http://10.0.0.5:8080/video.mjpg"), LiveCamera)
    assert isinstance(open_source(tmp_path), ImageFolder)
    assert isinstance(open_source(tmp_path / "game.mp4"), VideoFile)


class FileCapture(FakeCapture):
    """A video file of ``frames`` pictures at ``fps``: counts what was converted to pixels."""

    def __init__(self, frames: int, fps: float) -> None:
        super().__init__(frames)
        self.fps, self.read_count, self.grab_count = fps, 0, 0

    def get(self, prop: int) -> float:
        return {cv2.CAP_PROP_FPS: self.fps, cv2.CAP_PROP_FRAME_COUNT: 10.0}.get(prop, 0.0)

    def read(self):
        self.read_count += 1
        return super().read()

    def grab(self) -> bool:
        self.grab_count += 1
        ok, _ = super().read()
        return ok


@pytest.mark.parametrize("fps, handed", [(30.0, [0, 2, 4, 6, 8, 9]), (25.0, [0, 2, 4, 6, 8, 9]),
                                         (60.0, [0, 4, 8, 9]), (15.0, list(range(10)))])
def test_a_paced_video_hands_on_frames_no_closer_than_its_pace(tmp_path: Path, fps, handed):
    """The vision looks at no two frames closer than 1/15 s: the frames between are grabbed
    (decoded, never converted to pixels) and not handed on, but for the last the header
    announces (where the recording ends); each keeps its own index and timestamp, so every
    time on the source's clock stays the video's."""
    path = tmp_path / "game.mp4"
    path.write_bytes(b"a video")
    capture = FileCapture(10, fps)
    frames = list(VideoFile(path, open_capture=lambda _: capture, pace=1 / 15))
    assert [f.index for f in frames] == handed
    assert [f.timestamp for f in frames] == [i / fps for i in handed]
    assert capture.read_count <= len(handed) + 1  # and perhaps the read that finds the end
    assert capture.read_count + capture.grab_count == 10 + 1  # every frame once, then the end
