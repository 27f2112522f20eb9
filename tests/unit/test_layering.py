"""Layering, checked statically (the package's imports read with `ast`, lazy ones included): the
folders import one way, as the README's layout says; no module imports itself back through
others (no import circles); and the modules a report or the command line needs import without
torch."""

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
            # `from . import rules` names a module, not an attribute (nor the package itself)
            submodules = {f"{module}.{alias.name}" for alias in node.names if _exists(f"{module}.{alias.name}")}
            found.update(submodules)
            if len(submodules) < len(node.names):
                found.add(module)
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


# Each folder (or top-level module) and what it may import besides itself: the flow of the
# README's layout, run -> record -> trace -> analyse -> diagnose -> render. A layer never imports
# one above it; the recorder, the analyses, the rules and the renderers never import each other
# except as listed (rules import no torch; renderers import no rules).
BASE = {"gradscope", "gradscope.errors", "gradscope.settings", "gradscope.paths"}  # (the package: its version)
ALLOWED = {
    "base": set(),
    "trace": {"base"},
    "recorder": {"base", "trace"},
    "analyses": {"base", "trace"},
    "rules": {"base", "trace", "analyses"},
    "render": {"base", "trace"},
    "gate": {"base", "trace", "render"},
    "runtime": {"base", "trace", "recorder", "analyses", "rules", "render", "gate"},
    "fix": {"base", "trace", "recorder", "analyses", "rules", "render", "gate", "runtime"},
    "front": {"base", "trace", "recorder", "analyses", "rules", "render", "gate", "runtime", "fix"},
}
FRONTS = {"gradscope.__main__", "gradscope.api", "gradscope.ipython", "gradscope.pytest_plugin"}
FOLDERS = {"trace", "recorder", "analyses", "rules", "render", "gate", "runtime", "fix"}
FRONT_FOLDERS = {"cli", "mcp"}  # the command line, the MCP server: fronts, like the API


def layer_of(name: str) -> str:
    if name in BASE:
        return "base"
    if name in FRONTS:
        return "front"
    folder = name.split(".")[1]
    if folder in FOLDERS:
        return folder
    if folder in FRONT_FOLDERS:
        return "front"
    raise AssertionError(f"{name} has no place in the layout: add it to tests/unit/test_layering.py and the README")


def test_every_module_has_a_layer():
    for name in _graph():
        layer_of(name)


def test_no_layer_imports_one_above_it_or_beside_it():
    wrong = []
    for name, imported in _graph().items():
        mine = layer_of(name)
        for other in imported:
            theirs = layer_of(other)
            if theirs != mine and theirs not in ALLOWED[mine]:
                wrong.append(f"{name} ({mine}) imports {other} ({theirs})")
    assert wrong == []


def test_no_import_circles():
    graph = _graph()
    circles = set()

    def visit(name, path):
        for other in sorted(graph.get(name, ()) - {name}):  # (`from . import x` in a package names itself)
            if other in path:
                circle = path[path.index(other):]
                start = circle.index(min(circle))
                circles.add(" -> ".join(circle[start:] + circle[:start] + [min(circle)]))
            elif other not in done:
                visit(other, path + [other])
        done.add(name)

    done: set[str] = set()
    for name in sorted(graph):
        if name not in done:
            visit(name, [name])
    assert sorted(circles) == []


def test_the_import_graph_is_read():
    graph = _graph()
    assert "gradscope.rules._words" in graph["gradscope.rules.inplace_saved"]
    assert "gradscope.render.github" in graph["gradscope.render.junit"]  # from . import github
    assert "gradscope.trace.model" in graph["gradscope.render.graphview"]
    assert layer_of("gradscope.runtime.session") == "runtime" and layer_of("gradscope.cli.check") == "front"


def test_render_does_not_reach_rules_through_other_modules():
    graph = _graph()
    views = [name for name in graph if layer_of(name) == "render"]
    reached = {name: sorted(n for n in _reached(graph, name) if layer_of(n) in ("rules", "analyses", "recorder"))
               for name in views}
    assert {name: found for name, found in reached.items() if found} == {}


def test_these_modules_import_without_torch():
    modules = ["gradscope", "gradscope.trace.model", "gradscope.trace.file", "gradscope.cli",
               "gradscope.trace.queries", "gradscope.trace.wording", "gradscope.trace.flow_stats",
               "gradscope.trace.catalog", "gradscope.paths", "gradscope.render.graphview",
               "gradscope.render.flow_table", "gradscope.render.sarif", "gradscope.render.merged", "gradscope.api",
               "gradscope.ipython", "gradscope.runtime.notebook", "gradscope.runtime.distributed",
               "gradscope.runtime.session", "gradscope.rules", "gradscope.gate.report", "gradscope.recorder.as_caller"]
    code = ("import importlib, sys\n"
            f"for name in {modules!r}:\n"
            "    importlib.import_module(name)\n"
            "    assert 'torch' not in sys.modules, f'importing {name} imported torch'\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_the_command_line_loads_no_report_code_before_the_program_runs():
    """`gradscope run` starts the program as soon as it can: importing the command line loads
    neither rich, nor graphviz, nor the renderers (a machine without graphviz still runs)."""
    code = ("import sys, gradscope.cli\n"
            "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('rich', 'graphviz', 'torch')\n"
            "                or m.startswith(('gradscope.render', 'gradscope.rules', 'gradscope.gate')))\n"
            "assert not loaded, loaded\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
