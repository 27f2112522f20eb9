"""Bad input: one clear line, a documented exit code, never a traceback from gradscope."""

from __future__ import annotations

import pytest

from conftest import run_gradscope


def _one_line_no_traceback(stderr: str) -> None:
    assert "Traceback" not in stderr
    assert len(stderr.strip().splitlines()) == 1, stderr


def test_missing_script(tmp_path):
    result = run_gradscope("run", str(tmp_path / "missing.py"))
    assert result.returncode == 2  # as `python missing.py`
    _one_line_no_traceback(result.stderr)
    assert result.stderr.startswith("gradscope: can't open file") and "missing.py" in result.stderr


def test_syntax_error_in_script(tmp_path):
    script = tmp_path / "broken.py"
    script.write_text("import torch\nx = (\n")
    result = run_gradscope("run", str(script))
    assert result.returncode == 1
    _one_line_no_traceback(result.stderr)
    assert "SyntaxError" in result.stderr and "broken.py, line 2" in result.stderr


def test_unimportable_module(tmp_path):
    result = run_gradscope("run", "-m", "no_such_module_for_gradscope", cwd=tmp_path)
    assert result.returncode == 1
    _one_line_no_traceback(result.stderr)
    assert "No module named no_such_module_for_gradscope" in result.stderr


def test_directory_without_main(tmp_path):
    result = run_gradscope("run", str(tmp_path))
    assert result.returncode == 1
    _one_line_no_traceback(result.stderr)


@pytest.mark.parametrize("argv", [["run", "--bogus", "x.py"], ["run"], ["frobnicate"]])
def test_usage_errors_exit_2(argv):
    result = run_gradscope(*argv)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "Usage:" in result.stderr


def test_version_and_help_do_not_import_torch():
    code = ("import sys; from gradscope import cli; sys.argv=['gradscope','--help']\n"
            "try:\n    cli.main()\nexcept SystemExit:\n    pass\n"
            "assert 'torch' not in sys.modules, 'torch imported by --help'")
    import subprocess, sys
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    result = run_gradscope("--version")
    assert result.returncode == 0 and result.stdout.startswith("gradscope ")
