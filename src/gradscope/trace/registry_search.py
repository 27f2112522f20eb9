"""Registries: which key of a name-to-class table picked the class that ran.

Programs pick layers and Functions by name: `self.act = ACTIVATIONS[cfg["act"]]()`,
`self.fn = IMPLS[impl]`, `layer = build_activation(act_cfg)` with the lookup inside the helper.
The record says which class ran (`ReLU`, `KernelConvFunction`); the source says which table
holds it and under which key. The key is the string a config entry or an argparse default sets,
which `analyses.settings` then finds.

Pure source reading (the files' syntax trees), no torch, no import of the user's code.
"""

from __future__ import annotations

import ast
import functools

from .source_search import _enclosing_function, _parse, _statement_at


def registry_keys(path: str, line: int, class_name: str, files: tuple[str, ...]) -> list[tuple[str, str]]:
    """(table name, key) for the tables looked up on the statement at `line` (`TABLE[...]`),
    on the statements that set the attribute it calls (`self.fn(...)` after `self.fn = TABLE[k]`),
    or inside a helper of the program that it calls (`build_activation(cfg)`), whose entry under
    `key` names `class_name`. Empty where no such table is written in the program's files."""
    names = _looked_up_near(path, line, files)
    found: list[tuple[str, str]] = []
    for table in names:
        for file in files:
            for key in _keys_naming(file, table, class_name):
                if (table, key) not in found:
                    found.append((table, key))
    return found[:4]


def tables_naming(class_name: str, files: tuple[str, ...]) -> list[tuple[str, str]]:
    """(table name, key) for the name-to-class tables of the program (a dict of two or more
    string keys, written as `TABLE = {...}` and looked up by key somewhere in its files) whose
    entry under `key` names `class_name`: for a line inside that class's methods, the key that
    picked the class, wherever it was looked up."""
    found: list[tuple[str, str]] = []
    for file in files:
        for table, keys in _tables(file):
            for key in keys.get(class_name, ()):
                if (table, key) not in found and any(table in _lookups(other) for other in files):
                    found.append((table, key))
    return found[:4]


@functools.lru_cache(maxsize=256)
def _tables(path: str) -> tuple[tuple[str, dict[str, tuple[str, ...]]], ...]:
    """(table name, {class name: its keys}) for each dict of two or more string keys the file
    assigns to a name."""
    tree = _parse(path)
    if tree is None:
        return ()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Dict) \
                and len(node.value.keys) >= 2 \
                and all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in node.value.keys):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            named: dict[str, tuple[str, ...]] = {}
            for key, value in zip(node.value.keys, node.value.values):
                for part in ast.walk(value):
                    name = part.id if isinstance(part, ast.Name) else part.attr if isinstance(part, ast.Attribute) \
                        else None
                    if name and name[:1].isupper():
                        named[name] = named.get(name, ()) + (key.value,)
            found += [(ast.unparse(t).rsplit(".", 1)[-1], named) for t in targets]
    return tuple(found)


@functools.lru_cache(maxsize=256)
def _lookups(path: str) -> frozenset[str]:
    tree = _parse(path)
    return frozenset(_subscripted(tree)) if tree is not None else frozenset()


def _looked_up_near(path: str, line: int, files: tuple[str, ...]) -> list[str]:
    statements = _statements(path, line)
    tables = [name for statement in statements for name in _subscripted(statement)]
    for statement in statements:
        for callee in _called_names(statement):
            # (a helper of the program that the line calls, one level down)
            for file in files:
                for body in _functions_named(file, callee):
                    tables += [name for part in body for name in _subscripted(part)]
    return list(dict.fromkeys(tables))


def _statements(path: str, line: int) -> list[ast.stmt]:
    """The statement at `line`, and the statements of its class that set an attribute it calls
    (`self.fn = IMPLS[impl]` for `out = self.fn(x)`)."""
    function = _enclosing_function(path, line, or_module=True)
    statement = _statement_at(function, line) if function is not None else None
    if statement is None:
        return []
    found = [statement]
    called = {node.func.attr for node in ast.walk(statement) if isinstance(node, ast.Call)
              and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
              and node.func.value.id == "self"}
    tree = _parse(path)
    if called and tree is not None:
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Attribute) and t.attr in called and isinstance(t.value, ast.Name)
                    and t.value.id == "self" for t in node.targets):
                found.append(node)
    return found


def _subscripted(node: ast.AST) -> list[str]:
    """The names looked up by key in `node`: `TABLE` for `TABLE[k]`, `registry.TABLE[k]`, and
    `TABLE.get(k)`."""
    names = []
    for part in ast.walk(node):
        target = None
        if isinstance(part, ast.Subscript) and isinstance(part.ctx, ast.Load):
            target = part.value
        elif isinstance(part, ast.Call) and isinstance(part.func, ast.Attribute) and part.func.attr == "get":
            target = part.func.value
        if isinstance(target, ast.Name):
            names.append(target.id)
        elif isinstance(target, ast.Attribute):
            names.append(target.attr)
    return names


def _called_names(statement: ast.stmt) -> list[str]:
    return [node.func.id for node in ast.walk(statement)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)]


@functools.lru_cache(maxsize=1024)
def _functions_named(path: str, name: str) -> tuple[tuple[ast.stmt, ...], ...]:
    tree = _parse(path)
    if tree is None:
        return ()
    return tuple(tuple(node.body) for node in ast.walk(tree)
                 if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name)


@functools.lru_cache(maxsize=1024)
def _keys_naming(path: str, table: str, class_name: str) -> tuple[str, ...]:
    """The string keys of the dict written as `table = {...}` in `path` (at any level) whose
    value names `class_name` (`nn.ReLU`, `ReLU`, `Fn.apply`, `lambda: nn.ReLU(inplace=True)`,
    `partial(ReLU, ...)`)."""
    tree = _parse(path)
    if tree is None:
        return ()
    keys = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Dict):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if not any(ast.unparse(t).rsplit(".", 1)[-1] == table for t in targets):
                continue
            for key, value in zip(node.value.keys, node.value.values):
                if isinstance(key, ast.Constant) and isinstance(key.value, str) and _names(value, class_name):
                    keys.append(key.value)
    return tuple(keys)


def _names(value: ast.AST, class_name: str) -> bool:
    return any((isinstance(part, ast.Name) and part.id == class_name)
               or (isinstance(part, ast.Attribute) and part.attr == class_name) for part in ast.walk(value))
