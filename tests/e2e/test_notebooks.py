"""`gradscope run notebook.ipynb`: the sample notebooks (samples/notebooks, the seed scenarios)
name the cells and lines as "name.ipynb, In [n]"; cells run in order in one namespace, like a
script; IPython syntax goes through IPython, or is one clear error where IPython is missing."""

from __future__ import annotations

import json

import pytest

from conftest import SAMPLES, run_gradscope, run_python
from harness import record

NOTEBOOKS = SAMPLES / "notebooks"

# notebook -> (rule, [(cell number, line, role), ...] in report order)
EXPECTED = {
    "leaf_and_retain_grad.ipynb": ("non-leaf-grad-read", [(3, 1, "fix"), (3, 1, "non-leaf"), (4, 3, "read"),
                                                        (4, 2, "affected")]),
    "inplace_version.ipynb": ("inplace-modified-saved-tensor", [(4, 1, "fix"), (3, 2, "saved"), (4, 1, "modified"),
                                                                (5, 1, "backward")]),
    "backward_twice.ipynb": ("backward-through-freed-graph", [(5, 1, "fix"), (3, 2, "created"), (4, 1, "freed"),
                                                              (5, 1, "backward")]),
    "non_scalar_backward.ipynb": ("backward-non-scalar", [(3, 2, "fix"), (3, 2, "created"), (4, 1, "backward")]),
    "no_grad_detach.ipynb": ("backward-without-graph", [(3, 1, "fix"), (3, 2, "cut"), (3, 1, "no-grad-block"),
                                                        (2, 4, "cut-input"), (4, 1, "backward")]),
    "copyslices.ipynb": ("inplace-on-leaf", [(4, 1, "fix"), (3, 1, "created"), (4, 1, "modified")]),
}


def test_every_sample_notebook_is_covered():
    assert {p.name for p in NOTEBOOKS.glob("*.ipynb")} == set(EXPECTED)


def _cell(notebook: str, number: int) -> str:
    return f"{(NOTEBOOKS / notebook).resolve()}, In [{number}]"


@pytest.mark.parametrize("notebook", sorted(EXPECTED))
def test_the_notebook_s_cells_and_lines_are_named(notebook):
    rule, lines = EXPECTED[notebook]
    run = record(NOTEBOOKS / notebook)
    report = run.report()
    assert report["internal_errors"] == []
    assert [f["rule"] for f in report["findings"]] == [rule]
    located = [(loc["path"], loc["line"], loc["role"]) for loc in report["findings"][0]["locations"]]
    assert located == [(_cell(notebook, cell), line, role) for cell, line, role in lines]
    assert all(loc["code"] for loc in report["findings"][0]["locations"]), "every named line shows its source"


def test_a_failing_notebook_ends_as_a_script_would(tmp_path):
    result = run_gradscope("run", str(NOTEBOOKS / "inplace_version.ipynb"), json_path=tmp_path / "r.json")
    assert result.returncode == 1
    # The traceback names the cell and shows its line; the panel names the cells as a notebook does.
    assert 'inplace_version.ipynb, In [5]", line 1, in <module>\n    y.sum().backward()' in result.stderr
    assert "inplace_version.ipynb, In [4], line 1" in result.stderr
    assert json.loads((tmp_path / "r.json").read_text())["findings"][0]["rule"] == "inplace-modified-saved-tensor"


def _notebook(path, *sources):
    cells = [{"cell_type": "code", "metadata": {}, "source": source, "outputs": [], "execution_count": None}
             for source in sources]
    cells.insert(0, {"cell_type": "markdown", "metadata": {}, "source": "# notes"})
    path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    return path


def test_cells_with_ipython_syntax_run_through_ipython(tmp_path):
    pytest.importorskip("IPython")
    book = _notebook(tmp_path / "magic.ipynb", "import torch\n%time w = torch.ones(2, requires_grad=True)",
                     "print(w.exp().sum().item())")
    result = run_gradscope("run", str(book))  # (a process of its own: IPython's shell is process-wide)
    assert result.returncode == 0 and "5.436" in result.stdout and "Wall time" in result.stdout
    assert "gradscope" not in result.stderr


def test_ipython_syntax_without_ipython_is_one_clear_error(tmp_path):
    book = _notebook(tmp_path / "magic.ipynb", "x = 1", "!pip list")
    code = ("import sys; sys.modules['IPython'] = None\n"
            f"sys.argv = ['gradscope', 'run', {str(book)!r}]\n"
            "from gradscope.cli import main; main()\n")
    script = tmp_path / "no_ipython.py"
    script.write_text(code)
    result = run_python(str(script))
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "gradscope: magic.ipynb, In [2] uses IPython syntax (a magic or a shell escape), which needs "
        "IPython: pip install 'gradscope[notebook]' (or remove that line)")


def test_a_syntax_error_names_the_cell(tmp_path):
    book = _notebook(tmp_path / "broken.ipynb", "x = 1", "y = (")
    result = run_gradscope("run", str(book))
    assert result.returncode == 1
    assert "SyntaxError in broken.ipynb, In [2], line 1" in result.stderr
    assert "Traceback" not in result.stderr


def test_check_and_graph_run_a_notebook_too(tmp_path):
    checked = run_gradscope("check", str(NOTEBOOKS / "backward_twice.ipynb"))
    assert checked.returncode == 1 and "backward-through-freed-graph" in checked.stdout + checked.stderr
    drawn = run_gradscope("graph", "--format", "json", "-o", str(tmp_path / "g.json"),
                          str(NOTEBOOKS / "backward_twice.ipynb"))
    assert drawn.returncode == 0 and "backward_twice.ipynb, In [" in (tmp_path / "g.json").read_text()
