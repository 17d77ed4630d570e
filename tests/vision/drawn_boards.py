"""A tiny board drawer for the vision tests: a flat checkerboard with discs, seen in perspective.

Not a renderer (that is ``lab/render``): just enough geometry to check localisation,
tracking and the occlusion gate against known corners without shipping any image.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

PX = 40  # top-down pixels per square
FRAME = 20  # width of the drawn border frame, top-down pixels


@dataclass(frozen=True)
class TestFrame:
    image: np.ndarray  # BGR
    corners: np.ndarray  # (4, 2) true outer corners of the 8x8 area, clockwise from board (0, 0)
    played_parity: int  # (row + col) % 2 of the played squares in the drawn board's frame
    occupied: np.ndarray  # (8, 8) bool, drawn board's frame
    homography: np.ndarray  # top-down board pixels -> frame, to re-shoot the same view


def top_down(
    rng: np.random.Generator, played_parity: int, occupied: np.ndarray, light_on_rows=(0, 1, 2)
) -> np.ndarray:
    """The board seen from straight above, with a frame, pieces as shaded discs."""
    size = 8 * PX + 2 * FRAME
    light = rng.integers(170, 245, 3)
    dark = rng.integers(20, 110, 3)
    img = np.empty((size, size, 3), np.uint8)
    img[:] = rng.integers(40, 200, 3)
    for r in range(8):
        for c in range(8):
            colour = dark if (r + c) % 2 == 1 else light
            y, x = FRAME + r * PX, FRAME + c * PX
            img[y : y + PX, x : x + PX] = colour
    man_light, man_dark = rng.integers(200, 255, 3), rng.integers(0, 60, 3)
    for r, c in zip(*np.nonzero(occupied)):
        centre = (FRAME + c * PX + PX // 2, FRAME + r * PX + PX // 2)
        colour = man_light if r in light_on_rows else man_dark
        cv2.circle(
            img, centre, int(PX * 0.42), (0.6 * colour).astype(int).tolist(), -1, cv2.LINE_AA
        )
        cv2.circle(img, centre, int(PX * 0.34), colour.tolist(), -1, cv2.LINE_AA)
    return img


def start_occupancy(played_parity: int) -> np.ndarray:
    r, c = np.mgrid[0:8, 0:8]
    return ((r + c) % 2 == played_parity) & ((r < 3) | (r > 4))


def perspective(
    rng: np.random.Generator,
    size: tuple[int, int],
    elevation_deg: float,
    yaw_deg: float,
    side_px: float,
) -> np.ndarray:
    """Homography from top-down board pixels to the frame: a pinhole camera at an elevation."""
    w, h = size
    board = 8 * PX + 2 * FRAME
    pts = np.array([[0, 0], [board, 0], [board, board], [0, board]], np.float64) - board / 2
    yaw, tilt = np.radians(yaw_deg), np.radians(90 - elevation_deg)
    rz = np.array([[np.cos(yaw), -np.sin(yaw), 0], [np.sin(yaw), np.cos(yaw), 0], [0, 0, 1]])
    rx = np.array([[1, 0, 0], [0, np.cos(tilt), -np.sin(tilt)], [0, np.sin(tilt), np.cos(tilt)]])
    world = np.c_[pts, np.zeros(4)] @ (rx @ rz).T + [0, 0, 2.5 * board]
    proj = world[:, :2] / world[:, 2:3]
    proj *= (
        side_px / (np.ptp(proj[:, 0]) + 1e-9)
        if np.ptp(proj[:, 0]) > np.ptp(proj[:, 1])
        else side_px / np.ptp(proj[:, 1])
    )
    span = proj.max(axis=0) - proj.min(axis=0)
    room = np.maximum(np.array([w, h]) - span - 20, 1)
    proj += -proj.min(axis=0) + 10 + rng.uniform(0, 1, 2) * room
    return cv2.getPerspectiveTransform(pts.astype(np.float32) + board / 2, proj.astype(np.float32))


def background(rng: np.random.Generator, size: tuple[int, int], stripes: bool) -> np.ndarray:
    w, h = size
    img = np.empty((h, w, 3), np.uint8)
    img[:] = rng.integers(60, 200, 3)
    if stripes:
        period = int(rng.integers(20, 60))
        band = (np.arange(w) // period) % 2 == 1
        img[:, band] = rng.integers(60, 200, 3)
    return img


def draw_hand(img: np.ndarray, rng: np.random.Generator, target: np.ndarray, radius: float) -> None:
    """A skin-coloured palm over ``target`` with an arm reaching in from the frame's bottom."""
    skin = np.array([120, 150, 200]) + rng.integers(-30, 30, 3)
    h = img.shape[0]
    tx, ty = int(target[0]), int(target[1])
    cv2.line(img, (tx + int(radius), h + 50), (tx, ty), skin.tolist(), int(radius), cv2.LINE_AA)
    cv2.ellipse(
        img,
        (tx, ty),
        (int(radius), int(radius * 0.8)),
        float(rng.uniform(0, 180)),
        0,
        360,
        skin.tolist(),
        -1,
        cv2.LINE_AA,
    )


def render(
    seed: int,
    size: tuple[int, int] = (1280, 720),
    elevation_deg: float | None = None,
    yaw_deg: float | None = None,
    hand: bool = False,
    stripes: bool = False,
    homography: np.ndarray | None = None,
) -> TestFrame:
    """One frame; the same seed gives the same board, camera and table whatever the flags,
    so a frame with a hand, or from a bumped camera (``homography``), pairs with a clean one."""
    board_rng, camera_rng, table_rng, hand_rng, noise_rng = (
        np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(5)
    )
    parity = int(board_rng.integers(0, 2))
    if board_rng.uniform() < 0.5:
        occupied = start_occupancy(parity)
    else:
        occupied = (np.add.outer(range(8), range(8)) % 2 == parity) & (
            board_rng.uniform(size=(8, 8)) < 0.5
        )
    board = top_down(board_rng, parity, occupied)
    if homography is None:
        elevation = camera_rng.uniform(35, 90) if elevation_deg is None else elevation_deg
        yaw = camera_rng.uniform(0, 360) if yaw_deg is None else yaw_deg
        homography = perspective(camera_rng, size, elevation, yaw, camera_rng.uniform(380, 650))
    img = background(table_rng, size, stripes)
    warped = cv2.warpPerspective(board, homography, size, flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(
        np.full(board.shape[:2], 255, np.uint8), homography, size, flags=cv2.INTER_NEAREST
    )
    img[mask > 0] = warped[mask > 0]
    inner = np.array(
        [
            [FRAME, FRAME],
            [FRAME + 8 * PX, FRAME],
            [FRAME + 8 * PX, FRAME + 8 * PX],
            [FRAME, FRAME + 8 * PX],
        ],
        np.float64,
    )
    corners = cv2.perspectiveTransform(inner[None], homography)[0].astype(np.float32)
    if hand:
        centre = corners.mean(axis=0) + hand_rng.uniform(-0.2, 0.2, 2) * np.ptp(corners, axis=0)
        draw_hand(img, hand_rng, centre, 0.12 * np.ptp(corners[:, 0]))
    img = cv2.GaussianBlur(img, (3, 3), 0)
    img = np.clip(img + noise_rng.normal(0, 3, img.shape), 0, 255).astype(np.uint8)
    return TestFrame(img, corners, parity, occupied, homography)
