"""Where custom autograd Functions were applied.

`Function.apply` does not pass through the torch-function mode, so a custom Function's node is
first seen by the next op that uses its output, on that op's line. The ops inside its forward
are seen, though (grad off, inputs that require grad): from the first of them, the forward's
caller is the line that applied the Function, kept per node class (the latest apply).
"""

from __future__ import annotations

from ..trace.locations import capture_stack, user_frame
from .reads import BackwardCFunction


class FunctionApplies:
    def __init__(self):
        self.where: dict[type, tuple] = {}  # node class -> raw location (with callers) of its latest apply
        self._ctx = 0  # id of the last ctx looked at: one capture per apply

    def note_forward(self) -> None:
        """An op ran with grad off on an input that requires grad: if it is inside a custom
        Function's forward (its first argument is the node itself, the ctx), note the forward's
        caller."""
        frame = user_frame()
        if frame is None:
            return
        code = frame.f_code
        if code.co_name != "forward" or not code.co_argcount or code.co_varnames[0] == "self":
            return  # a module's forward under no_grad (the common case here): nothing to read
        ctx = frame.f_locals.get(code.co_varnames[0])
        del frame
        if isinstance(ctx, BackwardCFunction) and id(ctx) != self._ctx:
            self._ctx = id(ctx)
            loc = capture_stack()[0]
            if loc is not None and len(loc) == 3 and loc[2]:
                outer = loc[2][:-1]
                self.where[type(ctx)] = (*loc[2][-1], outer) if outer else loc[2][-1]
