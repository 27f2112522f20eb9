"""The in-process harness (tests/harness.py) records like `gradscope run` and leaves nothing behind."""

from __future__ import annotations

import os
import sys
import textwrap
import warnings

import pytest

torch = pytest.importorskip("torch")

from harness import record, run_plain  # noqa: E402

SCRIPT = textwrap.dedent('''\
    import sys, warnings
    import torch
    import helper_module_for_harness  # from the script's own folder

    warnings.simplefilter("ignore")
    torch.set_grad_enabled(False)
    torch.set_default_dtype(torch.float64)
    torch.autograd.set_detect_anomaly(True)
    torch.manual_seed(1)
    sys.excepthook = lambda *args: None
    torch.set_grad_enabled(True)
    print("argv", sys.argv[1:], __name__)
    a = torch.randn(3, requires_grad=True)
    b = a.sigmoid()
    b.mul_(2)
    b.sum().backward()
''')


def test_script_is_recorded_and_the_process_is_left_as_it_was(tmp_path):
    script = tmp_path / "prog.py"
    script.write_text(SCRIPT)
    (tmp_path / "helper_module_for_harness.py").write_text("")
    argv, path, cwd, main = list(sys.argv), list(sys.path), os.getcwd(), sys.modules["__main__"]
    filters, hook, rng = list(warnings.filters), sys.excepthook, torch.get_rng_state()

    run = record(script, "x", "--flag")

    assert run.stdout == "argv ['x', '--flag'] __main__\n"
    assert run.outcome.exit_status == 1 and type(run.outcome.exception) is RuntimeError
    assert run.rules == ["inplace-modified-saved-tensor"]
    assert [(loc.line, loc.role) for loc in run.findings[0].locations] == [(15, "fix"), (14, "saved"),
                                                                          (15, "modified"), (16, "backward")]
    assert run.report()["argv"] == [str(script), "x", "--flag"]
    assert run.trace.internal_errors == []
    # Nothing leaks into the next test of this worker.
    assert (sys.argv, sys.path, os.getcwd(), sys.modules["__main__"]) == (argv, path, cwd, main)
    assert warnings.filters == filters and sys.excepthook is hook
    assert torch.is_grad_enabled() and not torch.is_anomaly_enabled()
    assert torch.get_default_dtype() == torch.float32 and torch.equal(torch.get_rng_state(), rng)
    assert "helper_module_for_harness" not in sys.modules
    assert torch._C._len_torch_function_stack() == 0  # the recorder's mode is off


def test_function_is_recorded_with_recorder_settings():
    def program():
        x = torch.randn(3, requires_grad=True)
        y = x.exp()
        y.add_(1)  # a hazard: no backward follows
        return y.shape

    trace, findings, outcome = record(program, keep_backwards=1)
    assert outcome.exit_status == 0 and outcome.exception is None
    assert [f.rule for f in findings] == ["inplace-hazard"]
    assert findings[0].locations[-1].path == os.path.realpath(__file__)
    assert trace.argv == ["test_function_is_recorded_with_recorder_settings.<locals>.program"]
    assert torch._C._len_torch_function_stack() == 0


def test_function_that_raises_or_exits():
    def fails():
        w = torch.randn(2, requires_grad=True)
        w.add_(1)

    run = record(fails)
    assert run.outcome.exit_status == 1 and run.rules == ["inplace-on-leaf"]
    assert record(lambda: sys.exit(4)).outcome.exit_status == 4


def test_unknown_script_setting_is_refused(tmp_path):
    with pytest.raises(TypeError, match="freeze_gc"):
        record(tmp_path / "x.py", freeze_gc=False)


def test_plain_run_and_warnings(tmp_path):
    script = tmp_path / "plain.py"
    script.write_text("import sys, warnings\nwarnings.warn('careful')\nprint(sys.argv[1])\nsys.exit(3)\n")
    plain = run_plain(script, "hello")
    assert (plain.stdout, plain.outcome.exit_status, plain.warnings) == ("hello\n", 3, ["careful"])
    recorded = record(script, "hello")
    assert (recorded.stdout, recorded.outcome.exit_status, recorded.warnings) == ("hello\n", 3, ["careful"])
    assert recorded.findings == [] and recorded.trace.internal_errors == []
