"""The compiled hot path and its Python source give the same answers (#44), and the
package picks the right one: the compiled modules where the build made them for these
sources, the source where nothing was compiled, where asked, or where the sources changed
since the build (``engine/native.py``)."""

from __future__ import annotations

import doctest
import importlib
import json
import os
import random
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import makhos.engine
from makhos.engine import CapturedRemoval, Rules, movegen, native, perft, search, squares, tree

ENGINE = Path(makhos.engine.__file__).parent
TACTICS = Path(__file__).parent / "data" / "tactics.json"
RULE_SETS = {"end_of_turn": Rules(), "immediate": Rules(captured_removal=CapturedRemoval.IMMEDIATE)}

compiled_here = pytest.mark.skipif(
    not makhos.engine.COMPILED, reason="nothing compiled for these sources here: the source is all that runs")


def _is_extension(module: ModuleType) -> bool:
    return str(module.__file__).endswith(tuple(EXTENSION_SUFFIXES))


def _played_positions(rules: Rules, count: int, seed: int) -> list[str]:
    """Positions of random games from the start (men, kings, captures of every length)."""
    rng = random.Random(seed)
    fens: list[str] = []
    while len(fens) < count:
        position = makhos.engine.Position.start(rules)
        for ply in range(rng.randrange(8, 70)):
            moves = position.legal_moves(rules)
            if not moves:
                break
            position = position.play(rng.choice(moves))
        fens.append(position.fen())
    return fens


def _answers(engine: ModuleType, rules: Rules, fens: list[str]) -> list[Any]:
    """What one engine says of each position: its moves, perft, and searches at a fixed
    depth and at a fixed node budget (score, move, line, depth and nodes)."""
    search, perft = engine.search, engine.perft
    rule_set = engine.Rules.from_dict(rules.to_dict())
    out: list[Any] = []
    for fen in fens:
        position = engine.Position.from_fen(fen)
        said: list[Any] = [[str(m) for m in position.legal_moves(rule_set)], perft.perft(position, 3, rule_set)]
        for limits in (search.Limits(depth=5), search.Limits(nodes=3_000)):
            a = search.Searcher(rule_set).search(position, limits)
            said.append((a.score.value, str(a.best), [str(m) for m in a.pv], a.depth, a.nodes, a.exact))
        out.append(said)
    return out


def _self_play(engine: ModuleType, plies: int) -> list[str]:
    """A game of the engine against itself at 1,500 nodes a move: its moves."""
    game = engine.game.Game()
    searcher = engine.search.Searcher()
    moves: list[str] = []
    while len(moves) < plies and game.result() is None:
        found = searcher.search_at(engine.search.GamePosition.of(game, len(game.plies)),
                                   engine.search.Limits(nodes=1_500))
        if found.best is None:
            break
        game.play(found.best)
        moves.append(str(found.best))
    return moves


@compiled_here
def test_the_hot_path_runs_compiled_where_the_build_made_it():
    assert all(_is_extension(m) for m in (movegen, tree, perft, squares))
    assert not _is_extension(search)  # the public Searcher stays a plain class


@compiled_here
@pytest.mark.parametrize("rules", RULE_SETS.values(), ids=RULE_SETS.keys())
def test_compiled_and_source_agree_on_moves_perft_and_searches(pure_engine, rules):
    fens = [case["fen"] for case in json.loads(TACTICS.read_text())[:12]]
    fens += _played_positions(rules, 24, seed=44)
    assert _answers(makhos.engine, rules, fens) == _answers(pure_engine, rules, fens)


@compiled_here
def test_compiled_and_source_play_the_same_game(pure_engine):
    moves = _self_play(makhos.engine, 60)
    assert len(moves) >= 30
    assert moves == _self_play(pure_engine, 60)


@pytest.mark.parametrize("name", native.COMPILED_MODULES)
def test_the_examples_of_the_compiled_modules_run_on_their_source(pure_engine, name):
    """Compiled functions keep no docstrings, so tests/test_doctests.py does not see these."""
    module = importlib.import_module(f"{pure_engine.__name__}.{name}")
    assert doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE).failed == 0


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A folder from which ``import makhos.engine`` finds a copy of this engine, compiled
    modules included (the editable install's import hook is not in an isolated run)."""
    (tmp_path / "makhos").mkdir()
    (tmp_path / "makhos" / "__init__.py").write_text("")
    shutil.copytree(ENGINE, tmp_path / "makhos" / "engine", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def _engine_in(site: Path, **env: str) -> list[str]:
    """Whether the engine in ``site`` runs compiled, and whether its tree is the source."""
    code = ("import makhos.engine as e, makhos.engine.tree as t; "
            "print(e.COMPILED, t.__file__.endswith('.py'))")
    run = subprocess.run([sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(site)!r}); {code}"],
                         capture_output=True, text=True, timeout=120, env={**os.environ, **env})
    assert run.returncode == 0, run.stderr[-2000:]
    return run.stdout.split()


def test_the_source_runs_when_asked(site):
    assert _engine_in(site, MAKHOS_PURE_ENGINE="1") == ["False", "True"]


@compiled_here
def test_an_engine_edited_after_its_build_runs_from_source(site):
    assert _engine_in(site) == ["True", "False"]
    with (site / "makhos" / "engine" / "game.py").open("a") as edited:
        edited.write("\n# an edit after the build\n")
    assert _engine_in(site) == ["False", "True"]
