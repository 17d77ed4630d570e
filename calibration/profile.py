"""The board profile: one JSON file per camera, everything a board's set-up decided.

    {"version": 1, "image_size": [1280, 720],
     "corners": [[x, y], ...],        # the playing area's outer corners, clockwise on screen
     "quarter_turns": 1,              # corners rolled this many places start at square 1's corner
     "played": "dark",                # the colour of the squares in play
     "first_mover": "dark" | "light" | null (inferred from the first move),
     "rules": {...},                  # engine.Rules.to_dict() of the event
     "camera": null | {"matrix": 3x3, "distortion": [k1, k2, p1, p2, k3, k4, k5, k6] (OpenCV's
                       rational model; the five of the polynomial one are read too),
                       "rms": px, "views": n},
     "adaptation": null | {"model": fingerprint, "light_colour": Lab, "dark_colour": Lab,
                           "piece_bias": x, "king_threshold": x}}

Corners are camera pixels (of the distorted frame, as the camera gives it). A profile that
cannot be read is an error naming the file and the field (:class:`ProfileError`), never a
board read with defaults: a wrong numbering or a wrong colour model would referee a game
wrongly without anyone noticing.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from makhos.engine import Colour, Rules
from makhos.vision.geometry import BoardLocation, clockwise, location_from_corners
from makhos.vision.lens import Lens

from .adaptation import SetAdaptation
from .intrinsics import LensCalibration

VERSION = 1


class ProfileError(ValueError):
    """A profile file that cannot be used, with the file and the field at fault."""

    def __init__(self, path: Path | str, field: str, problem: str) -> None:
        super().__init__(f"board profile {path}: {field}: {problem}")
        self.path, self.field, self.problem = str(path), field, problem


@dataclass(frozen=True)
class BoardProfile:
    """One camera's board: where it is, how it is numbered, the event's rules, the lens and
    the piece set's colour model."""

    image_size: tuple[int, int]
    corners: np.ndarray  # (4, 2) clockwise on screen, camera pixels
    quarter_turns: int
    played: str
    rules: Rules = Rules()
    first_mover: Colour | None = None
    camera: LensCalibration | None = None
    adaptation: SetAdaptation | None = None

    @property
    def location(self) -> BoardLocation:
        """The board in the numbering frame (first corner = square 1's corner)."""
        return location_from_corners(self.corners).rotated(self.quarter_turns)

    @property
    def lens(self) -> Lens | None:
        return self.camera.lens if self.camera is not None else None

    def to_json(self) -> dict[str, Any]:
        camera = adaptation = None
        if self.camera is not None:
            camera = {"matrix": _floats(self.camera.lens.matrix),
                      "distortion": _floats(self.camera.lens.distortion),
                      "rms": round(self.camera.rms, 4), "views": self.camera.views}
        if self.adaptation is not None:
            a = self.adaptation
            adaptation = {"model": a.model, "light_colour": _floats(a.light_colour),
                          "dark_colour": _floats(a.dark_colour),
                          "piece_bias": round(a.piece_bias, 4),
                          "king_threshold": round(a.king_threshold, 4)}
        return {"version": VERSION, "image_size": list(self.image_size),
                "corners": _floats(self.corners, 2), "quarter_turns": self.quarter_turns,
                "played": self.played,
                "first_mover": None if self.first_mover is None else self.first_mover.value,
                "rules": self.rules.to_dict(), "camera": camera, "adaptation": adaptation}

    def save(self, path: Path | str) -> None:
        """Write atomically: a reader (or a crash) never leaves half a profile behind."""
        path = Path(path)
        partial = path.with_name(f".{path.name}.part")
        # One field per line, each on one line: a person can read and compare profiles.
        fields = (f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}"
                  for k, v in self.to_json().items())
        partial.write_text("{\n" + ",\n".join(fields) + "\n}\n", encoding="utf-8")
        os.replace(partial, path)

    @classmethod
    def load(cls, path: Path | str) -> "BoardProfile":
        """Read a profile; :class:`ProfileError` for anything missing, malformed or of
        another version."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as error:
            raise ProfileError(path, "file", error.strerror or str(error)) from None
        except UnicodeDecodeError:
            raise ProfileError(path, "file", "not UTF-8 text") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise ProfileError(path, "file", f"not valid JSON ({error})") from None
        return _Reader(path).profile(data)


class _Reader:
    """Checks each field of a profile's JSON, naming it when it is wrong."""

    def __init__(self, path: Path | str) -> None:
        self.path = path

    def fail(self, field: str, problem: str) -> ProfileError:
        return ProfileError(self.path, field, problem)

    def get(self, data: dict[str, Any], field: str, prefix: str = "") -> Any:
        if field not in data:
            raise self.fail(prefix + field, "missing")
        return data[field]

    def numbers(self, value: Any, field: str, shape: tuple[int, ...]) -> np.ndarray:
        try:
            array = np.array(value, dtype=np.float64)
        except (TypeError, ValueError):
            raise self.fail(field, f"expected numbers of shape {shape}") from None
        if array.shape != shape or not np.all(np.isfinite(array)):
            raise self.fail(field, f"expected finite numbers of shape {shape}, got {value!r}")
        return array

    def number(self, value: Any, field: str) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not np.isfinite(value):
            raise self.fail(field, f"expected a number, got {value!r}")
        return float(value)

    def profile(self, data: Any) -> BoardProfile:
        if not isinstance(data, dict):
            raise self.fail("file", "expected a JSON object")
        version = self.get(data, "version")
        if version != VERSION:
            raise self.fail("version", f"version {version!r} is not supported (this makhos reads "
                                       f"version {VERSION}); calibrate again with makhos calibrate")
        size = self.numbers(self.get(data, "image_size"), "image_size", (2,))
        if (size < 16).any() or (size != np.round(size)).any():
            raise self.fail("image_size", f"expected [width, height] in pixels, got {size.tolist()}")
        corners = self.numbers(self.get(data, "corners"), "corners", (4, 2))
        if not clockwise(corners):
            raise self.fail("corners", "expected the four corners clockwise on screen")
        turns = self.get(data, "quarter_turns")
        if isinstance(turns, bool) or turns not in (0, 1, 2, 3):
            raise self.fail("quarter_turns", f"expected 0, 1, 2 or 3, got {turns!r}")
        played = self.get(data, "played")
        if played not in ("dark", "light"):
            raise self.fail("played", f"expected 'dark' or 'light', got {played!r}")
        mover = self.get(data, "first_mover")
        if mover not in (None, "dark", "light"):
            raise self.fail("first_mover", f"expected 'dark', 'light' or null, got {mover!r}")
        rules = self.get(data, "rules")
        try:
            rules = Rules.from_dict(rules)
        except (ValueError, TypeError, AttributeError) as error:
            raise self.fail("rules", str(error)) from None
        return BoardProfile(
            image_size=(int(size[0]), int(size[1])), corners=corners, quarter_turns=turns,
            played=played, rules=rules, first_mover=None if mover is None else Colour(mover),
            camera=self.camera(self.get(data, "camera"), (int(size[0]), int(size[1]))),
            adaptation=self.adaptation(self.get(data, "adaptation")))

    def camera(self, data: Any, size: tuple[int, int]) -> LensCalibration | None:
        if data is None:
            return None
        if not isinstance(data, dict):
            raise self.fail("camera", "expected an object or null")
        matrix = self.numbers(self.get(data, "matrix", "camera."), "camera.matrix", (3, 3))
        if matrix[0, 0] <= 0 or matrix[1, 1] <= 0 or not np.allclose(matrix[2], [0, 0, 1]):
            raise self.fail("camera.matrix", "not a camera matrix (positive focal lengths, "
                                             "last row 0 0 1)")
        distortion = self.get(data, "distortion", "camera.")
        lengths = (5, 8)
        shape = (len(distortion),) if isinstance(distortion, list) and len(distortion) in lengths else (8,)
        distortion = self.numbers(distortion, "camera.distortion", shape)
        rms = self.number(self.get(data, "rms", "camera."), "camera.rms")
        views = self.get(data, "views", "camera.")
        if isinstance(views, bool) or not isinstance(views, int) or views < 1:
            raise self.fail("camera.views", f"expected a positive count, got {views!r}")
        return LensCalibration(Lens(matrix, distortion, size), rms, views)

    def adaptation(self, data: Any) -> SetAdaptation | None:
        if data is None:
            return None
        if not isinstance(data, dict):
            raise self.fail("adaptation", "expected an object or null")
        model = self.get(data, "model", "adaptation.")
        if not isinstance(model, str) or not model:
            raise self.fail("adaptation.model", f"expected the network's fingerprint, got {model!r}")
        return SetAdaptation(
            model=model,
            light_colour=self.numbers(self.get(data, "light_colour", "adaptation."),
                                      "adaptation.light_colour", (3,)),
            dark_colour=self.numbers(self.get(data, "dark_colour", "adaptation."),
                                     "adaptation.dark_colour", (3,)),
            piece_bias=self.number(self.get(data, "piece_bias", "adaptation."),
                                   "adaptation.piece_bias"),
            king_threshold=self.number(self.get(data, "king_threshold", "adaptation."),
                                       "adaptation.king_threshold"))


def _floats(array: np.ndarray, digits: int = 6) -> list[Any]:
    values: list[Any] = np.round(np.asarray(array, np.float64), digits).tolist()
    return values
