"""``makhos serve``: its options and the hall profile."""

from __future__ import annotations

import json

import pytest

from makhos.cli.main import build_parser
from makhos.cli.serve import load_profile
from makhos.server.config import BoardInfo, Scoring


def test_binds_loopback_unless_told_otherwise():
    args = build_parser().parse_args(["serve"])
    assert args.host == "127.0.0.1" and args.port == 5000 and args.delay == 0.0
    assert args.token is None and str(args.events) == "events.db"


def test_profile_names_boards_event_and_scoring(tmp_path):
    path = tmp_path / "hall.json"
    path.write_text(json.dumps({"event": "PEA Open", "site": "Bangkok, Thailand", "scoring": [3, 1, 0],
                                "boards": [{"id": "1", "label": "โต๊ะ 1"}, {"id": "2"}]}))
    settings = load_profile(path)
    assert settings["event_name"] == "PEA Open" and settings["scoring"] == Scoring(3, 1, 0)
    assert settings["site"] == "Bangkok, Thailand"
    assert settings["boards"] == (BoardInfo("1", "โต๊ะ 1"), BoardInfo("2", ""))


@pytest.mark.parametrize("text", ["{", "[]", '{"boards": [{"label": "x"}]}'])
def test_bad_profile_is_a_clear_error(tmp_path, text):
    path = tmp_path / "hall.json"
    path.write_text(text)
    with pytest.raises(ValueError, match="hall.json"):
        load_profile(path)


def test_analysis_is_off_unless_the_profile_switches_it_on(tmp_path):
    from makhos.server.config import AnalysisSettings

    path = tmp_path / "hall.json"
    path.write_text(json.dumps({"event": "PEA Open"}))
    assert "analysis" not in load_profile(path)  # ServerConfig's default: None, off
    path.write_text(json.dumps({"analysis": {"seconds": 2}}))
    assert load_profile(path)["analysis"] == AnalysisSettings(seconds=2.0)
    path.write_text(json.dumps({"analysis": False}))
    assert load_profile(path)["analysis"] is None


@pytest.mark.parametrize("analysis", ["on", {"seconds": -1}, {"time": 1}, {"depth": "deep"}])
def test_bad_analysis_settings_are_a_clear_error(tmp_path, analysis):
    path = tmp_path / "hall.json"
    path.write_text(json.dumps({"analysis": analysis}))
    with pytest.raises(ValueError, match="hall.json: bad hall profile \\(analysis"):
        load_profile(path)


def test_a_boards_camera_picture_is_off_unless_the_profile_says_true(tmp_path):
    path = tmp_path / "hall.json"
    path.write_text(json.dumps({"boards": [{"id": "1", "picture": True}, {"id": "2"}]}))
    assert [b.picture for b in load_profile(path)["boards"]] == [True, False]
    path.write_text(json.dumps({"boards": [{"id": "1", "picture": "yes"}]}))
    with pytest.raises(ValueError, match="board 1: picture must be true or false"):
        load_profile(path)
