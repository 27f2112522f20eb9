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


# ---------------------------------------------------------------- programs with a bug (buggy/)
BUGGY = Path(__file__).with_name("buggy")


def test_lightning_ddp_ranks_started_by_lightning_itself_are_recorded_and_name_the_unused_head(tmp_path):
    """Lightning's strategy="ddp" starts rank 1 by running the script again (subprocess.Popen):
    that run is recorded too, and each rank names the head its branch skips."""
    if run_suite.missing_requirements(Path("lightning_trainer")):
        pytest.skip("needs lightning (pip install -e .[realworld])")
    import json
    import os
    import subprocess

    script = BUGGY / "lightning_ddp_unused.py"
    env = {**os.environ, "PYTHONPATH": str(run_suite.SCRIPTS_DIR), "COLUMNS": "120"}
    command = [sys.executable, "-m", "gradscope", "run", "--json", "report.json", str(script)]
    run = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
                         stdin=subprocess.DEVNULL)
    assert run.returncode == 1, run.stderr[-3000:]
    for rank in (0, 1):
        report = json.loads((tmp_path / f"report.rank{rank}.json").read_text())
        (finding,) = report["findings"]
        assert finding["rule"] == "ddp-unused-parameters"
        assert finding["details"]["unused_parameters"] == ["aux_head.weight", "aux_head.bias"]
        assert [(loc["path"], loc["line"], loc["role"]) for loc in finding["locations"]][:4] == [
            (str(script), 37, "fix"), (str(script), 26, "fix"),  # Trainer(strategy=...), the branch
            (str(script), 27, "skipped"), (str(script), 26, "condition")]
        assert "ddp_find_unused_parameters_true" in finding["fix"]
        assert f"[rank{rank}]: ╭─ 1. DDP: parameters that got no gradient" in run.stderr
    assert not (tmp_path / "report.json").exists()


def test_lightning_evaluation_under_inference_mode_names_the_trainer_option(tmp_path):
    """trainer.validate() runs the first forward under torch.inference_mode() (Lightning's default):
    the table the module caches then is an inference tensor, and training on it raises. The fix
    sites: the Trainer(...) call (inference_mode=False) and the line that caches the table."""
    if run_suite.missing_requirements(Path("lightning_trainer")):
        pytest.skip("needs lightning (pip install -e .[realworld])")
    import json
    import os
    import subprocess

    script = BUGGY / "lightning_inference_mode_cache.py"
    env = {**os.environ, "PYTHONPATH": str(run_suite.SCRIPTS_DIR), "COLUMNS": "120"}
    command = [sys.executable, "-m", "gradscope", "run", "--json", "report.json", str(script)]
    run = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
                         stdin=subprocess.DEVNULL)
    assert run.returncode == 1, run.stderr[-3000:]
    (finding,) = json.loads((tmp_path / "report.json").read_text())["findings"]
    assert finding["rule"] == "inference-tensor-in-autograd"
    assert [(loc["path"], loc["line"], loc["role"]) for loc in finding["locations"]] == [
        (str(script), 38, "fix"), (str(script), 20, "fix"), (str(script), 20, "inference"),
        (str(script), 40, "mode"), (str(script), 21, "failed")]
    assert "inference_mode=False" in finding["fix"]
