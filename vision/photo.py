"""One photograph of a board read: locate it, number it, choose the colour in play, crop and
read the 32 squares. ``makhos read``, calibration and the camera pipeline all take this path,
so a photo reads the same whichever of them looks at it."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .geometry import BoardLocation
from .lens import Lens
from .locate import locate_board
from .orientation import Orientation, colour_in_play, orient
from .rectify import crop_squares
from .squares import SquareReader


@dataclass(frozen=True)
class PhotoReading:
    """A photo's board as found (``found``: the locator's corner order), the numbering and
    colour in play it reads under (``orientation``), and its (32, 5) probabilities."""

    found: BoardLocation
    orientation: Orientation
    probabilities: np.ndarray


def numbered(reader: SquareReader, image: np.ndarray, found: BoardLocation,
             lens: Lens | None = None) -> Orientation:
    """The numbering of a located board from its pieces, with the colour in play checked by
    the square reader (``vision.orientation``)."""
    return colour_in_play(reader, image, orient(image, found), lens)


def read_located(reader: SquareReader, image: np.ndarray, found: BoardLocation,
                 lens: Lens | None = None) -> PhotoReading:
    """The squares of a board already located in ``image``, read in the numbering its pieces give."""
    orientation = numbered(reader, image, found, lens)
    crops = crop_squares(image, orientation.location.corners, orientation.played, reader.geometry, lens)
    return PhotoReading(found, orientation, reader.classify(crops))


def read_photo(reader: SquareReader, image: np.ndarray, lens: Lens | None = None) -> PhotoReading | None:
    """The board in one photograph, read; None where no board is found."""
    found = locate_board(image)
    return None if found is None else read_located(reader, image, found, lens)
