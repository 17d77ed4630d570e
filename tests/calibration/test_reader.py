"""A BoardReader set up from a profile: numbering, lens and set from the file, checked."""

from dataclasses import replace

import numpy as np
import pytest

from makhos.calibration.adaptation import fit_adaptation, model_fingerprint
from makhos.calibration.intrinsics import LensCalibration
from makhos.calibration.profile import BoardProfile, ProfileError
from makhos.calibration.reader import board_reader
from lab.render import Renderer
from makhos.vision.classifier import DEFAULT_MODEL, SquareClassifier
from makhos.vision.reading import labels_of
from makhos.vision.lens import Lens

from synthetic import START, START_PIECES, distorted_scene


@pytest.fixture(scope="module")
def setup():
    scene = distorted_scene(seed=6)
    frame = Renderer(scene).render(START_PIECES, seed=2)
    lens = Lens(scene.camera.K, scene.camera.dist, (1280, 720))
    fitted = fit_adaptation(SquareClassifier(), frame.image, frame.corners, frame.played, START,
                            model_fingerprint(DEFAULT_MODEL), lens=lens)
    # Stored as a calibration would: clockwise from another corner, with the quarter turns.
    profile = BoardProfile((1280, 720), np.roll(frame.corners, 1, axis=0).astype(float), 1,
                           frame.played, camera=LensCalibration(lens, 0.1, 5), adaptation=fitted)
    return profile, frame


def test_the_profile_numbers_and_reads_the_board_from_the_first_still_frames(setup):
    profile, frame = setup
    reader = board_reader(profile, "board.json")
    result = None
    for k in range(40):  # 1.3 s of a still board at 30 fps
        result = reader.process(frame.image, k / 30)
    assert result.reading is not None and result.played == frame.played
    assert np.abs(result.location.corners - frame.corners).max() < 3.0
    assert labels_of(result.reading.probabilities).lower() == START
    # The tracker's refits place the corners through the profile's lens.
    assert reader.follower.lens is profile.lens


def test_an_adaptation_for_another_network_is_refused(setup):
    profile, _ = setup
    other = replace(profile, adaptation=replace(profile.adaptation, model="not-this-network"))
    with pytest.raises(ProfileError) as error:
        board_reader(other, "board.json")
    assert error.value.field == "adaptation.model"


def test_frames_of_another_size_are_refused(setup):
    profile, frame = setup
    reader = board_reader(profile, "board.json")
    with pytest.raises(ValueError, match="calibrated at 1280x720"):
        reader.process(frame.image[:360, :640], 0.0)
