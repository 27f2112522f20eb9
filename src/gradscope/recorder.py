"""Where the recorder used to live: see the `gradscope.record` package."""

from .record import MAX_BACKWARD_CALLS, Recorder

__all__ = ["MAX_BACKWARD_CALLS", "Recorder"]
