"""Every command spells each idea one way (#41): the parsers of ``makhos`` held to cli/flags.py."""

import argparse

import pytest

from makhos.cli.flags import SPELLINGS, DeprecatedAlias
from makhos.cli.main import build_parser, main

#: What each command was once given in another spelling: old spelling -> the idea it names now.
OLD = {"run": {"--profile": "board_profile", "--realtime": "speed"},
       "demo": {"--profile": "board_profile"},
       "read": {"image": "source", "--profile": "board_profile"},
       "record": {"video": "source"},
       "worker": {"--profile": "hall_profile"},
       "serve": {"--boards": "hall_profile"},
       "analyse": {"--out": "output"}}


def commands() -> dict[str, argparse.ArgumentParser]:
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


@pytest.mark.parametrize("name", sorted(commands()))
def test_each_idea_has_one_spelling_in_every_command(name):
    shown = [a for a in commands()[name]._actions if a.help != argparse.SUPPRESS]
    for action in shown:
        if action.dest in SPELLINGS:
            assert tuple(action.option_strings) == SPELLINGS[action.dest], (name, action.dest)
        spelt = {s for s in action.option_strings if any(s in canon for canon in SPELLINGS.values())}
        assert not spelt or action.dest in SPELLINGS, f"{name}: {spelt} parses into {action.dest}"
    hidden = {a.option_strings[0] if a.option_strings else str(a.metavar).lower(): a.dest
              for a in commands()[name]._actions if isinstance(a, DeprecatedAlias)}
    assert {old: hidden.get(old) for old in OLD.get(name, {})} == OLD.get(name, {}), name
    assert all(dest in SPELLINGS for dest in hidden.values())


def test_an_old_spelling_still_works_and_says_what_replaces_it(capsys):
    parser = commands()["worker"]
    args = parser.parse_args(["--board", "7", "--profile", "hall.json"])
    assert str(args.hall_profile) == "hall.json" and args.board_profile is None
    assert capsys.readouterr().err.strip() == "makhos worker: --profile is deprecated, use --hall-profile"
    assert commands()["run"].parse_args(["--source", "0", "--realtime"]).speed == 1.0
    assert str(commands()["analyse"].parse_args(["g.pdn", "--out", "a.pdn"]).output) == "a.pdn"
    args = commands()["record"].parse_args(["game.mp4"])
    assert str(args.source) == "game.mp4" and args.board == "1"
    assert capsys.readouterr().err.splitlines() == [
        "makhos run: --realtime is deprecated, use --speed",
        "makhos analyse: --out is deprecated, use -o/--output",
        "makhos record: the positional VIDEO is deprecated, use --source"]


def test_a_new_spelling_says_nothing(capsys):
    commands()["record"].parse_args(["--source", "game.mp4", "--events", "log.db"])
    assert capsys.readouterr().err == ""


def test_a_command_without_its_source_says_so(capsys):
    assert main(["record", "-o", "game.pdn"]) == 2
    assert "--source is required" in capsys.readouterr().err
