"""The CI gate without torch: configuration, suppressions, severities, exit codes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gradscope.gate import config
from gradscope import gate
from gradscope.trace.findings import Finding, Location
from gradscope.trace.locations import Site
from gradscope.rules.catalog import CATALOG
from gradscope.trace.model import Node, Trace

RULES_DIR = Path(gate.__file__).parent.parent / "rules"


def finding(rule="inplace-hazard", severity="error", path="/p/train.py", line=8):
    return Finding(rule, severity, "title", "explanation", "fix", [Location(path, line, "modified")])


def lines(text):
    table = dict(enumerate(text.splitlines(), 1))
    return lambda path, line: table.get(line, "")


def test_config_parses_and_rejects():
    table = {"fail-on": "warning", "ignore": ["graph-kept-alive"], "include": ["src/**"],
             "severity": {"grad-not-zeroed": "error", "inplace-hazard": "off"}}
    parsed = config.parse(table, root="/p")
    assert parsed.fail_on == "warning" and parsed.ignore == {"graph-kept-alive"}
    assert parsed.severity_of("grad-not-zeroed", "warning") == "error"
    assert parsed.severity_of("inplace-hazard", "error") is None
    assert parsed.severity_of("graph-kept-alive", "warning") is None
    for bad, message in [({"ignore": "x"}, "list of strings"), ({"ignore": ["nope"]}, "unknown rule 'nope'"),
                         ({"severity": {"inplace-hazard": "loud"}}, "severity of inplace-hazard"),
                         ({"colour": 1}, "unknown key 'colour'"), ({"fail-on": "info"}, "fail-on must be")]:
        with pytest.raises(config.ConfigError, match=re.escape(message)):
            config.parse(bad, root="/p")


@pytest.mark.parametrize("pattern, path, matches", [
    ("src/**", "/p/src/a/b.py", True), ("src/**", "/p/srcx/a.py", False), ("src", "/p/src/a.py", True),
    ("*.py", "/p/train.py", True), ("*.py", "/p/src/train.py", False), ("**/test_*.py", "/p/a/b/test_x.py", True),
    ("**/test_*.py", "/p/test_x.py", True), ("src/*.py", "/p/src/a/b.py", False),
])
def test_path_patterns(pattern, path, matches):
    assert config.parse({"include": [pattern]}, root="/p").in_scope(path) is matches


def test_outside_the_project_is_out_of_scope_only_with_include():
    assert config.Config(root="/p").in_scope("/elsewhere/x.py")
    assert not config.Config(root="/p", include=("**",)).in_scope("/elsewhere/x.py")


def test_severity_threshold_and_exit_codes():
    cfg = config.Config(root="/p")
    warning = finding("grad-not-zeroed", "warning")
    verdict = gate.judge([warning], cfg, read_line=lines(""))
    assert verdict.failing == [] and verdict.exit_code(program_failed=False) == gate.PASSED
    assert verdict.exit_code(program_failed=True) == gate.PROGRAM_FAILED
    verdict = gate.judge([warning], cfg, read_line=lines(""), fail_on="warning")
    assert verdict.exit_code(program_failed=True) == gate.FAILED
    promoted = gate.judge([warning], config.Config(root="/p", severity={"grad-not-zeroed": "error"}), read_line=lines(""))
    assert [f.severity for f in promoted.failing] == ["error"] and warning.severity == "warning"


def test_suppressions_bare_and_by_rule():
    cfg = config.Config(root="/p")
    text = "\n" * 7 + "x.mul_(2)  # gradscope: ignore[graph-kept-alive, inplace-hazard]\n"
    verdict = gate.judge([finding(), finding("grad-not-zeroed", "warning")], cfg, read_line=lines(text))
    assert [f.rule for f in verdict.reported] == ["grad-not-zeroed"] and len(verdict.suppressed) == 1
    bare = gate.judge([finding()], cfg, read_line=lines("\n" * 7 + "x.mul_(2)  #gradscope:ignore\n"))
    assert bare.reported == [] and "1 suppressed" in bare.summary(False)


def test_unused_suppressions_only_on_lines_that_ran(tmp_path):
    source = tmp_path / "train.py"
    source.write_text("a = 1  # gradscope: ignore[inplace-hazard, no-such-rule]\n"
                      "b = 2  # gradscope: ignore\n"
                      "s = '# gradscope: ignore'\n")
    path = str(source)
    trace = Trace(argv=["train.py"])
    for nid, line in enumerate([1, 3], 1):
        trace.nodes[nid] = Node(nid, "MulBackward0", "mul", Site(path, line), seq=nid, backwards_before=0)
    verdict = gate.judge([finding(path=path, line=1)], config.Config(root=str(tmp_path)), trace)
    (unused,) = verdict.reported  # line 2 never ran; line 3's is a string, not a comment
    assert (unused.rule, unused.locations[0].line, unused.details["rules"]) == (
        "unused-suppression", 1, ["no-such-rule"])
    assert "no such rule" in unused.explanation
    assert gate.judge([], config.Config(root=str(tmp_path)), trace, report_unused=False).reported == []


def test_scope_drops_findings_outside_it():
    cfg = config.parse({"exclude": ["vendor/**"]}, root="/p")
    verdict = gate.judge([finding(path="/p/vendor/x.py"), finding(path="/p/train.py")], cfg, read_line=lines(""))
    assert [f.locations[0].path for f in verdict.reported] == ["/p/train.py"]


def test_catalog_names_every_rule_the_rules_emit():
    not_rules = {"backward-errors", "forward-errors", "library-errors", "gradient-hazards", "grad-flow",  # groups
                 "cut-input", "no-grad-block", "non-leaf", "requires-grad",  # location roles
                 "never-graded", "not-in-optimizer", "not-zeroed",  # gradient hazard kinds
                 "optimizer-without-gradients",  # a group (it emits parameter-without-gradient)
                 "vanishing-ratio", "vanishing-drop", "exploding-norm", "exploding-growth",
                 "dead-fraction"}  # grad-flow thresholds
    emitted = set()
    for source in RULES_DIR.glob("*.py"):
        if source.name != "catalog.py":
            emitted |= set(re.findall(r'"([a-z][a-z0-9]*(?:-[a-z0-9]+)+)"', source.read_text()))
    assert emitted - not_rules == set(CATALOG) - {gate.UNUSED}


def test_expect_table_names_tests_and_rules():
    from gradscope.gate.config import ConfigError, parse
    config = parse({"expect": {"tests/*::test_version_*": ["inplace-hazard"]}}, root="/p")
    assert config.expected_rules("tests/test_a.py::test_version_counter") == {"inplace-hazard"}
    assert config.expected_rules("tests/test_a.py::test_other") == set()
    with pytest.raises(ConfigError, match="unknown rule 'inplace-hazrd'"):
        parse({"expect": {"t::x": ["inplace-hazrd"]}}, root="/p")
