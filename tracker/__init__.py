"""From readings to a refereed game: the one place where vision meets the rules."""

from .tracker import GameTracker, TrackerConfig

__all__ = ["GameTracker", "TrackerConfig"]
