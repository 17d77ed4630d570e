"""The recorder: a camera's frames through vision and the tracker into a board's event log."""

from .session import BoardSession

__all__ = ["BoardSession"]
