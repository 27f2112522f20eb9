"""The pytest plugin, in pytester: inert by default, and failing hazardous tests when enabled."""

from __future__ import annotations

import re

import subprocess
import sys
import textwrap

import pytest

SUITE = textwrap.dedent('''
    import pytest
    import torch


    def scaled_attention(query, keys):
        weights = torch.sigmoid(query @ keys.T)
        weights.div_(2.0)
        return weights


    def test_forward_only_hazard():
        query = torch.randn(2, 4, requires_grad=True)
        assert scaled_attention(query, torch.randn(5, 4)).shape == (2, 5)


    def test_clean_training_step():
        w = torch.randn(3, 2, requires_grad=True)
        (torch.randn(4, 3) @ w).relu().sum().backward()
        assert w.grad is not None


    def test_allow_mutation_is_fine():
        x = torch.randn(3, requires_grad=True)
        with torch.autograd.graph.allow_mutation_on_saved_tensors():
            y = x.exp()
            y.mul_(2)
            y.sum().backward()


    @pytest.mark.gradscope
    def test_marked_hazard():
        x = torch.randn(3, requires_grad=True)
        y = x.tanh()
        y += 1
''')


@pytest.fixture
def suite(pytester):
    pytester.makepyfile(test_model=SUITE)
    return pytester


def test_inert_unless_enabled(suite):
    result = suite.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=3, failed=1)  # only the marked test is recorded
    result.stdout.fnmatch_lines(["*test_marked_hazard*gradscope: autograd hazards*"])
    assert "test_forward_only_hazard" not in result.stdout.str().split("short test summary")[1]


def test_enabled_fails_the_hazard_with_both_lines(suite):
    result = suite.runpytest_subprocess("--gradscope", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2, failed=2)
    out = result.stdout.str()
    failure = out[out.index("_ test_forward_only_hazard _"):]
    # Each line's place, then its code on the row below (render/console.py).
    assert re.search(r"saved +test_model.py:6 in scaled_attention", failure)
    assert re.search(r"modified +test_model.py:7 in scaled_attention", failure)
    for code in ("weights = torch.sigmoid(query @ keys.T)", "weights.div_(2.0)"):
        assert f"            {code}" in failure
    # The in-place write's callers: the test that called the helper (pytest's frames left out).
    assert "reached from test_model.py:13 in test_forward_only_hazard " in failure
    result.stdout.fnmatch_lines([
        "*= gradscope =*",
        "test_model.py::test_forward_only_hazard: 1 finding (test failed)",
        "    error inplace-hazard at test_model.py:7: In-place change of a tensor saved for a backward*",
    ])


def test_ini_option_and_suppression(suite):
    suite.makeini("[pytest]\ngradscope = true\n")
    assert suite.runpytest_subprocess("-p", "no:cacheprovider").ret == 1
    suite.makepyfile(test_model=SUITE.replace("weights.div_(2.0)", "weights.div_(2.0)  # gradscope: ignore[inplace-hazard]")
                     .replace("y += 1", "y += 1  # gradscope: ignore"))
    suite.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=4)


def test_failing_test_gets_the_explanation(pytester):
    pytester.makepyfile(test_fails=textwrap.dedent('''
        import torch

        def test_backward_after_inplace():
            x = torch.randn(3, requires_grad=True)
            y = x.exp()
            y += 1
            y.sum().backward()
    '''))
    result = pytester.runpytest_subprocess("--gradscope", "-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*- gradscope -*", "*modified *test_fails.py:6 in test_backward_after_inplace*",
                                 "*            y += 1*", "*gradscope · inplace-modified-saved-tensor*"])
    assert "recorder.py" not in result.stdout.str()  # gradscope's frames are hidden from the traceback


def test_works_with_xdist(suite):
    pytest.importorskip("xdist")
    result = suite.runpytest_subprocess("--gradscope", "-n", "2", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2, failed=2)
    result.stdout.fnmatch_lines(["*= gradscope =*", "*test_forward_only_hazard: 1 finding*"])


def test_importing_the_plugin_does_not_import_torch():
    code = "import sys, gradscope.pytest_plugin; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
