"""`gradscope graph` and saved traces on the samples: the graphs drawn from what was recorded
(in-process, tests/harness.py, the view `gradscope graph` builds), and the command end to end."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import sys

import pytest

from conftest import ROOT, SAMPLES, run_gradscope
from harness import record

from gradscope.render import graphview

RENDERER = shutil.which("dot") or shutil.which("graphviz-pure") or (
    os.path.join(os.path.dirname(sys.executable), "graphviz-pure")
    if os.path.exists(os.path.join(os.path.dirname(sys.executable), "graphviz-pure")) else None)


def recorded_view(sample, **settings):
    """The view `gradscope graph SAMPLE -o g.json` writes (default options), recorded in-process."""
    run = record(SAMPLES / sample, **settings)
    return graphview.build(run.trace, graphview.Options()).to_dict(), run


def test_inplace_sample_graph_highlights_the_problem():
    view, run = recorded_view("inplace_index_assign.py")
    assert "is at version 1; expected version 0" in str(run.outcome.exception)  # `graph` prints it: below
    by_role = {role: [b for b in view["boxes"] if role in b["roles"]] for role in view["roles"]}
    [failed] = by_role["failed"]
    assert (failed["title"], failed["lines"][0]) == ("MulBackward0", "inplace_index_assign.py:12")
    [write] = by_role["inplace"]
    assert write["lines"][:2] == ["inplace_index_assign.py:13", "v0 → v1"]
    assert all("v0 → now v1" in b["lines"] for b in by_role["modified-saved"])
    assert view["total_nodes"] == 3 and view["hidden_nodes"] == 0


def test_freed_graph_sample():
    view, _ = recorded_view("rnn_hidden_state.py")
    [freed] = [b for b in view["boxes"] if "freed" in b["roles"]]
    [used] = [b for b in view["boxes"] if "used" in b["roles"]]
    assert freed["lines"][0] == used["lines"][0] == "rnn_hidden_state.py:13"
    assert view["title"].endswith("failing backward call #2")


def test_module_sample_names_parameters_and_modules():
    view, _ = recorded_view("residual_inplace.py")
    titles = {b["title"] for b in view["boxes"] if b["kind"] == "leaf"}
    assert {"0.weight", "1.fc1.weight", "1.fc2.bias", "2.weight"} <= titles
    [failed] = [b for b in view["boxes"] if "failed" in b["roles"]]
    assert failed["lines"] == ["blocks.py:15", "in ReLU 1.act"]


def test_trace_round_trip_and_graph_from_trace(tmp_path):
    trace = tmp_path / "run.trace.json.gz"
    result = run_gradscope("run", "--trace", str(trace), str(SAMPLES / "gan_step_between_backwards.py"))
    assert result.returncode == 1
    data = json.loads(gzip.decompress(trace.read_bytes()))
    assert data["format"] == "gradscope-trace" and data["schema"] == 2
    assert data["trace"]["meta"]["torch"].startswith("2.")
    assert [f["rule"] for f in data["findings"]] == ["inplace-modified-saved-tensor"]
    assert any(code.startswith("opt_d.step()") for code in data["source_lines"].values())
    # Options may follow a trace file (it takes no arguments of its own).
    out = tmp_path / "from_trace.json"
    again = run_gradscope("graph", str(trace), "-o", str(out), "--focus")
    assert again.returncode == 0, again.stderr
    view = json.loads(out.read_text())
    assert any("inplace" in b["roles"] for b in view["boxes"])
    assert again.stdout == ""  # nothing re-ran


def test_save_trace_default_name(tmp_path):
    result = run_gradscope("run", "--save-trace", str(SAMPLES / "backward_twice_same_loss.py"), cwd=tmp_path)
    assert result.returncode == 1
    assert (tmp_path / "backward_twice_same_loss.trace.json.gz").exists()


def test_dot_format_needs_no_renderer(tmp_path):
    out = tmp_path / "g.dot"
    result = run_gradscope("graph", "-o", str(out), str(SAMPLES / "leaf_slice_assign.py"))
    assert result.returncode == 0, result.stderr
    text = out.read_text()
    assert text.startswith("digraph autograd {") and "leaf_slice_assign.py:4" in text


@pytest.mark.skipif(RENDERER is None, reason="neither dot nor graphviz-pure is installed")
def test_svg_is_rendered_with_source_tooltips(tmp_path):
    out = tmp_path / "g.svg"
    result = run_gradscope("graph", "-o", str(out), str(SAMPLES / "inplace_index_assign.py"))
    assert result.returncode == 0, result.stderr
    svg = out.read_text()
    assert svg.lstrip().startswith(("<?xml", "<svg", "<!--"))
    assert "b[0] = 1000.0" in svg  # the in-place line's code, as a tooltip
    assert "MulBackward0" in svg


def test_no_renderer_writes_dot_and_exits_3(tmp_path):
    out = tmp_path / "g.svg"
    env = dict(os.environ, PATH=str(tmp_path / "empty"))
    command = [sys.executable, "-m", "gradscope", "graph", "-o", str(out), str(SAMPLES / "inplace_plus_equals.py")]
    import subprocess
    shadow = tmp_path / "venv-python"  # a python whose folder holds no graphviz-pure
    shadow.mkdir()
    os.symlink(sys.executable, shadow / "python")
    command[0] = str(shadow / "python")
    # Outside its virtual environment that python finds none of its packages: name them.
    import site
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), *site.getsitepackages()])
    proc = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT)
    assert proc.returncode == 3, proc.stderr
    assert (tmp_path / "g.dot").exists() and not out.exists()
    assert "no renderer for svg" in proc.stderr
    assert "is at version 1; expected version 0" in proc.stderr  # the program's own traceback


@pytest.mark.parametrize("content, message", [
    (b"", "is empty"),
    (b'{"format": "gradscope-trace", "schema": 1, "trace": {"argv": [', "not valid JSON"),
    (b'{"hello": "world"}', "is not a gradscope trace"),
    (b'{"format": "gradscope-trace", "schema": 99, "trace": {}}', "newer than this gradscope reads"),
    (b'{"format": "gradscope-trace", "schema": 2, "trace": {"nodes": {"1": 5}}}', "damaged gradscope trace"),
    (b'{"format": "gradscope-trace", "schema": 1, "trace": {}}', "from an older gradscope"),
    (gzip.compress(b'{"format": "gradscope-trace"', mtime=0)[:-8], "truncated or damaged compressed file"),
    (b"\x00\x01\x02binary", "not a gradscope trace"),
])
def test_bad_trace_files(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    result = run_gradscope("graph", str(path))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and message in result.stderr, result.stderr


def test_missing_trace_file_and_bad_options(tmp_path):
    missing = run_gradscope("graph", str(tmp_path / "nope.json"))
    assert missing.returncode == 2 and "cannot read trace file" in missing.stderr
    fmt = run_gradscope("graph", "--format", "bmp", str(SAMPLES / "inplace_plus_equals.py"))
    assert fmt.returncode == 2 and "unknown format 'bmp'" in fmt.stderr
    call = run_gradscope("graph", "--call", "7", "-o", str(tmp_path / "x.svg"), str(SAMPLES / "inplace_plus_equals.py"))
    assert call.returncode == 1 and "no backward call #7" in call.stderr


def test_graph_of_a_program_without_autograd(tmp_path):
    script = tmp_path / "no_torch.py"
    script.write_text("print('hello')\n")
    result = run_gradscope("graph", "-o", str(tmp_path / "g.svg"), str(script))
    assert result.returncode == 1
    assert result.stdout == "hello\n"
    assert "no autograd graph was recorded" in result.stderr


def test_retention_options():
    run = record(SAMPLES / "rnn_hidden_state.py", keep_backwards=1, max_nodes=100)
    assert run.outcome.exit_status == 1
    [finding] = run.findings
    assert finding.rule == "backward-through-freed-graph"  # what a failure needs is still there
    bad = run_gradscope("run", "--max-nodes", "5", str(SAMPLES / "rnn_hidden_state.py"))
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
