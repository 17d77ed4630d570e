"""Synthetic game videos with their truth: the test bed of the whole pipeline."""

from .script import GameScript, Shot, TruthEvent, script_game

__all__ = ["GameScript", "Shot", "TruthEvent", "script_game"]
