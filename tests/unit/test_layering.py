"""Layering, checked statically: render/ and graphview.py sit beside rules/, never on top of it,
and the modules a report or the command line needs import without torch."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import gradscope

PACKAGE = Path(gradscope.__file__).resolve().parent


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_package(name: str) -> bool:
    return (PACKAGE.parent / name.replace(".", "/") / "__init__.py").is_file()


def _exists(name: str) -> bool:
    path = PACKAGE.parent / name.replace(".", "/")
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


_ENTRY_POINTS = ("__getattr__", "load_ipython_extension", "unload_ipython_extension")


def _imports(path: Path) -> set[str]:
    """The gradscope modules `path` imports, anywhere in it (lazy imports in functions too), but
    for a module-level `__getattr__` (PEP 562) and IPython's extension hooks: they run on
    attribute access (`gradscope.record`) or `%load_ext gradscope`, not when the package is
    imported."""
    name = _module_name(path)
    package = name if _is_package(name) else name.rpartition(".")[0]
    found = set()
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    tree.body = [n for n in tree.body if not (isinstance(n, ast.FunctionDef) and n.name in _ENTRY_POINTS)]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = ".".join(base[:len(base) - node.level + 1])
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            found.add(module)
            # `from . import rules` names a module, not an attribute
            found.update(f"{module}.{alias.name}" for alias in node.names if _exists(f"{module}.{alias.name}"))
    return {m for m in found if m == "gradscope" or m.startswith("gradscope.")}


def _graph() -> dict[str, set[str]]:
    return {_module_name(path): _imports(path) for path in PACKAGE.rglob("*.py")}


def _reached(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every gradscope module importing `start` loads, with the packages around them."""
    seen, todo = set(), [start]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        parts = name.split(".")
        todo.extend(".".join(parts[:i]) for i in range(1, len(parts)))  # a module's packages run first
        todo.extend(graph.get(name, ()))
    return seen


def _is_rules(name: str) -> bool:
    return name == "gradscope.rules" or name.startswith("gradscope.rules.")


VIEWS = sorted(name for name in _graph() if name.startswith("gradscope.render") or name == "gradscope.graphview")


def test_the_import_graph_is_read():
    graph = _graph()
    assert "gradscope.render.flow_table" in VIEWS and "gradscope.graphview" in VIEWS
    assert "gradscope.rules._words" in graph["gradscope.rules.inplace_saved"]
    assert "gradscope.render.github" in graph["gradscope.render.junit"]  # from . import github


def test_render_and_graphview_do_not_import_rules():
    graph = _graph()
    direct = {name: sorted(filter(_is_rules, graph[name])) for name in VIEWS}
    assert {name: rules for name, rules in direct.items() if rules} == {}


def test_render_and_graphview_do_not_reach_rules_through_other_modules():
    graph = _graph()
    reached = {name: sorted(filter(_is_rules, _reached(graph, name))) for name in VIEWS}
    assert {name: rules for name, rules in reached.items() if rules} == {}


def test_these_modules_import_without_torch():
    modules = ["gradscope", "gradscope.trace", "gradscope.trace_file", "gradscope.cli", "gradscope.queries",
               "gradscope.wording", "gradscope.flow_stats", "gradscope.catalog", "gradscope.paths",
               "gradscope.graphview", "gradscope.render.flow_table", "gradscope.render.sarif", "gradscope.api",
               "gradscope.ipython", "gradscope.notebook", "gradscope.distributed", "gradscope.merge_command"]
    code = ("import importlib, sys\n"
            f"for name in {modules!r}:\n"
            "    importlib.import_module(name)\n"
            "    assert 'torch' not in sys.modules, f'importing {name} imported torch'\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
