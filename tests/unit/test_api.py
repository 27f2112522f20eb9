"""The Python API (`gradscope.record()`), in this process: what a block records, how an exception
leaves it, one recording at a time, and what a recording shows afterwards."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest
import torch

import gradscope
from gradscope.trace import file as trace_file
from gradscope.recorder import Recorder


def _inplace_error():
    x = torch.ones(3, requires_grad=True)
    y = x.sigmoid()
    y.mul_(2)
    y.sum().backward()


def test_a_block_is_recorded_and_diagnosed():
    with gradscope.record() as rec:
        assert rec.running
        w = torch.randn(3, requires_grad=True)
        (w * 2).sum().backward()
    assert not rec.running and rec.trace is not None and rec.findings == []
    assert len(rec.trace.backward_calls) == 1
    assert rec.trace.argv == [f"{__file__}:{test_a_block_is_recorded_and_diagnosed.__code__.co_firstlineno + 1}"]


def test_an_exception_leaves_the_block_unchanged_after_it_is_explained():
    with pytest.raises(RuntimeError, match="modified by an inplace operation") as raised:
        with gradscope.record() as rec:
            _inplace_error()
    assert raised.traceback[-1].name != "__exit__"  # raised where torch raised it, not by gradscope
    assert [f.rule for f in rec.findings] == ["inplace-modified-saved-tensor"]
    assert Recorder._running is None  # stopped on the way out: a new recording can start
    with gradscope.record() as again:
        torch.ones(2, requires_grad=True).exp().sum().backward()
    assert again.findings == []


def test_recordings_do_not_nest_and_a_recording_runs_once():
    with gradscope.record() as outer:
        with pytest.raises(gradscope.RecordingError, match="already recording"):
            with gradscope.record():
                pass
        _ = torch.ones(2, requires_grad=True) * 2
    assert outer.trace is not None and Recorder._running is None
    with pytest.raises(gradscope.RecordingError, match="has run already"):
        with outer:
            pass


def test_settings_are_those_of_gradscope_run():
    assert gradscope.record(check_nan=True, keep_backwards=2).settings.check_nan
    with pytest.raises(TypeError):
        gradscope.record(no_such_setting=1)


def test_report_save_and_graph(tmp_path):
    with pytest.raises(RuntimeError):
        with gradscope.record() as rec:
            _inplace_error()
    out = io.StringIO()
    rec.report(out, width=100)
    assert "inplace-modified-saved-tensor" in out.getvalue() and "y.mul_(2)" in out.getvalue()

    rec.save(str(tmp_path / "run.trace.json"))
    trace, findings, _ = trace_file.load(str(tmp_path / "run.trace.json"))
    assert [f.rule for f in findings] == ["inplace-modified-saved-tensor"]

    written = rec.graph(str(tmp_path / "graph.json"))
    assert written.path.endswith("graph.json") and (tmp_path / "graph.json").read_text() == written.text
    assert written.text.startswith("{") and written.svg is None
    with pytest.raises(ValueError, match="unknown format"):
        rec.graph(format="bmp")


def test_a_graph_without_a_path_is_an_svg_kept_in_memory(tmp_path):
    from gradscope.render import diagram

    if diagram.find_renderer("svg") is None:
        pytest.skip("no Graphviz renderer here (graphviz-pure or dot)")
    with pytest.raises(RuntimeError):
        with gradscope.record() as rec:
            _inplace_error()
    drawn = rec.graph()
    assert drawn.path is None and drawn._repr_svg_().lstrip().startswith(("<?xml", "<svg", "<!--"))
    assert "#dc2626" in drawn.svg  # the failing node, highlighted


def test_nothing_to_show_before_the_block_ran():
    rec = gradscope.record()
    assert "not started" in repr(rec)
    with pytest.raises(gradscope.RecordingError, match="nothing recorded yet"):
        rec.report()


def test_import_gradscope_and_asking_for_a_recording_do_not_import_torch():
    code = ("import sys, gradscope\n"
            "rec = gradscope.record(check_nan=True)\n"
            "assert 'torch' not in sys.modules\n"
            "print(type(rec).__name__)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.strip() == "Recording", result.stderr
