"""The call-site trampoline: a warning raised inside the called function is attributed (file, line,
module, once-registry) to the frame that asked for the trampoline, as if it had called directly."""

from __future__ import annotations

import sys
import warnings

from gradscope.recorder import as_caller


def _warn_at_level_2(message):
    warnings.warn(message, UserWarning, stacklevel=2)  # names its caller, like torch.nn.functional does


def _call_through_trampoline(func, *args):
    return as_caller.trampoline(2)(func, args, {})  # as __torch_function__ does: its caller


def test_warning_names_the_callers_line_and_obeys_the_once_registry():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        for _ in range(3):
            line = sys._getframe().f_lineno + 1
            _call_through_trampoline(_warn_at_level_2, "implicit dim")
        _call_through_trampoline(_warn_at_level_2, "implicit dim")  # another line: shown again
    assert [(w.filename, w.lineno) for w in caught] == [(__file__, line), (__file__, line + 1)]


def test_trampoline_frames_are_recognisable_and_cached():
    def inner():
        return sys._getframe(1).f_code

    trampoline = as_caller.trampoline(1)  # this frame's stand-in
    code = trampoline(inner, (), {})
    assert as_caller.is_trampoline(code) and code.co_filename == __file__
    assert code.co_name == "test_trampoline_frames_are_recognisable_and_cached"
    assert not as_caller.is_trampoline(sys._getframe().f_code)


def test_no_caller_frame_falls_back_to_a_plain_call():
    assert as_caller.trampoline(10_000)(len, ([1, 2],), {}) == 2
