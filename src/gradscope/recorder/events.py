"""Logs at the bottom of the recorder: one event per user line and kind, and gradscope's own errors."""

from __future__ import annotations

import os
import traceback

from ..trace.locations import capture_stack
from .records import MAX_EVENTS, MAX_INTERNAL_ERRORS

EVENT_KINDS = ("escape", "grad_read", "hook", "stale", "revival", "moved", "freeze", "dead_term", "unfreeze",
               "clip", "unscale")


class EventLog:
    """Rare events (a `.item()` on a tensor that requires grad, a hook registered, ...), kept once
    per user line and kind, at most MAX_EVENTS of each: a loop repeats lines, not news."""

    def __init__(self):
        self.by_kind: dict[str, dict] = {kind: {} for kind in EVENT_KINDS}

    def add(self, kind: str, make, loc=None) -> None:
        """Record one event of `kind` at `loc` (the calling user line if None); `make(loc)` builds it."""
        if loc is None:
            loc = capture_stack()[0]
        events = self.by_kind[kind]
        if loc not in events and len(events) < MAX_EVENTS:
            events[loc] = make(loc)

    def get(self, kind: str, loc):
        return self.by_kind[kind].get(loc)

    def get_last(self, kind: str):
        """The event of `kind` for the line that called (the one `add` just made or found)."""
        loc = capture_stack()[0]
        return self.by_kind[kind].get(loc)


class InternalErrors:
    """Errors inside gradscope's own hooks: recorded and reported, never raised into the program."""

    def __init__(self):
        self.messages: list[str] = []
        self.count = 0

    def add(self, exc: BaseException) -> None:
        self.count += 1
        if len(self.messages) < MAX_INTERNAL_ERRORS:
            where = traceback.extract_tb(exc.__traceback__)[-1:] if exc.__traceback__ else []
            place = f" (at {os.path.basename(where[0].filename)}:{where[0].lineno})" if where else ""
            self.messages.append(f"{type(exc).__name__}: {exc}{place}")

    def report(self) -> list[str]:
        more = self.count - len(self.messages)
        return self.messages + ([f"... and {more} more"] if more > 0 else [])
