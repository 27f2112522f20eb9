"""The recorder's parts import one way: each module of gradscope.recorder only from those below it."""

from __future__ import annotations

import ast
from pathlib import Path

RECORD = Path(__file__).resolve().parents[2] / "src" / "gradscope" / "recorder"

# Bottom to top; a module may import only modules listed before it.
ORDER = ["as_caller", "records", "reads", "events", "process", "leaves", "modules", "mode_sets", "state_loads", "functions", "graph", "cuts", "nan", "flow",
         "inplace", "accumulation", "ledger", "optim", "postmortem", "backward", "calls", "mode", "export", "recorder", "__init__"]


def _imports_within_package(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found.update(alias.name for alias in node.names)
    return found


def test_every_module_has_a_place_in_the_order():
    assert sorted(p.stem for p in RECORD.glob("*.py")) == sorted(ORDER)


def test_parts_import_only_parts_below_them():
    for name in ORDER:
        below = set(ORDER[:ORDER.index(name)])
        upward = _imports_within_package(RECORD / f"{name}.py") - below
        assert not upward, f"recorder/{name}.py imports {sorted(upward)} from above it"


def test_no_part_is_too_long_to_read():
    for path in RECORD.glob("*.py"):
        assert len(path.read_text().splitlines()) <= 420, path.name
