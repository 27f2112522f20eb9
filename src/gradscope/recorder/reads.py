"""Reading facts from torch objects safely: never raising, never calling back into user code.

Each function answers for one tensor or node; where torch refuses to answer (a view it forbids to
touch, a nested tensor's sizes, a freed buffer) the fact is recorded as unknown instead.
"""

from __future__ import annotations

import gc
import os
import sys
import types

import torch

from ..trace import locations
from ..trace.source_search import def_line

Tensor = torch.Tensor
TORCH_DIR = os.path.dirname(os.path.dirname(torch.__file__)) + os.sep
BackwardCFunction = torch.autograd.function.BackwardCFunction  # a custom Function's node (and its ctx)
_GRADCHECK_FILE = os.path.join("torch", "autograd", "gradcheck.py")
VERSION_MISMATCH = "modified by an inplace operation"
FREED = "backward through the graph a second time"

UNREADABLE = object()  # a grad_fn torch refuses to give (see grad_fn_of)


def grad_fn_of(tensor):
    """`tensor.grad_fn`, or UNREADABLE where reading it raises: a view made under no_grad (or by
    unbind, or inside a custom Function) whose base changed in place since. Such a read must not
    fail gradscope, and is no fact to record."""
    try:
        return tensor.grad_fn
    except RuntimeError:
        return UNREADABLE


def shape_of(tensor) -> tuple:
    """The tensor's shape; () where it has none to give (a nested tensor's sizes raise)."""
    try:
        return tuple(tensor.shape)
    except RuntimeError:
        return ()


def storage_key(tensor) -> int | None:
    """Address of the tensor's storage: the memory an in-place write to any of its views changes.

    Computed from the data pointer and offset (`untyped_storage()` costs up to 10 µs).
    """
    try:
        return tensor.data_ptr() - tensor.storage_offset() * tensor.element_size()
    except Exception:  # sparse, nested, or a subclass without storage
        return None


def dtype_name(dtype) -> str:
    return str(dtype).replace("torch.", "")


def op_name(func) -> str:
    """"mul", "__setitem__", "__set__:grad" (a property's setter, named by the property)."""
    name = getattr(func, "__name__", None)
    if name in ("__get__", "__set__"):
        owner = getattr(getattr(func, "__self__", None), "__name__", "")
        return f"{name}:{owner}" if owner else name
    return name or repr(func)


def entry_label(frame) -> str | None:
    """'torch/optim/sgd.py:SGD.step' for the library frame a user line called into."""
    if frame is None:
        return None
    filename = frame.f_code.co_filename
    if filename.startswith(TORCH_DIR):
        filename = filename[len(TORCH_DIR):]
    return f"{filename}:{getattr(frame.f_code, 'co_qualname', frame.f_code.co_name)}"


def definition_site(obj):
    """Where a custom autograd.Function (its backward, else forward) or a hook function is defined."""
    target = obj
    if isinstance(obj, type):
        target = obj.__dict__.get("backward") or obj.__dict__.get("forward")
        target = getattr(target, "__func__", target)
    for _ in range(4):  # past decorators that wrap it (`@custom_bwd`: functools.wraps keeps the original)
        inner = vars(target).get("__wrapped__") if isinstance(target, types.FunctionType) else None
        if inner is None:
            break
        target = inner
    code = getattr(target, "__code__", None)
    if code is None:
        return None
    path = locations.real_path(code.co_filename)
    return locations.Site(path, def_line(path, code.co_firstlineno), code.co_name)  # past `@staticmethod`


def is_custom_backward(node_type) -> bool:
    """Whether a node type is a custom autograd.Function's backward (its class: `_forward_cls`)."""
    return issubclass(node_type, BackwardCFunction)


def input_grad_fns(args) -> list:
    found = []
    for arg in args:
        if isinstance(arg, Tensor):
            found.append(grad_fn_of(arg))
        elif isinstance(arg, (list, tuple)):
            found.extend(grad_fn_of(t) for t in arg if isinstance(t, Tensor))
    return found


def inside_gradcheck() -> bool:
    """Whether torch.autograd.gradcheck is on the stack (however it was reached: test suites wrap
    it). One walk of the stack, made only when a write hit memory a live node saved."""
    frame = sys._getframe(2)
    while frame is not None:
        if frame.f_code.co_filename.endswith(_GRADCHECK_FILE):
            return True
        frame = frame.f_back
    return False


def packed_by_hooks(node, attrs) -> bool:
    """Whether any of the node's saved tensors was packed by saved_tensors_hooks, asked of the raw
    saved values (`_raw_saved_*`), which answers without unpacking. Only for a node just met:
    torch 2.13 dereferences a null pointer when asked about a saved value whose per-tensor
    `register_hooks` is in progress or failed."""
    for attr in attrs:
        try:
            raw = getattr(node, "_raw" + attr if attr.startswith("_saved_") else "_raw_" + attr, None)
        except Exception:
            continue
        for value in (raw if isinstance(raw, (list, tuple)) else (raw,)):
            if getattr(value, "unpack_hook", None) is not None:
                return True
    return False


def unpack_state(node, attr: str, storage: int | None) -> str | None:
    """Unpack a saved tensor as backward would: "stale" when torch's version check fails, "same
    memory" when it passes but the tensor backward would use still lives in `storage` (the memory
    just written), "elsewhere" when torch kept a copy (allow_mutation_on_saved_tensors, saved-tensor
    hooks), None when it cannot be unpacked (freed, say).

    With torch functions off: unpacking a view whose base changed regenerates its grad_fn under
    a lock and calls the tensor's `_backward_hooks` setter, which would re-enter our mode and
    ask for that grad_fn again: a deadlock.
    """
    name, _, index = attr.partition("[")
    try:
        with torch._C.DisableTorchFunction():
            value = getattr(node, name)
            if index:
                value = value[int(index.rstrip("]"))]
    except RuntimeError as err:
        return "stale" if VERSION_MISMATCH in str(err) else None
    except Exception:
        return None
    if not isinstance(value, Tensor):
        return None
    return "same memory" if storage_key(value) == storage else "elsewhere"


def unpack_error(node, attr: str) -> str | None:
    """The message torch raises when a saved tensor is unpacked now (None: it unpacks, or fails
    otherwise). Torch functions off, as in unpack_state."""
    try:
        with torch._C.DisableTorchFunction():
            getattr(node, attr)
    except RuntimeError as err:
        return str(err)
    except Exception:
        return None
    return None


# nn.Module's registries, read directly: a module class may override `parameters()`,
# `named_modules()` or `modules()` (with another signature, or doing work), and reading a fact
# must never run the program's code.
def own_parameters(module) -> list:
    """The parameters registered on `module` itself (not its submodules)."""
    registry = vars(module).get("_parameters")
    return [p for p in registry.values() if p is not None] if isinstance(registry, dict) else []


def submodules(root, prefix: str = "", limit: int = 100_000):
    """(path, module) for `root` and every module registered below it, depth first, each path
    once (a module registered twice appears under both paths, as named_modules(remove_duplicate=False))."""
    stack, count = [(prefix, root)], 0
    while stack and count < limit:
        name, module = stack.pop()
        count += 1
        yield name, module
        children = vars(module).get("_modules")
        if isinstance(children, dict):
            for child_name, child in reversed(list(children.items())):
                if child is not None:
                    stack.append((f"{name}.{child_name}" if name else child_name, child))


def parameters_of(root):
    """(path, parameter) of every parameter registered in `root`'s modules."""
    for path, module in submodules(root):
        for key, param in (vars(module).get("_parameters") or {}).items():
            if param is not None:
                yield (f"{path}.{key}" if path else key), param


def unique(named):
    """named_parameters()'s order without repeats (a parameter shared by two modules, once)."""
    seen = set()
    for name, param in named:
        if id(param) not in seen:
            seen.add(id(param))
            yield name, param


def finite_flags(grads: list) -> list[tuple[list[int], torch.Tensor]]:
    """Whether each gradient is finite, as one flag tensor per device (not read: see the caller).

    One sum per gradient (cheaper than a norm), accumulated in at least float32 (an fp16 sum
    overflows; complex gradients as their real view): NaN and inf carry through a sum.
    """
    by_device: dict = {}
    for index, grad in enumerate(grads):
        values = grad if not grad.is_complex() else torch.view_as_real(grad)
        by_device.setdefault(grad.device, ([], []))
        indices, sums = by_device[grad.device]
        indices.append(index)
        sums.append(values.sum(dtype=torch.float64 if values.dtype == torch.float64 else torch.float32))
    return [(indices, torch.isfinite(torch.stack(sums))) for indices, sums in by_device.values()]


def params_of_live_optimizers() -> set[int]:
    """Ids of the parameters held by every optimizer still alive (one scan, at the end of a run)."""
    found = set()
    optimizer = torch.optim.Optimizer
    for obj in gc.get_objects():
        # type(), not isinstance(): isinstance reads `__class__`, and some module-level objects
        # warn when touched (torch.distributed.reduce_op: a FutureWarning under our name).
        if issubclass(type(obj), optimizer):
            found.update(id(p) for group in obj.param_groups for p in group["params"])
    return found


class TypeInfo:
    """What gradscope needs of a node class, computed once per class."""

    __slots__ = ("name", "is_accumulate", "saved_attrs", "defined_at")

    def __init__(self, node_type):
        self.name = node_type.__name__
        self.is_accumulate = self.name == "AccumulateGrad"
        attrs = [a for a in dir(node_type) if a.startswith("_saved_")]
        self.defined_at = None
        if is_custom_backward(node_type):
            attrs.append("saved_tensors")
            self.defined_at = definition_site(getattr(node_type, "_forward_cls", None))
        self.saved_attrs = tuple(attrs)
