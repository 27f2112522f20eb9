"""Errors gradscope raises to its callers (never into a recorded program's own code paths)."""

from __future__ import annotations


class RecordingError(RuntimeError):
    """A recording cannot start: another one is running in this process (`gradscope run`, the
    pytest plugin, the IPython magic or a `gradscope.record()` block), or this one already ran."""


class TargetError(Exception):
    """The script, module or notebook cannot be run at all (missing, unreadable, not valid
    Python); `exit_status` is the one Python itself would exit with."""

    def __init__(self, message: str, exit_status: int):
        super().__init__(message)
        self.exit_status = exit_status
