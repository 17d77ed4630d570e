"""The crop the reader is trained and run on (kept here beside the lab code and in
``vision.reader``, which owns the run-time copy)."""

from makhos.vision.reader import GEOMETRY

__all__ = ["GEOMETRY"]
