"""The grad-flow rules on hand-built statistics: no torch."""

from __future__ import annotations

from gradscope.trace.locations import Site
from gradscope.render import flow_svg, flow_table
from gradscope.rules import diagnose
from gradscope.rules.grad_flow import flags
from gradscope.trace.model import BackwardCall, FlowSeries, GradFlow, Trace

F = "/src/train.py"


def weight(name, norms, line, numel=100, **extra):
    return FlowSeries(name, "parameter", "Linear", Site(F, line), numel, 0, norms=norms,
                      max_abs=norms, zero_fraction=[0.0] * len(norms), finite=[True] * len(norms), **extra)


def trace_of(*series, steps=None, **flow):
    steps = steps or list(range(len(series[0].norms)))
    trace = Trace(argv=["train.py"], grad_flow=GradFlow(steps=steps, series=list(series), **flow))
    trace.backward_calls = [BackwardCall(i, "Tensor.backward", Site(F, 30), seq=i, retain_graph=False,
                                         create_graph=False) for i in steps]
    return trace


def rules_of(trace):
    return [f.rule for f in diagnose(trace)]


def test_vanishing_across_layers():
    trace = trace_of(weight("0.weight", [1e-9] * 4, 10), weight("1.weight", [1e-2] * 4, 11),
                     weight("2.weight", [1.0] * 4, 12))
    (finding,) = diagnose(trace)
    assert finding.rule == "vanishing-gradient" and finding.details["layers"] == ["0.weight"]
    assert [(loc.line, loc.role) for loc in finding.locations] == [(10, "layer"), (12, "reference")]


def test_uniform_convergence_is_not_vanishing():
    shrinking = [1.0, 0.9, 0.8, 1e-4, 1e-4, 1e-4]
    trace = trace_of(weight("0.weight", shrinking, 10), weight("1.weight", shrinking, 11))
    assert rules_of(trace) == []
    one_layer_dies = trace_of(weight("0.weight", [1.0, 1.0, 1.0, 1e-6, 1e-6, 1e-6], 10),
                              weight("1.weight", [1.0] * 6, 11))
    assert rules_of(one_layer_dies) == ["vanishing-gradient"]


def test_zero_gradient_is_not_vanishing():
    assert rules_of(trace_of(weight("0.weight", [0.0] * 3, 10), weight("1.weight", [1.0] * 3, 11))) == []


def test_exploding_by_bound_and_by_growth():
    bound = trace_of(weight("rnn.weight", [5.0, 2e3, 3e4], 10))
    (finding,) = diagnose(bound)
    assert finding.rule == "exploding-gradient" and finding.details["step"] == 2
    assert [(loc.line, loc.role) for loc in finding.locations] == [(10, "layer"), (30, "backward")]
    growth = trace_of(weight("rnn.weight", [0.01, 0.01, 0.01, 0.5, 2.0], 10))
    assert rules_of(growth) == ["exploding-gradient"]
    assert rules_of(trace_of(weight("rnn.weight", [5.0, 2e3], 10), thresholds={"exploding-norm": 1e4})) == []


def test_dead_relu_names_the_layer_before():
    relu = FlowSeries("1", "output", "ReLU", Site(F, 20), 64, 1, norms=[0.1] * 3, max_abs=[0.1] * 3,
                      zero_fraction=[0.0] * 3, finite=[True] * 3, dead_units=[1.0, 1.0, 0.9])
    trace = trace_of(weight("0.weight", [0.0] * 3, 10), relu, weight("2.weight", [0.2] * 3, 12))
    (finding,) = diagnose(trace)
    assert finding.rule == "dead-relu" and finding.details["module"] == "1"
    assert [(loc.line, loc.role) for loc in finding.locations] == [(20, "activation"), (10, "layer")]
    assert flags(trace.grad_flow) == {"1": ["dead"]}


def test_first_nonfinite_layer():
    bad = weight("2.weight", [0.1, float("nan")], 12)
    bad.finite = [True, False]
    trace = trace_of(weight("0.weight", [0.1, 0.1], 10), bad, first_nonfinite=[1, 1])
    (finding,) = diagnose(trace)
    assert finding.rule == "nonfinite-gradient" and "`2.weight`" in finding.title
    assert [(loc.line, loc.role) for loc in finding.locations] == [(12, "forward"), (30, "backward")]


def test_table_and_chart_render():
    import io

    trace = trace_of(weight("0.weight", [1e-9, 2e-9, None], 10), weight("1.weight", [1.0, 0.5, 0.25], 11))
    stream = io.StringIO()
    flow_table.render(trace.grad_flow, stream, width=120)
    text = stream.getvalue()
    assert "0.weight" in text and "vanishing" in text and "1e-09..2e-09" in text
    assert flow_table.sparkline([1e-9, 1.0, None, float("nan")], 1e-9, 1.0) == "▁█ !"
    svg = flow_svg.render(trace.grad_flow)
    assert svg.count("<polyline") == 2 and "0.weight" in svg
