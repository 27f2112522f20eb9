"""Plain wording shared by rules and renderers: how an op and a source line read in a sentence."""

from __future__ import annotations

from .locations import Site, place

_OPERATORS = {
    "__iadd__": "+=", "__isub__": "-=", "__imul__": "*=", "__itruediv__": "/=",
    "__ifloordiv__": "//=", "__imod__": "%=", "__ipow__": "**=", "__imatmul__": "@=",
    "__iand__": "&=", "__ior__": "|=", "__ixor__": "^=",
    "__setitem__": "indexed assignment (x[...] = ...)", "__getitem__": "indexing (x[...])",
    "__add__": "+", "__radd__": "+", "__sub__": "-", "__rsub__": "-", "__mul__": "*",
    "__rmul__": "*", "__truediv__": "/", "__rtruediv__": "/", "__matmul__": "@",
    "__pow__": "**", "__rpow__": "**", "__neg__": "unary -",
}


def op_plain(op: str) -> str:
    """An op as the user wrote it: `+=` for __iadd__, the name itself for a named op."""
    return _OPERATORS.get(op, op)


def where(site: Site | None, unknown: str = "an unknown line") -> str:
    """A site as "file.py:line" (the file's base name); `unknown` when there is none."""
    return place(site.path, site.line) if site is not None else unknown


def stopped_words(stopped) -> str:
    """Where a signal stopped the program (a trace.Stopped): "SIGTERM stopped it at train.py:13
    (`time.sleep(600)`)", or, waiting in C++, "... while it waited outside Python (in `forward`,
    torch/nn/parallel/distributed.py:1890) at train.py:14 (`loss = model(x)`)"."""
    site = stopped.site
    at = f" at {where(site)}" + (f" (`{site.code}`)" if site is not None and site.code else "") if site else ""
    if not stopped.outside_python:
        return f"{stopped.signal} stopped the program{at}"
    inner = stopped.stack[-1] if stopped.stack else None
    waiting = (f" (in `{inner.function}`, {where(inner)})"
               if inner is not None and inner != site else "")
    return (f"{stopped.signal} stopped the program while it waited outside Python, in C++ (a collective, a lock "
            f"or a future){waiting}{at}")
