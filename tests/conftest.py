"""The helpers some tests share (the scripted hall's record snapshot, the tracker's feed of
readings) live beside the tests that made them; these folders are importable from all."""

import sys
from pathlib import Path

for folder in ("events", "tracker", "vision"):
    path = str(Path(__file__).parent / folder)
    if path not in sys.path:
        sys.path.insert(0, path)
