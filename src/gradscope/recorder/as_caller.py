"""Call a torch function so that its warnings come from the user's line, as under plain Python.

A warning names the frame it is issued from: torch's C++ warnings (``TORCH_WARN``) the innermost
Python frame, Python warnings the frame ``stacklevel`` frames up. Under gradscope the frame that
calls a torch function is the recorder's ``__torch_function__``, so a warning would read
``recorder.py:389: UserWarning`` and, worse, Python's once-per-location filter would count
every user line as that one line (a warning shown once where Python shows it per line).

So the call goes through a one-line trampoline whose code carries the caller's file, line and
function name, run with the caller's module globals (where ``__warningregistry__`` and
``__name__`` come from). The warning machinery then sees what it sees without gradscope: same
text, same filters, same once-registry. One trampoline is made per call site (a copy of one
template code object with the caller's file, line and name, then cached); the cache is bounded, since generated code (``torch.fx``, notebooks) can make
call sites without end.

Trampoline frames are told apart by their first argument's name (`MARK`), so tracebacks and
anomaly-mode stacks can drop them.
"""

from __future__ import annotations

import sys
import types

from ..trace.locations import _is_internal_cache as _internal
from ..trace.locations import is_internal_file

MARK = "__gradscope_call__"
MAX_SITES = 4096

_HANDLE_TORCH_FUNCTION = None  # the code of torch.overrides.handle_torch_function, once known
_sites: dict = {}  # (caller code, instruction offset) -> trampoline


def set_dispatch_code(code: types.CodeType) -> None:
    """The code of torch's Python-level dispatcher (`handle_torch_function`)."""
    global _HANDLE_TORCH_FUNCTION
    _HANDLE_TORCH_FUNCTION = code


def is_trampoline(code: types.CodeType) -> bool:
    return code.co_varnames[:1] == (MARK,)


def call_site(depth: int = 2):
    """(trampoline, the caller's raw location): see `trampoline`; the location is `(code, offset)`
    of the frame the trampoline stands in for when that is user code, None when it is library
    code (then `locations.capture()` walks on to the user's line). The per-op path gets both from
    one look at the stack."""
    try:
        frame = sys._getframe(depth)
    except ValueError:
        return _call, None
    if frame.f_code is _HANDLE_TORCH_FUNCTION:
        frame = frame.f_back
        frame = frame.f_back if frame is not None else None
        if frame is None:
            return _call, None
    key = (frame.f_code, frame.f_lasti)
    found = _sites.get(key)
    if found is None:
        found = _make(frame)
        if len(_sites) >= MAX_SITES:
            _sites.clear()
        _sites[key] = found
    filename = frame.f_code.co_filename
    internal = _internal.get(filename)
    if internal is None:
        internal = is_internal_file(filename)
    return found, (None if internal else key)


def trampoline(depth: int = 2):
    """The trampoline for the user-visible caller of the torch call being handled.

    `depth` is the frame of ``__torch_function__``'s caller. A C function is called straight from
    the caller's frame; a Python-level torch function (``F.softmax``, ``Tensor.backward``) first
    runs itself and then ``handle_torch_function``, whose two frames plain Python does not have
    in between (it runs the function's body in the first frame), so they are stepped over.
    """
    return call_site(depth + 1)[0]


def _call(__gradscope_call__, args, kwargs):
    return __gradscope_call__(*args, **kwargs)


# Compiled once; each call site gets a copy with the caller's file, line and name.
_TEMPLATE = compile(f"def _t({MARK}, a, k): __tracebackhide__ = True; return {MARK}(*a, **k)\n",
                    "<gradscope>", "exec", dont_inherit=True).co_consts[0]


def _make(frame):
    code = frame.f_code
    line = frame.f_lineno or code.co_firstlineno
    try:
        names = {"co_name": code.co_name}
        if sys.version_info >= (3, 11):
            names["co_qualname"] = code.co_qualname
        made = _TEMPLATE.replace(co_filename=code.co_filename, co_firstlineno=max(line, 1), **names)
        # The caller's globals: Python's warning filters and once-registry read them.
        return types.FunctionType(made, frame.f_globals)
    except Exception:  # an odd frame: call it plainly
        return _call
