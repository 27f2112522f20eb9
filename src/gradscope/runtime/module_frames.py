"""nn.Module calls in a traceback, shown as plain Python shows them.

While gradscope records, it has global module hooks registered (recorder/modules.py). With any
hook, `Module._call_impl` leaves its fast path (`return forward_call(*args, **kwargs)`) for the
slow one, which calls the forward through a nested `inner()`: a traceback through a module call
then has two frames (`_call_impl` at `return inner()`, then `inner`) where plain Python has one.
Where plain Python would have taken the fast path (the module has no hooks of its own, and every
global hook is gradscope's), the two become that one, with the line and column it would show.

Only facts are read: frame locals, the hook dictionaries, the code object. No user code runs.

Limits: the hooks are looked at when the traceback is shown, not when the module was called (a
hook the program removed in between, `with m.register_forward_hook(h): m(x)`, is not seen); and
a traceback the program prints itself while recording (`traceback.print_exc()`,
`logging.exception`) still has the two frames.
"""

from __future__ import annotations

import dis
import linecache
import sys
import types

_FAST_PATH = "return forward_call(*args, **kwargs)"
_HOOK_DICTS = ("_global_backward_pre_hooks", "_global_backward_hooks", "_global_forward_hooks",
               "_global_forward_pre_hooks")
_OWN_HOOKS = ("_backward_hooks", "_backward_pre_hooks", "_forward_hooks", "_forward_pre_hooks")
_fast_path_at: dict = {}  # _call_impl's code -> (offset, line) of its fast-path call, or None


def fold(entries: list[types.TracebackType]) -> list[types.TracebackType]:
    """`entries` (a traceback's, outermost first) with each `_call_impl` + `inner` pair that
    exists only because of gradscope's hooks replaced by the fast-path `_call_impl` entry."""
    module_source = sys.modules.get("torch.nn.modules.module")
    if module_source is None:
        return entries
    try:
        call_impl = module_source.Module._call_impl.__code__
    except AttributeError:
        return entries
    folded: list[types.TracebackType] = []
    index = 0
    while index < len(entries):
        entry = entries[index]
        following = entries[index + 1] if index + 1 < len(entries) else None
        if (entry.tb_frame.f_code is call_impl and following is not None
                and following.tb_frame.f_code.co_name == "inner"
                and following.tb_frame.f_code.co_filename == call_impl.co_filename):
            fast = _fast_path(call_impl)
            if fast is not None and _plain_python_skips_hooks(entry.tb_frame, module_source):
                offset, line = fast
                folded.append(types.TracebackType(None, entry.tb_frame, offset, line))
                index += 2
                continue
        folded.append(entry)
        index += 1
    return folded


def _fast_path(code: types.CodeType) -> tuple[int, int] | None:
    if code not in _fast_path_at:
        found = None
        try:
            line = None
            for instruction in dis.get_instructions(code):
                if sys.version_info < (3, 11):  # (3.10: only a line's first instruction says it)
                    line = instruction.starts_line or line
                else:
                    line = instruction.positions.lineno if instruction.positions else None
                if line and instruction.opname.startswith("CALL") and \
                        linecache.getline(code.co_filename, line).strip() == _FAST_PATH:
                    found = (instruction.offset, line)
                    break
        except Exception:
            found = None
        _fast_path_at[code] = found
    return _fast_path_at[code]


def _plain_python_skips_hooks(frame: types.FrameType, module_source) -> bool:
    """Whether `_call_impl` in `frame` would have taken its fast path without gradscope."""
    module = frame.f_locals.get("self")
    try:
        state = object.__getattribute__(module, "__dict__")  # never a user __getattr__
    except Exception:
        return False
    if any(state.get(name) for name in _OWN_HOOKS):
        return False
    for name in _HOOK_DICTS:
        hooks = getattr(module_source, name, None)
        if hooks is None:
            return False
        if not all(_is_gradscope_hook(hook) for hook in list(hooks.values())):
            return False
    return True


def _is_gradscope_hook(hook) -> bool:
    if isinstance(hook, types.MethodType):
        hook = hook.__func__
    return isinstance(hook, types.FunctionType) and (hook.__module__ or "").startswith("gradscope.")
