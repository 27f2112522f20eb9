"""Gradient accumulation wiped: `.grad` reset between backward calls whose sum a step was meant to
use (zero_grad before every micro-batch). Facts kept: the last backward calls that added to
.grad, and the resets that threw away gradients no step had used yet. Correct loops never get
past the first test in `reset` (their resets follow a step), so this costs nothing there."""

from __future__ import annotations

import sys
from collections import deque

from ..trace.locations import capture, capture_stack

MAX_HISTORY = 64  # backward calls remembered (an accumulation window is shorter)
MAX_RESETS = 16


class AccumulationWatch:
    def __init__(self):
        self.count = 0  # backward calls that added into .grad (not autograd.grad)
        self._consumed = 0  # `count` when a step (of any optimizer) last used the gradients
        self._history: deque = deque(maxlen=MAX_HISTORY)  # (count, raw location) of each such call
        # (count at the reset, [raw locations of its lines], id of a parameter reset or None,
        #  the lines of the backward calls whose gradients it threw away)
        self._resets: deque = deque(maxlen=MAX_RESETS)
        self._cleared = 0  # `count` when .grad was last reset (a zero_grad)

    def added(self, loc) -> None:
        """A backward call that adds into .grad began at `loc` (raw location)."""
        self.count += 1
        self._history.append((self.count, loc))

    def used(self) -> None:
        """An optimizer step (or GradScaler's unscale, also when the scaler then skips the step)
        used the gradients."""
        self._consumed = self.count

    def written(self) -> None:
        """`p.grad = g`: the program writes the gradients itself (gradient surgery, a manual
        all-reduce), so resets before it threw away nothing the step was meant to use."""
        self._resets.clear()

    def reset(self, param) -> None:
        """`p.grad = None` (param given), or a `zero_` (param None: counted only inside a
        `zero_grad()`)."""
        if self.count <= self._consumed and self.count <= self._cleared:
            return
        if param is None and not _inside_zero_grad(sys._getframe(2)):
            return  # a zero_ of some tensor, not of gradients
        self._cleared = self.count
        if self.count <= self._consumed:
            return
        last = self._resets[-1] if self._resets else None
        if last is not None and last[0] == self.count:
            here = capture()[0]  # a further reset after the same backward: another line (a second optimizer)?
            if len(last[1]) < 4 and here is not None and not any(_same_line(loc, here) for loc in last[1]):
                last[1].append(capture_stack()[0])
            return
        lost = [loc for count, loc in self._history if count > self._consumed]
        self._resets.append((self.count, [capture_stack()[0]], id(param) if param is not None else None, lost))

    def since_cleared(self, limit: int = 4) -> list:
        """The raw locations of the lines (distinct, oldest first) of the backward calls whose
        gradients are in .grad now and no step used yet: those since the last reset and since
        the last step (of any optimizer: another's backward, used by its own step, is not this
        step's). Call it before the step marks the gradients used."""
        found, since = [], max(self._cleared, self._consumed)
        for count, loc in self._history:
            # (with the callers: `accelerator.backward(loss)` from two lines is one library line)
            if count > since and loc is not None and not any(_same_call(loc, other) for other in found):
                found.append(loc)
                if len(found) == limit:
                    break
        return found

    def wiped(self, since: int, param_ids: set[int]):
        """At a step of an optimizer that last stepped at `since` (a `count`) and holds
        `param_ids`: a reset since then that threw away gradients of a backward line that ran again
        after it, before this step. Returns (the reset's raw locations, that backward's raw
        location) or None. Then marks the gradients used."""
        found = None
        for count, locs, param_id, lost in self._resets:
            if not since < count < self.count or (param_id is not None and param_id not in param_ids):
                continue
            later = [loc for c, loc in self._history if c > count]
            again = next((loc for loc in lost if any(_same_line(loc, other) for other in later)), None)
            if again is not None:
                found = (locs, again)
                break
        self.used()
        return found


def _inside_zero_grad(frame, depth: int = 6) -> bool:
    """Is a `zero_grad` (an optimizer's or a module's) among the nearest frames?"""
    while frame is not None and depth > 0:
        if frame.f_code.co_name == "zero_grad":
            return True
        frame, depth = frame.f_back, depth - 1
    return False


def _same_call(a, b) -> bool:
    """Two raw locations of one line reached through the same lines."""
    return _same_line(a, b) and (a[2] if len(a) > 2 else ()) == (b[2] if len(b) > 2 else ())


def _same_line(a, b) -> bool:
    """Two raw locations (code, offset, callers) of one line of code."""
    return a is not None and b is not None and a[0] is b[0] and a[1] == b[1]
