"""Lines of a class's source that write one of its attributes (`self.blocks = []`,
`self.blocks.append(...)`, `self.heads[name] = ...`), found by parsing the file: nothing is
imported or run. Used to name where layers were put in a plain list or dict.

This module does not import torch.
"""

from __future__ import annotations

import ast
import functools

_MUTATORS = frozenset({"append", "extend", "insert", "update", "setdefault", "__setitem__"})
MAX_FILE_BYTES = 2_000_000


@functools.lru_cache(maxsize=32)
def _parse(path: str):
    try:
        with open(path, "rb") as handle:
            source = handle.read(MAX_FILE_BYTES + 1)
        if len(source) > MAX_FILE_BYTES:
            return None
        return ast.parse(source, filename=path)
    except (OSError, SyntaxError, ValueError):
        return None


def _is_self_attr(node, attr: str) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == attr
            and isinstance(node.value, ast.Name) and node.value.id == "self")


def _writes(node, attr: str) -> bool:
    if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return any(_is_self_attr(t, attr) or (isinstance(t, ast.Subscript) and _is_self_attr(t.value, attr))
                   for t in targets)
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in _MUTATORS and _is_self_attr(node.func.value, attr))


def attribute_writes(path: str, class_name: str, attr: str, limit: int = 4) -> list[tuple[int, str]]:
    """(line, function) pairs, in order, inside `class class_name` in `path` that assign
    `self.<attr>` or change it in place (append/extend/insert/update/setdefault, item
    assignment). Empty if unknown."""
    tree = _parse(path)
    if tree is None:
        return []
    found: set[tuple[int, str]] = set()
    for cls in ast.walk(tree):
        if not (isinstance(cls, ast.ClassDef) and cls.name == class_name):
            continue
        for function in cls.body:
            if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found.update((node.lineno, function.name) for node in ast.walk(function) if _writes(node, attr))
    return sorted(found)[:limit]
