"""A board's vision stages set up from its profile: the numbering, the lens and the set."""

from __future__ import annotations

from pathlib import Path

from vision.board_tracker import BoardTracker
from vision.classifier import DEFAULT_MODEL, SquareClassifier
from vision.geometry import location_from_corners
from vision.pipeline import BoardReader

from .adaptation import AdaptedClassifier, model_fingerprint
from .profile import BoardProfile, ProfileError


def board_reader(profile: BoardProfile, where: Path | str,
                 model: Path | str = DEFAULT_MODEL) -> BoardReader:
    """A BoardReader that starts from the profile's corners and numbering, cuts crops
    through its lens and reads them with its set adaptation. ``where`` names the profile
    in errors: an adaptation fitted for another network is refused, not applied."""
    network = SquareClassifier(model)
    classifier: SquareClassifier | AdaptedClassifier = network
    if profile.adaptation is not None:
        installed = model_fingerprint(model)
        if profile.adaptation.model != installed:
            raise ProfileError(where, "adaptation.model",
                               f"fitted for network {profile.adaptation.model}, the installed one "
                               f"is {installed}: run makhos calibrate again with the start position")
        classifier = AdaptedClassifier(network, profile.adaptation)
    # The tracker keeps the corner order of its first location through every re-search,
    # so the profile's numbering holds after a bump; the lens places the corners it finds.
    tracker = BoardTracker(initial=location_from_corners(profile.corners), lens=profile.lens)
    return BoardReader(classifier, tracker=tracker, played=profile.played,
                       quarter_turns=profile.quarter_turns, lens=profile.lens)
