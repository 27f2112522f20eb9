"""Errors gradscope raises to its callers (never into a recorded program's own code paths)."""

from __future__ import annotations


class RecordingError(RuntimeError):
    """A recording cannot start: another one is running in this process (`gradscope run`, the
    pytest plugin, the IPython magic or a `gradscope.record()` block), or this one already ran."""
