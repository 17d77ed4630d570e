"""A board's vision stages set up from its profile: the numbering, the lens and the set."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from makhos.vision.follower import BoardFollower
from makhos.vision.classifier import DEFAULT_MODEL, model_path
from makhos.vision.geometry import BoardLocation, location_from_corners
from makhos.vision.pipeline import BoardReader
from makhos.vision.learning import AdaptingReader
from makhos.vision.networks import Networks
from makhos.vision.rectify import crop_squares
from makhos.vision.squares import SquareReader

from .adaptation import AdaptedClassifier, model_fingerprint
from .profile import BoardProfile, ProfileError


def square_reader(profile: BoardProfile | None = None, where: Path | str = "the board profile",
                  model: Path | str | None = None, networks: Networks | None = None,
                  live: bool = False) -> SquareReader:
    """The one place that picks which network reads the squares (``docs/reading.md``).

    A board profile reads with the square classifier and the set adaptation calibration
    fitted on it (``calibration.adaptation``; refused where it was fitted for another
    network, ``where`` naming the profile in the error); a square classifier file given by
    hand (``--model``) reads alone; anything else reads with the piece reader, zero-shot
    until the start position teaches it the board and learning the board as the game goes
    (``live``: frames come in real time, so a read never waits for a refit; see
    ``AdaptingReader``). The network comes from ``networks`` (those a process shares among
    its boards), else is loaded for this reader alone.
    """
    networks = networks if networks is not None else Networks()
    if profile is None and model is None:
        return AdaptingReader(networks.piece_reader(), live=live)
    path = model_path(model)
    network = networks.square_classifier(path)
    if profile is None or profile.adaptation is None:
        return network
    installed = model_fingerprint(path)
    if profile.adaptation.model != installed:
        raise ProfileError(where, "adaptation.model",
                           f"fitted for network {profile.adaptation.model}, the installed one "
                           f"is {installed}: run makhos calibrate again with the start position")
    return AdaptedClassifier(network, profile.adaptation)


def board_reader(profile: BoardProfile, where: Path | str, model: Path | str = DEFAULT_MODEL,
                 networks: Networks | None = None) -> BoardReader:
    """A BoardReader that starts from the profile's corners and numbering, cuts crops
    through its lens and reads them with its set adaptation (``square_reader``)."""
    classifier = square_reader(profile, where, model, networks)
    # The follower keeps the corner order of its first location through every re-search,
    # so the profile's numbering holds after a bump; the lens places the corners it finds.
    follower = BoardFollower(initial=location_from_corners(profile.corners), lens=profile.lens)
    return BoardReader(classifier, follower=follower, played=profile.played,
                       quarter_turns=profile.quarter_turns, lens=profile.lens)


def read_photograph(profile: BoardProfile, where: Path | str, image: np.ndarray,
                    model: Path | str = DEFAULT_MODEL) -> tuple[BoardLocation, np.ndarray]:
    """One photograph read as the profile sets the board up: the board in the numbering
    frame and the (32, 5) probabilities of its squares.

    The board is looked for where the profile has it, as a running board's follower would on
    its first frame: corners that still show the grid's polarity are refitted there (through
    the lens), a board that moved is searched for and numbered like the profile's corners,
    and a board hidden from the probe keeps the profile's corners. ValueError for an image
    of another size than the profile's, or a board neither there nor anywhere in view.
    """
    size = (image.shape[1], image.shape[0])
    if size != profile.image_size:
        raise ValueError(f"the image is {size[0]}x{size[1]}, the board profile {where} is for "
                         f"{profile.image_size[0]}x{profile.image_size[1]} frames of its camera")
    reader = board_reader(profile, where, model)
    found = reader.follower.update(image, 0.0)
    if found is None:
        raise ValueError(f"the board is not where the profile {where} has it, nor elsewhere "
                         "in view: was the camera moved? calibrate it again")
    location = found.rotated(profile.quarter_turns)
    crops = crop_squares(image, location.corners, profile.played, lens=profile.lens)
    return location, reader.classifier.classify(crops)
