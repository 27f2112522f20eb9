"""Plain wording shared by rules and renderers: how an op and a source line read in a sentence."""

from __future__ import annotations

import re

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


# A collective that broke because a peer went away: gloo's closed connection or receive timeout,
# NCCL's collective timeout, a peer's exit seen by NCCL, a communicator aborted after a failure,
# the TCPStore's connection closed by a rank (or the store's host) that went away.
# The same text follows from any rank's failure. Only these: an error of the rank's own (NCCL's
# "invalid usage", a wrong device) is not a peer's doing.
BROKEN_COLLECTIVE = re.compile(r"Connection (closed|reset) by peer|Timed out waiting \d+ ?ms for (send|recv)"
                               r"|Watchdog caught collective operation timeout|remote process exited"
                               r"|NCCL communicator was aborted|Failed to recv, got 0 bytes")


def broken_collective_words(message: str | None) -> str:
    """The first sentence of a collective's error, without gloo's source position:
    `Connection closed by peer [127.0.0.1]:45222.`"""
    lines = str(message or "").strip().splitlines()
    first = re.sub(r"^\[[^\]]*:\d+\]\s*", "", lines[0] if lines else "")
    sentence = re.match(r".*?[.!](?=\s|$)", first)
    return (sentence.group(0) if sentence else first)[:200]
