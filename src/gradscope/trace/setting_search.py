"""Where a configuration entry is read: from a setting (`"use_reentrant": True` inside
`"gradient_checkpointing_kwargs": {...}`) to the statement that hands it to the code it
configures (`model.gradient_checkpointing_enable(gradient_checkpointing_kwargs=cfg[...])`).

Pure source reading (the files' syntax trees), no torch, no import of the user's code.
"""

from __future__ import annotations

import ast
import functools

from .source_search import _parse


def keys_around(path: str, line: int, value_hint: str | None = None) -> list[str]:
    """The dict keys whose entry holds `line`, innermost first (`use_reentrant`, then
    `gradient_checkpointing_kwargs` for a line inside that entry's value). Two entries side by
    side on the line (`{"activation": "relu", "channels": 8}`) are told apart by `value_hint`
    (the value set there); without one that matches, nothing is said."""
    return list(_keys_around(path, line, value_hint))


@functools.lru_cache(maxsize=1024)  # (asked once per finding; a file's tree is walked once per line)
def _keys_around(path: str, line: int, value_hint: str | None) -> tuple[str, ...]:
    tree = _parse(path)
    if tree is None:
        return ()
    entries = []  # (key, where the key starts, where the value starts and ends, the value's source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values):
                if isinstance(key, ast.Constant) and isinstance(key.value, str) and value is not None \
                        and key.lineno <= line <= (value.end_lineno or value.lineno):
                    entries.append((key.value, (key.lineno, key.col_offset), (value.lineno, value.col_offset),
                                    (value.end_lineno or value.lineno, value.end_col_offset or 0), ast.unparse(value)))

    def inside(entry, outer) -> bool:
        return entry is not outer and outer[2] <= entry[1] <= outer[3]

    innermost = [e for e in entries if not any(inside(other, e) for other in entries)]
    if len(innermost) > 1:
        innermost = [e for e in innermost if value_hint is not None and value_hint in e[4]]
    if len(innermost) != 1:
        return ()
    chain = [innermost[0]]
    chain += sorted((e for e in entries if inside(innermost[0], e)), key=lambda e: e[1], reverse=True)
    return tuple(entry[0] for entry in chain)


def key_reads(path: str, key: str, limit: int = 4) -> list[int]:
    """First lines of the statements that read the entry `key` of a mapping (`cfg["key"]`,
    `cfg.get("key")`)."""
    return list(_key_reads(path, key)[:limit])


@functools.lru_cache(maxsize=1024)
def _key_reads(path: str, key: str) -> tuple[int, ...]:
    tree = _parse(path)
    if tree is None:
        return ()
    lines: set[int] = set()
    for statement in ast.walk(tree):
        if isinstance(statement, ast.stmt) and any(_reads_key(node, key) for part in _own_parts(statement)
                                                   for node in ast.walk(part)):
            lines.add(statement.lineno)
    return tuple(sorted(lines))


def _own_parts(statement: ast.stmt) -> list[ast.AST]:
    """What a statement itself reads: a compound statement's header, not its body."""
    if isinstance(statement, (ast.If, ast.While)):
        return [statement.test]
    if isinstance(statement, (ast.For, ast.AsyncFor)):
        return [statement.iter]
    if isinstance(statement, (ast.With, ast.AsyncWith)):
        return [item.context_expr for item in statement.items]
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Try)):
        return []
    return [statement]


def _reads_key(node: ast.AST, key: str) -> bool:
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
        return isinstance(node.slice, ast.Constant) and node.slice.value == key
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("get", "pop"):
        return bool(node.args) and isinstance(node.args[0], ast.Constant) and node.args[0].value == key
    return False
