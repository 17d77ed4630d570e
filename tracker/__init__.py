"""From readings to a refereed game: the one place where vision meets the rules."""

from .config import TrackerConfig
from .tracker import GameTracker

__all__ = ["GameTracker", "TrackerConfig"]
