"""`gradscope check`, end to end: exit codes, every report format, suppressions, configuration.
(A finding's content, where that is the subject, is recorded in-process: tests/harness.py.)"""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path
from xml.etree import ElementTree

import pytest

from conftest import SAMPLES, run_gradscope
from harness import record

from gradscope.gate import config
from gradscope import gate

HAZARD = "hazard_forward_only_test.py"
SAVED_LINE, MODIFIED_LINE = 7, 8


@pytest.fixture
def project(tmp_path):
    """A project folder with the forward-only hazard sample in it; checks run from there."""
    shutil.copy(SAMPLES / HAZARD, tmp_path / HAZARD)
    return tmp_path


def check(project: Path, *argv: str):
    return run_gradscope("check", *argv, cwd=project)


def edit_line(path: Path, line: int, suffix: str) -> None:
    lines = path.read_text().splitlines()
    lines[line - 1] = lines[line - 1].split("  #")[0] + suffix
    path.write_text("\n".join(lines) + "\n")


# ---------------------------------------------------------------- formats
def test_github_annotations_are_exact(project):
    result = check(project, "--format", "github", HAZARD)
    assert result.returncode == 1
    program_output, annotation = result.stdout.splitlines()
    assert program_output == "shape ok (2, 5)"
    head, message = annotation.split("::", 2)[1:]
    assert head == ("error file=hazard_forward_only_test.py,line=8,"
                    "title=gradscope inplace-hazard%3A In-place change of a tensor saved for a backward that has not run")
    assert message.startswith("Change this line: changes in place a tensor saved for a backward that has not run yet")
    assert message.split("%0A%0A", 1)[1].startswith(
        "`div_` at hazard_forward_only_test.py:8 changes in place a tensor (float32 [2, 5]) "
        "that `sigmoid` (SigmoidBackward0) at hazard_forward_only_test.py:7 saved")
    assert "%0A%0Asaved: hazard_forward_only_test.py:7%0Amodified: hazard_forward_only_test.py:8%0A%0AFix: " in message
    assert "\n" not in message and "\r" not in message


def test_sarif_has_the_required_fields_and_the_lines(project):
    result = check(project, "--format", "sarif", "-o", "out.sarif", HAZARD)
    assert result.returncode == 1
    assert result.stdout == "shape ok (2, 5)\n"  # the report went to the file
    sarif = json.loads((project / "out.sarif").read_text())
    # Required by the SARIF 2.1.0 schema: version, runs; run.tool.driver.name; result.message.
    assert sarif["version"] == "2.1.0" and sarif["$schema"].endswith("sarif-2.1.0.json")
    (run,) = sarif["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "gradscope" and driver["version"]
    (rule,) = driver["rules"]
    assert rule["id"] == "inplace-hazard"
    assert rule["shortDescription"]["text"] and rule["help"]["text"]
    assert rule["defaultConfiguration"]["level"] == "error"
    (res,) = run["results"]
    assert res["ruleId"] == "inplace-hazard" and res["ruleIndex"] == 0 and res["level"] == "error"
    assert res["message"]["text"].startswith("In-place change of a tensor saved for a backward")
    (where,) = res["locations"]
    physical = where["physicalLocation"]
    assert physical["artifactLocation"] == {"uri": HAZARD, "uriBaseId": "%SRCROOT%"}
    assert physical["region"]["startLine"] == MODIFIED_LINE
    assert physical["region"]["snippet"]["text"].startswith("weights.div_(temperature)")
    assert res["message"]["text"].startswith("In-place change of a tensor saved for a backward that has not run. "
                                             "Change this line: changes in place a tensor saved")
    saved, modified = res["relatedLocations"]
    assert saved["id"] == 1 and saved["physicalLocation"]["region"]["startLine"] == SAVED_LINE
    assert saved["message"]["text"] == "saved: saved for backward"
    assert modified["physicalLocation"]["region"]["startLine"] == MODIFIED_LINE
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == project.resolve().as_uri() + "/"


def test_junit_marks_the_finding_as_a_failure(project):
    result = check(project, "--format", "junit", "-o", "out.xml", HAZARD)
    assert result.returncode == 1
    root = ElementTree.parse(project / "out.xml").getroot()
    assert root.tag == "testsuites" and root.get("failures") == "1"
    (case,) = root.iter("testcase")
    assert case.get("classname") == "gradscope.inplace-hazard"
    assert case.get("file") == HAZARD and case.get("line") == str(MODIFIED_LINE)
    failure = case.find("failure")
    assert failure.get("type") == "inplace-hazard" and "saved: hazard_forward_only_test.py:7" in failure.text


def test_junit_and_json_on_a_clean_program(tmp_path):
    result = run_gradscope("check", "--format", "junit", str(SAMPLES / "clean_training_loop.py"), cwd=tmp_path)
    assert result.returncode == 0
    xml = result.stdout[result.stdout.index("<?xml"):]
    root = ElementTree.fromstring(xml.split("\n", 1)[1])
    assert root.get("failures") == "0" and len(list(root.iter("testcase"))) == 1


def test_text_output_file_lists_findings(project):
    assert check(project, "-o", "report.txt", HAZARD).returncode == 1
    line = (project / "report.txt").read_text().strip()
    assert line.endswith(f"{HAZARD}:8: error: In-place change of a tensor saved for a backward that has not run "
                         "[inplace-hazard]")


# ---------------------------------------------------------------- exit codes
def test_fail_on_and_program_failure_exit_codes(tmp_path):
    warn_only = SAMPLES / "silent_forgot_zero_grad.py"
    assert run_gradscope("check", str(warn_only), cwd=tmp_path).returncode == 0
    assert run_gradscope("check", "--fail-on", "warning", str(warn_only), cwd=tmp_path).returncode == 1

    broken = tmp_path / "broken.py"
    broken.write_text("import torch\nraise ValueError('not autograd')\n")
    result = run_gradscope("check", str(broken), cwd=tmp_path)
    assert result.returncode == 3
    assert "ValueError: not autograd" in result.stderr
    assert "the program itself failed" in result.stderr

    explained = run_gradscope("check", str(SAMPLES / "inplace_plus_equals.py"), cwd=tmp_path)
    assert explained.returncode == 1  # the program failed, and gradscope explains why


@pytest.mark.parametrize("argv, message", [
    (["missing.py"], "can't open file"),
    (["--format", "xml", HAZARD], "unknown format 'xml'"),
    (["--fail-on", "info", HAZARD], "--fail-on must be 'error' or 'warning'"),
    (["--bogus", HAZARD], "No such option"),
    (["syntax.py"], "SyntaxError"),
    (["--config", "nowhere.toml", HAZARD], "cannot read configuration 'nowhere.toml'"),
    (["foreign.json"], "is not a gradscope trace"),
])
def test_bad_input_exits_2_with_one_message(project, argv, message):
    (project / "syntax.py").write_text("def broken(:\n")
    (project / "foreign.json").write_text('{"something": "else"}')
    result = check(project, *argv)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_check_a_saved_trace(project):
    run = run_gradscope("run", "--trace", "hazard.trace.json.gz", HAZARD, cwd=project)
    assert run.returncode == 0
    (project / HAZARD).unlink()  # the trace keeps the lines it names
    result = check(project, "--format", "github", "hazard.trace.json.gz")
    assert result.returncode == 1
    assert result.stdout.startswith("::error file=hazard_forward_only_test.py,line=8,")


# ---------------------------------------------------------------- suppressions and configuration
def test_inline_suppression_silences_the_line(project):
    edit_line(project / HAZARD, MODIFIED_LINE, "  # gradscope: ignore[inplace-hazard]")
    result = check(project, "--format", "json", HAZARD)
    assert result.returncode == 0
    data = json.loads(result.stdout[result.stdout.index("{"):])
    assert data["findings"] == [] and data["check"]["suppressed"] == 1


def test_suppression_for_another_rule_does_not_silence(project):
    edit_line(project / HAZARD, MODIFIED_LINE, "  # gradscope: ignore[graph-kept-alive]")
    result = check(project, "--format", "json", HAZARD)
    assert result.returncode == 1
    data = json.loads(result.stdout[result.stdout.index("{"):])
    rules = sorted(f["rule"] for f in data["findings"])
    assert rules == ["inplace-hazard", "unused-suppression"]


def test_unused_suppression_is_reported(project):
    edit_line(project / HAZARD, 12, "  # gradscope: ignore")  # a line that ran and has no finding
    edit_line(project / HAZARD, MODIFIED_LINE, "  # gradscope: ignore[inplace-hazard]")
    result = check(project, "--fail-on", "warning", "--format", "github", HAZARD)
    assert result.returncode == 1
    (annotation,) = [line for line in result.stdout.splitlines() if line.startswith("::")]
    assert annotation.startswith("::warning file=hazard_forward_only_test.py,line=12,"
                                 "title=gradscope unused-suppression%3A Unused gradscope suppression::")


def test_configuration_ignores_overrides_and_scopes(project):
    pyproject = project / "pyproject.toml"
    pyproject.write_text('[tool.gradscope]\nignore = ["inplace-hazard"]\n')
    assert check(project, HAZARD).returncode == 0

    pyproject.write_text('[tool.gradscope]\n[tool.gradscope.severity]\ninplace-hazard = "warning"\n')
    result = check(project, "--format", "json", HAZARD)
    assert result.returncode == 0
    data = json.loads(result.stdout[result.stdout.index("{"):])
    assert [f["severity"] for f in data["findings"]] == ["warning"]
    assert data["check"]["config"] == str(pyproject)

    pyproject.write_text('[tool.gradscope]\nfail-on = "warning"\n[tool.gradscope.severity]\n'
                         'inplace-hazard = "warning"\n')
    assert check(project, HAZARD).returncode == 1

    pyproject.write_text(f'[tool.gradscope]\nexclude = ["{HAZARD}"]\n')
    assert check(project, HAZARD).returncode == 0
    pyproject.write_text('[tool.gradscope]\ninclude = ["src/**"]\n')
    assert check(project, HAZARD).returncode == 0


def test_configuration_is_found_above_the_working_directory(project):
    (project / "pyproject.toml").write_text('[tool.gradscope]\nignore = ["inplace-hazard"]\n')
    (project / "sub").mkdir()
    assert run_gradscope("check", f"../{HAZARD}", cwd=project / "sub").returncode == 0


@pytest.mark.parametrize("body, message", [
    ('[tool.gradscope]\nignor = ["x"]\n', "unknown key 'ignor'"),
    ('[tool.gradscope]\nignore = ["inplace-hazzard"]\n', "unknown rule 'inplace-hazzard'"),
    ('[tool.gradscope]\nfail-on = "never"\n', "fail-on must be"),
    ('[tool.gradscope]\n[tool.gradscope.severity]\ninplace-hazard = "fatal"\n', "severity of inplace-hazard"),
    ('[tool.gradscope\n', "is not valid TOML"),
])
def test_bad_configuration_exits_2(project, body, message):
    (project / "pyproject.toml").write_text(body)
    result = check(project, HAZARD)
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr
    assert result.stdout == ""  # stopped before running the program


def test_existing_output_is_replaced_whole(project):
    (project / "out.sarif").write_text("old report")
    assert check(project, "--format", "sarif", "-o", "out.sarif", HAZARD).returncode == 1
    assert json.loads((project / "out.sarif").read_text())["version"] == "2.1.0"
    assert sorted(p.name for p in project.iterdir() if "tmp" in p.name) == []


def test_help_lists_the_exit_codes():
    result = run_gradscope("check", "--help")
    assert result.returncode == 0
    text = textwrap.dedent(result.stdout)
    assert "--format" in text and "--fail-on" in text and "Exit codes" in text


def test_optimizer_step_under_a_live_evaluation_graph(tmp_path):
    """What `gradscope check` judges, recorded in-process: the gate on the recorded findings. An
    evaluation graph that saved the weights and is built on after the step could still be
    backpropagated: a hazard. One that nothing uses after the step is not (issue 29)."""
    script = tmp_path / "validate.py"
    script.write_text(textwrap.dedent('''\
        import torch
        import torch.nn as nn

        model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        x = torch.randn(8, 4)
        val = model(x).sigmoid()  # evaluation without no_grad: its graph saved the weights
        model(x).pow(2).mean().backward()
        opt.step()
        score = (val * 2).mean()  # built on after the step: a backward through it would fail
        print(val.shape)
    '''))
    run = record(script, cwd=tmp_path)
    assert run.outcome.exit_status == 0
    verdict = gate.judge(run.findings, config.Config(root=str(tmp_path)), run.trace)  # no configuration
    assert verdict.exit_code(program_failed=False) == 1
    (finding,) = verdict.reported
    assert finding.rule == "inplace-hazard"
    assert [(loc.line, loc.role) for loc in finding.locations] == [(9, "fix"), (7, "saved"), (9, "modified")]
    assert "`SGD.step`" in finding.explanation and "parameter `2.weight`" in finding.explanation
    assert "torch.no_grad()" in finding.fix

    script.write_text(script.read_text().replace("score = (val * 2).mean()", "pass"))
    quiet = record(script, cwd=tmp_path)
    assert quiet.outcome.exit_status == 0 and quiet.findings == []
