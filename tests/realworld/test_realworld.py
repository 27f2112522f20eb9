"""Each real-library script (scripts/*.py) runs under plain Python and under `gradscope run`:
same exit status, stdout and stderr, and a JSON report with no findings and no internal errors.

Skipped unless requested (see conftest.py); the same check as `python tests/realworld/run_suite.py`.
"""

import importlib.util
import sys
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location("gradscope_realworld_run_suite",
                                               Path(__file__).with_name("run_suite.py"))
run_suite = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = run_suite
_spec.loader.exec_module(run_suite)

pytestmark = pytest.mark.realworld


@pytest.mark.parametrize("script", run_suite.scripts(), ids=lambda path: path.stem)
def test_same_run_and_no_findings(script):
    missing = run_suite.missing_requirements(script)
    if missing:
        pytest.skip(f"{script.name} needs {', '.join(missing)} (pip install -e .[realworld])")
    result = run_suite.run_script(script)
    assert result.verdict == "pass", f"{script.name} under gradscope run:\n" + "\n".join(
        "- " + reason.replace("\n", "\n  ") for reason in result.reasons)
