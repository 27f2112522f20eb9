"""benchmarks/compare.py: HEAD against the working tree, one round of one small workload (~10-20 s:
three child processes, each importing torch), and the shape of its --json output."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")

ROOT = Path(__file__).resolve().parents[2]
COMPARE = ROOT / "benchmarks" / "compare.py"


def test_compare_head_with_working_tree(tmp_path):
    if subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True).returncode != 0:
        pytest.skip("not a git checkout: no HEAD to export")
    out = tmp_path / "compare.json"
    proc = subprocess.run([sys.executable, str(COMPARE), "HEAD", "./src", "--workloads", "mlp", "--rounds", "1",
                           "--steps", "1", "--json", str(out)], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr
    assert "B/A" in proc.stdout and "\nmlp " in proc.stdout

    document = json.loads(out.read_text())
    assert document["rounds"] == 1 and document["torch"]
    a, b = document["versions"]["A"], document["versions"]["B"]
    assert a["spec"] == "HEAD" and len(a["commit"]) == 40 and "src" not in a
    assert b["spec"] == "./src" and b["commit"] is None and Path(b["src"]).resolve() == (ROOT / "src").resolve()
    for version in (a, b):
        assert "keep_backwards" in version["recorder_params"]

    assert list(document["workloads"]) == ["mlp"]
    mlp = document["workloads"]["mlp"]
    assert mlp["steps"] == 1
    assert set(mlp["ms"]) == set(mlp["median_ms"]) == {"plain", "A", "B"}
    assert all(len(v) == 1 and v[0] > 0 for v in mlp["ms"].values())
    assert set(mlp["ratios"]) == {"A/plain", "B/plain", "B/A"}
    for ratio in mlp["ratios"].values():
        assert set(ratio) == {"median", "min", "max", "rounds"} and len(ratio["rounds"]) == 1
        assert ratio["min"] == ratio["median"] == ratio["max"] > 0
    b_over_a = mlp["ratios"]["B/A"]["median"]
    assert b_over_a == pytest.approx(mlp["ms"]["B"][0] / mlp["ms"]["A"][0])
