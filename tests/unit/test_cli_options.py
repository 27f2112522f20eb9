"""`gradscope run`'s options reach the recording settings (in-process: the run itself is replaced).

Tests of what a setting records use the in-process harness with session.Settings; this is the
link between them and the command line."""

from __future__ import annotations

import pytest

from gradscope import cli
from gradscope.runtime import session


@pytest.fixture
def handed_over(monkeypatch):
    calls = []
    monkeypatch.setattr(session, "run", lambda target, json_path, trace_path, settings, run_options=():
                        calls.append((target, json_path, trace_path, settings)))

    def run(*argv):
        try:
            cli.main(list(argv))
        except SystemExit as exc:
            assert exc.code in (0, None), exc.code
        (call,) = calls
        calls.clear()
        return call
    return run


def test_defaults(handed_over, tmp_path):
    script = tmp_path / "x.py"
    script.write_text("")
    target, json_path, trace_path, settings = handed_over("run", str(script), "a", "--b")
    assert target.argv == [str(script), "a", "--b"] and json_path is None and trace_path is None
    assert settings == session.Settings()


def test_every_recording_option(handed_over, tmp_path):
    script = tmp_path / "x.py"
    script.write_text("")
    _, json_path, trace_path, settings = handed_over(
        "run", "--json", "r.json", "--trace", "t.json.gz", "--keep-backwards", "1", "--max-nodes", "100",
        "--check-nan", "--grad-flow-modules", "hidden.0", "--grad-flow-modules", "head",
        "--grad-flow-threshold", "vanishing-ratio=1e-12", "--grad-flow-svg", "flow.svg", str(script))
    assert (json_path, trace_path) == ("r.json", "t.json.gz")
    assert settings.keep_backwards == 1 and settings.max_nodes == 100 and settings.check_nan is True
    assert settings.grad_flow == ("hidden.0", "head") and settings.flow_svg == "flow.svg"
    from gradscope.trace.flow_stats import parse_thresholds
    assert settings.flow_thresholds == parse_thresholds(["vanishing-ratio=1e-12"]) == {"vanishing-ratio": 1e-12}


@pytest.mark.parametrize("flags", [["--grad-flow"], ["--grad-flow-svg", "f.svg"],
                                   ["--grad-flow-threshold", "dead-fraction=0.5"]])
def test_each_flow_option_turns_grad_flow_on_for_every_module(handed_over, tmp_path, flags):
    script = tmp_path / "x.py"
    script.write_text("")
    assert handed_over("run", *flags, str(script))[3].grad_flow == ()
