"""The IPython extension: `%%gradscope` and `%gradscope on|off` in a real InteractiveShell, and the
sample notebooks in a real Jupyter kernel (nbclient). Each scenario runs in a process of its
own (an IPython shell and a kernel are process-wide); skipped, with the reason, where the
`notebook` extra is not installed."""

from __future__ import annotations

import re

import json
import subprocess
import sys

import pytest

from conftest import ROOT, SAMPLES

pytest.importorskip("IPython", reason="the notebook extra (pip install 'gradscope[notebook]') is not installed")

PROBE = ROOT / "tests" / "e2e" / "probes" / "ipython_session.py"


def _scenario(name: str) -> dict:
    result = subprocess.run([sys.executable, str(PROBE), name], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_a_recorded_cell_fails_as_without_gradscope_then_is_explained():
    seen = _scenario("traceback")
    # IPython's own traceback, with the same frames as without gradscope (none of gradscope's,
    # none of the torch frames that exist only because gradscope is there); line 5 of the
    # visible cell, its first line being %%gradscope.
    assert seen["recorded_frames"] == seen["plain_frames"] and len(seen["plain_frames"]) == 3
    assert seen["recorded_cell"] == ["Cell In[4], line 5"]
    assert seen["success"] is False  # a failed cell still stops "Run All"
    (shown,) = seen["shown"]
    assert "gradscope · inplace-modified-saved-tensor" in shown
    for place in (r"saved +In \[4\], line 3", r"modified +In \[4\], line 4", r"backward +In \[4\], line 5"):
        assert re.search(place, shown), place


def test_gradscope_on_records_the_following_cells_as_one_run():
    cells = _scenario("session")["cells"]
    assert "recording from the next cell on" in cells[0]["stdout"]
    # The weight is made in one cell and read in the next: one run, so the finding names both.
    assert [c["shown"] for c in (cells[1], cells[3], cells[4], cells[5])] == [[], [], [], []]
    (shown,) = cells[2]["shown"]
    assert "non-leaf-grad-read" in shown and "In [4], line 1" in shown and "In [5], line 3" in shown
    assert cells[2]["stdout"] == "None\n"  # the cell's own output, unchanged


def test_bad_options_stop_the_cell_and_a_nested_recording_is_refused():
    seen = _scenario("options")
    assert seen["bad"]["stderr"] == "UsageError: gradscope: unrecognized arguments: --no-such-option\n"
    assert seen["bad"]["stdout"] == "" and seen["bad"]["success"] is False
    assert "RecordingError: gradscope is already recording" in seen["nested"]["stdout"]
    assert seen["after"]["shown"] == ["gradscope: no autograd problems found in this cell"]  # and it works again


def test_two_hundred_cells_of_training_keep_memory_flat():
    seen = _scenario("memory")
    # IPython itself keeps about 1.4 kB per cell (its history, each cell's source); gradscope's
    # records are bounded, and nothing of a cell is held once it ran.
    assert seen["after_300"] - seen["after_200"] < 300_000, seen


# ---------------------------------------------------------------- a real kernel
KERNEL_NOTEBOOKS = {
    # notebook -> (cell index of the failing/flagged cell, its rule, places it must name)
    "inplace_version.ipynb": (5, "inplace-modified-saved-tensor", ["In [3], line 2", "In [4], line 1", "In [5], line 1"]),
    "leaf_and_retain_grad.ipynb": (4, "non-leaf-grad-read", ["In [3], line 1", "In [4], line 3"]),
}


@pytest.mark.parametrize("notebook", sorted(KERNEL_NOTEBOOKS))
def test_sample_notebooks_in_a_jupyter_kernel(notebook):
    nbclient = pytest.importorskip("nbclient")
    nbformat = pytest.importorskip("nbformat")
    book = nbformat.read(str(SAMPLES / "notebooks" / notebook), as_version=4)
    nbclient.NotebookClient(book, timeout=240, kernel_name="python3", allow_errors=True).execute()
    index, rule, places = KERNEL_NOTEBOOKS[notebook]
    cell = book.cells[index]
    assert cell.execution_count == index  # (a markdown cell first: In [n] is cell n)
    shown = [out for out in cell.outputs if out.output_type == "display_data"]
    (report,) = shown
    html, text = report.data["text/html"], report.data["text/plain"]
    assert rule in html and rule in text
    for place in places:
        assert place in text
    if rule == "inplace-modified-saved-tensor":
        errors = [out for out in cell.outputs if out.output_type == "error"]
        assert [e.ename for e in errors] == ["RuntimeError"]  # IPython's own error output, first
        assert cell.outputs.index(errors[0]) < cell.outputs.index(report)
        # The graph, inline, with the failing node and the in-place change highlighted.
        assert "<svg" in html and "#dc2626" in html and "#ea580c" in html
