"""Programs that break naive instrumentation run under gradscope exactly as under Python.

Custom autograd Functions (mark_dirty, mark_non_differentiable, once_differentiable),
checkpointing (reentrant and not), torch.func, double backward, CPU autocast, the user's own
function/dispatch modes, saved-tensor hooks and module/tensor hooks with anomaly mode toggled,
hogwild threads, fork DataLoader workers, and torch.compile: same stdout, stderr, exit status,
and no finding or internal error.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import run_gradscope, run_python

TRICKY = sorted((Path(__file__).parent / "probes" / "tricky").glob("*.py"))


@pytest.mark.parametrize("program", TRICKY, ids=[p.stem for p in TRICKY])
def test_same_as_python(program, tmp_path):
    plain = run_python(program)
    traced = run_gradscope("run", "--json", str(tmp_path / "r.json"), str(program))
    assert plain.returncode == 0, plain.stderr
    assert (traced.returncode, traced.stdout, traced.stderr) == (plain.returncode, plain.stdout, plain.stderr)
    import json
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["findings"] == [] and report["internal_errors"] == []
    if program.stem == "compiled":  # said in the report, not on stderr (that stays as Python's)
        assert any("opaque" in note for note in report["notes"])
