"""Saved traces: what one run recorded, with its findings, as a versioned JSON file.

Format (documented in docs/trace-format.md): a JSON object

    {"format": "gradscope-trace", "schema": 1, "trace": {...}, "findings": [...],
     "source_lines": {"/abs/path.py:12": "loss = (b * b).mean()", ...}}

written gzip-compressed when the path ends in ".gz". Data only: reading never executes anything.
`source_lines` keeps the code of every line the trace names, so a trace can be drawn and
explained on a machine that does not have the sources.

This module does not import torch.
"""

from __future__ import annotations

import dataclasses
import json
import os
import types
import typing
import zlib

from ..paths import write_text
from .findings import Finding
from .locations import source_line
from .model import Trace

FORMAT = "gradscope-trace"
SCHEMA = 2  # 2: `epoch` became `backwards_before`
# A trace of a whole run is a few MiB (the record is bounded); refuse what cannot be one rather
# than exhaust memory: a file this large, or a gzip that inflates beyond it.
MAX_BYTES = int(os.environ.get("GRADSCOPE_MAX_TRACE_BYTES", 512 * 1024 * 1024))  # (lowered by the tests)


class TraceFileError(Exception):
    """A trace file cannot be read; the message says why, in one line."""


def looks_like_trace(path: str) -> bool:
    """Whether a command's target is a trace file rather than a script (by name, or content)."""
    if path.endswith((".json", ".json.gz", ".gz")):
        return True
    if path.endswith(".ipynb"):
        return False  # a notebook (JSON too): a program to run
    try:
        with open(path, "rb") as handle:
            start = handle.read(64).lstrip()
    except OSError:
        return False
    return start[:2] == b"\x1f\x8b" or start[:1] == b"{"


def save(path: str, trace: Trace, findings: list[Finding]) -> None:
    data = {
        "format": FORMAT,
        "schema": SCHEMA,
        "trace": dataclasses.asdict(trace),
        "findings": [dataclasses.asdict(f) for f in findings],
        "source_lines": _source_lines(trace, findings),
    }
    text = json.dumps(data, separators=(",", ":"))
    write_text(path, text, gzipped=path.endswith(".gz"))


def load(path: str) -> tuple[Trace, list[Finding], dict[str, str]]:
    """Read a trace file. Raises TraceFileError with a one-line reason."""
    try:
        if os.path.isdir(path):
            raise TraceFileError(f"'{path}' is a directory, not a trace file")
        if os.path.getsize(path) > MAX_BYTES:
            raise TraceFileError(f"'{path}' is {_size(os.path.getsize(path))}: too large to be a gradscope "
                                 f"trace (at most {_size(MAX_BYTES)})")
        with open(path, "rb") as handle:
            raw = handle.read()
    except OSError as exc:
        raise TraceFileError(f"cannot read trace file '{path}': {exc.strerror}") from None
    if not raw.strip():
        raise TraceFileError(f"'{path}' is empty: not a gradscope trace")
    try:
        if raw[:2] == b"\x1f\x8b":
            raw = _inflate(raw, path)
        data = json.loads(raw.decode("utf-8"))
    except (EOFError, OSError, zlib.error) as exc:
        raise TraceFileError(f"'{path}' is a truncated or damaged compressed file ({exc})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        ends_early = isinstance(exc, json.JSONDecodeError) and raw.strip()[:1] == b"{" and (
            exc.msg.startswith("Unterminated") or exc.pos >= len(raw.rstrip()) - 1)
        detail = "it ends early: truncated?" if ends_early else str(exc)
        raise TraceFileError(f"'{path}' is not a gradscope trace: not valid JSON ({detail})") from None
    except RecursionError:
        raise TraceFileError(f"'{path}' is not a gradscope trace: its JSON is nested too deeply") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise TraceFileError(f"'{path}' is not a gradscope trace (no \"format\": \"{FORMAT}\" in it)")
    schema = data.get("schema")
    if not isinstance(schema, int) or schema > SCHEMA:
        raise TraceFileError(f"'{path}' uses trace schema {schema}, newer than this gradscope reads "
                             f"({SCHEMA}); upgrade gradscope")
    if schema < SCHEMA:
        raise TraceFileError(f"'{path}' uses trace schema {schema}, from an older gradscope (this one reads "
                             f"{SCHEMA}); record it again with `gradscope run --trace`")
    try:
        trace = _build(Trace, data["trace"])
        findings = [_build(Finding, f) for f in data.get("findings", [])]
        source = {str(k): str(v) for k, v in data.get("source_lines", {}).items()}
    except (KeyError, TypeError, ValueError, AttributeError, RecursionError) as exc:
        raise TraceFileError(f"'{path}' is a damaged gradscope trace ({type(exc).__name__}: {exc})") from None
    return trace, findings, source


def _size(count: int) -> str:
    return f"{count / 2**20:.0f} MiB" if count >= 2**20 else f"{count:,} bytes"


def _inflate(raw: bytes, path: str) -> bytes:
    """gunzip, refusing to inflate beyond MAX_BYTES (a small file can expand a thousandfold)."""
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    data = inflater.decompress(raw, MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise TraceFileError(f"'{path}' inflates beyond {_size(MAX_BYTES)}: too large to be a gradscope trace")
    if not inflater.eof:
        raise EOFError("compressed data ends early")
    return data


def _source_lines(trace: Trace, findings: list[Finding]) -> dict[str, str]:
    sites = [n.site for n in trace.nodes.values()] + [l.site for l in trace.leaves.values()]
    sites += [c.site for c in trace.inplace_changes] + [c.site for c in trace.backward_calls]
    sites += [f.site for f in trace.op_failures]
    keys = {(s.path, s.line) for s in sites if s is not None}
    keys |= {(loc.path, loc.line) for f in findings for loc in f.locations}
    return {f"{path}:{line}": source_line(path, line) for path, line in sorted(keys)}


# ---------------------------------------------------------------- dataclasses from JSON
_hints_cache: dict[type, dict] = {}


def _build(cls, data):
    """Rebuild dataclass `cls` from the dict `dataclasses.asdict` made of it."""
    if not isinstance(data, dict):
        raise TypeError(f"{cls.__name__} must be an object, not {type(data).__name__}")
    hints = _hints_cache.get(cls)
    if hints is None:
        hints = _hints_cache[cls] = typing.get_type_hints(cls)
    values = {}
    for field in dataclasses.fields(cls):
        if field.name in data:
            values[field.name] = _convert(hints[field.name], data[field.name])
    return cls(**values)


def _convert(hint, value):
    if value is None:
        return None
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in args if a is not type(None)]
        return _convert(options[0], value) if len(options) == 1 else value
    if dataclasses.is_dataclass(hint):
        return _build(hint, value)
    if origin is list:
        return [_convert(args[0], v) for v in value]
    if origin is tuple:
        return tuple(_convert(args[0], v) for v in value) if args else tuple(value)
    if origin is dict:
        key_type, value_type = args
        return {key_type(k): _convert(value_type, v) for k, v in value.items()}
    if hint in (int, float, str, bool):
        if not isinstance(value, (int, float, str, bool)):
            raise TypeError(f"expected {hint.__name__}, got {type(value).__name__}")
        return hint(value)
    return value
