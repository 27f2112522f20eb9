"""`--grad-flow`: the four samples' findings and lines, the recorded statistics against plain
torch, the table, the SVG chart, options, and `graph --color-by grad-norm`. What is recorded is
checked in-process (tests/harness.py); each flow sample has one end-to-end run next to python."""

from __future__ import annotations

import json
import math
import textwrap
from xml.etree import ElementTree

import pytest

from conftest import SAMPLES, run_gradscope, run_python_once
from harness import record, run_plain

from gradscope.render import graphview
from gradscope.trace import file as trace_file

# sample -> [(rule, [(line, role), ...])] with --grad-flow
FLOW = {
    "flow_vanishing_sigmoid.py": [("vanishing-gradient", [(13, "layer")] * 4 + [(14, "reference")])],
    "flow_exploding_rnn.py": [("exploding-gradient", [(10, "layer"), (11, "layer"), (10, "layer"), (10, "layer"),
                                                      (20, "backward")])],
    "flow_dead_relu.py": [("dead-relu", [(18, "activation"), (11, "layer")])],
    "flow_healthy.py": [],
}


@pytest.mark.parametrize("sample", sorted(FLOW))
def test_grad_flow_sample_findings(sample):
    run = record(SAMPLES / sample, grad_flow=())
    assert run.outcome.exit_status == 0
    report = run.report()
    assert report["internal_errors"] == []
    found = [(f["rule"], [(loc["line"], loc["role"]) for loc in f["locations"]]) for f in report["findings"]]
    assert found == FLOW[sample]
    assert all(f["severity"] == "warning" for f in report["findings"])
    assert report["grad_flow"]["steps"]


@pytest.mark.parametrize("sample", sorted(FLOW))
def test_grad_flow_sample_runs_like_python(sample, tmp_path):
    result = run_gradscope("run", "--grad-flow", str(SAMPLES / sample), json_path=tmp_path / "r.json")
    plain = run_python_once(SAMPLES / sample)
    assert result.returncode == plain.returncode == 0
    assert result.stdout == plain.stdout
    assert result.stderr.startswith(plain.stderr)
    assert "gradient flow: gradient norm per layer" in result.stderr
    report = result.report
    assert report["internal_errors"] == []
    assert [f["rule"] for f in report["findings"]] == [rule for rule, _ in FLOW[sample]]
    assert report["grad_flow"]["steps"]


def test_flow_samples_are_quiet_without_the_flag():
    report = record(SAMPLES / "flow_vanishing_sigmoid.py").report()
    assert report["findings"] == [] and report["grad_flow"] is None


STATS_SCRIPT = textwrap.dedent('''\
    import json, sys
    import torch
    import torch.nn as nn

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(5, 6), torch.randn(5, 2)
    seen = {}
    steps = []
    for step in range(3):
        optimizer.zero_grad()
        hidden = model[0](x)
        hidden.register_hook(lambda g: seen.__setitem__("0", g.norm().item()))
        loss = ((model[2](model[1](hidden)) - y) ** 2).mean()
        loss.backward()
        row = {"0": seen["0"]}
        for name, p in model.named_parameters():
            g = p.grad
            row[name] = [g.norm().item(), g.abs().max().item(), (g == 0).float().mean().item()]
        steps.append(row)
        optimizer.step()
    if len(sys.argv) > 1:
        with open(sys.argv[1], "w") as handle:
            json.dump(steps, handle)
''')


def test_recorded_statistics_match_plain_torch(tmp_path):
    script = tmp_path / "stats.py"
    script.write_text(STATS_SCRIPT)
    expected_path = tmp_path / "expected.json"
    assert run_plain(script, str(expected_path)).outcome.exit_status == 0  # plain torch, no gradscope
    expected = json.loads(expected_path.read_text())
    run = record(script, grad_flow=())
    assert run.outcome.exit_status == 0
    flow = run.report()["grad_flow"]
    assert flow["steps"] == [0, 1, 2]
    series = {(s["name"], s["kind"]): s for s in flow["series"]}
    for step, row in enumerate(expected):
        assert math.isclose(series[("0", "output")]["norms"][step], row["0"], rel_tol=1e-5)
        for name in ("0.weight", "0.bias", "2.weight", "2.bias"):
            got = series[(name, "parameter")]
            norm, biggest, zeros = row[name]
            assert math.isclose(got["norms"][step], norm, rel_tol=1e-5)
            assert math.isclose(got["max_abs"][step], biggest, rel_tol=1e-5)
            assert math.isclose(got["zero_fraction"][step], zeros, abs_tol=1e-7)
            assert got["finite"][step] is True
    assert series[("0.weight", "parameter")]["site"]["line"] == 6  # where its module was built


def test_svg_chart_and_options(tmp_path):
    sample = SAMPLES / "flow_vanishing_sigmoid.py"
    chart = tmp_path / "flow.svg"
    result = run_gradscope("run", "--grad-flow-svg", str(chart), "--grad-flow-modules", "hidden.0",
                           "--grad-flow-modules", "head", str(sample), json_path=tmp_path / "r.json")
    assert result.returncode == 0
    names = {s["name"] for s in result.report["grad_flow"]["series"]}
    assert names == {"hidden.0", "hidden.0.weight", "hidden.0.bias", "head", "head.weight", "head.bias"}
    svg = ElementTree.parse(chart).getroot()
    assert svg.tag.endswith("svg")
    assert len([e for e in svg.iter() if e.tag.endswith("polyline")]) == 2  # one line per weight
    assert "hidden.0.weight" in chart.read_text()

    # --grad-flow-threshold vanishing-ratio=1e-12 (tests/unit/test_cli_options.py: the option's settings)
    quiet = record(sample, grad_flow=(), flow_thresholds={"vanishing-ratio": 1e-12})
    assert quiet.report()["findings"] == []
    bad = run_gradscope("run", "--grad-flow-threshold", "vanishing=1", str(sample))
    assert bad.returncode == 2 and "unknown threshold 'vanishing'" in bad.stderr


def test_graph_colours_boxes_by_gradient_norm(tmp_path):
    # The view `graph --color-by grad-norm -o g.json SAMPLE` writes (it records with grad_flow=()).
    run = record(SAMPLES / "flow_vanishing_sigmoid.py", grad_flow=())
    view = graphview.build(run.trace, graphview.Options(color_by="grad-norm")).to_dict()
    assert view["color_by"] == "grad-norm"
    by_title = {b["title"]: b["value"] for b in view["boxes"] if b["kind"] == "leaf"}
    assert by_title["hidden.0.weight"] < 1e-3 * by_title["head.weight"]  # the vanishing shows
    ops = [b for b in view["boxes"] if b["kind"] == "op" and b["value"] is not None]
    assert len(ops) >= 16  # each Linear's ops take its output's gradient norm

    dot = tmp_path / "g.dot"
    assert run_gradscope("graph", "--color-by", "grad-norm", "-o", str(dot),
                         str(SAMPLES / "flow_vanishing_sigmoid.py")).returncode == 0
    assert "gradient norm at the last backward" in dot.read_text()


def test_colour_by_needs_statistics_in_a_trace(tmp_path):
    trace = tmp_path / "t.json.gz"
    run = record(SAMPLES / "clean_training_loop.py")  # as `gradscope run --trace t.json.gz` saves it
    assert run.outcome.exit_status == 0
    trace_file.save(str(trace), run.trace, run.findings)
    result = run_gradscope("graph", "--color-by", "grad-norm", "-o", str(tmp_path / "g.svg"), str(trace))
    assert result.returncode == 1 and "gradscope run --grad-flow --trace" in result.stderr
    bad = run_gradscope("graph", "--color-by", "loss", str(trace))
    assert bad.returncode == 2 and "unknown --color-by 'loss'" in bad.stderr


def test_statistics_survive_a_saved_trace(tmp_path):
    trace = tmp_path / "flow.trace.json.gz"
    run = record(SAMPLES / "flow_dead_relu.py", grad_flow=())  # as `run --grad-flow --trace` saves it
    assert run.outcome.exit_status == 0
    trace_file.save(str(trace), run.trace, run.findings)
    out = tmp_path / "g.json"
    drawn = run_gradscope("graph", "--color-by", "grad-norm", "-o", str(out), str(trace))
    assert drawn.returncode == 0, drawn.stderr
    assert any(b["value"] is not None for b in json.loads(out.read_text())["boxes"])
    checked = run_gradscope("check", "--format", "json", str(trace))
    assert checked.returncode == 0  # a warning, below the default threshold
    assert [f["rule"] for f in json.loads(checked.stdout)["findings"]] == ["dead-relu"]


def test_the_nan_origin_wins_over_the_first_nonfinite_layer():
    """NaN from the first backward: the default NaN watch names the op (sqrt), which says more
    than the layer whose gradient statistics first turned non-finite (rules/grad_flow.py)."""
    sample = SAMPLES / "silent_nan_distance.py"  # sqrt of a zero distance: NaN from the first backward
    run = record(sample, grad_flow=())
    assert run.outcome.exit_status == 0 and run.stdout == run_python_once(sample).stdout
    (finding,) = run.findings
    assert finding.rule == "nonfinite-gradient" and run.trace.grad_flow.first_nonfinite is not None
    assert [(loc.line, loc.role) for loc in finding.locations] == [(12, "fix"), (12, "created"), (14, "backward"), (15, "step")]
