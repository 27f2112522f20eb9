"""The pytest plugin: run tests under gradscope's recorder and fail those that show autograd hazards.

Registered through the `pytest11` entry point, and inert unless switched on, for every test by
`pytest --gradscope` or `gradscope = true` in the ini file, for one test by
`@pytest.mark.gradscope` (optionally `@pytest.mark.gradscope(fail_on="warning")`).

A hazard a test shows on purpose (a test of version counters) is documented, not hidden: with
`@pytest.mark.gradscope(expect=["inplace-hazard"])` or under `[tool.gradscope.expect]`; such
findings are listed as expected and do not fail the test. An autograd error the test raised and
caught itself (`pytest.raises`) never fails it either.

A recorded test that passes but shows findings at or above the threshold (from
`--gradscope-fail-on`, else `[tool.gradscope]`, else "error") fails with gradscope's explanation
as its report. A test that fails by itself gets the explanation as an extra report section.
A summary of every recorded test with findings ends the session (also under pytest-xdist:
the findings travel with each test's report).

Importing this module must not import torch (it is loaded by every pytest run in an
environment where gradscope is installed); the recorder is imported by the first recorded test.
Unused `# gradscope: ignore` comments are not reported here: one test runs only part of the code.
"""

from __future__ import annotations

import io
import sys

import pytest

_ENABLED_OPTION = "gradscope"
_PROPERTY = "gradscope"  # user_properties key: the findings, as plain data (survives xdist)


class GradscopeFailure(Exception):
    """A test passed, but gradscope found autograd problems in what it ran."""


def pytest_addoption(parser) -> None:
    group = parser.getgroup("gradscope", "autograd hazards (gradscope)")
    group.addoption("--gradscope", action="store_true", dest=_ENABLED_OPTION,
                    help="Record every test with gradscope; fail tests that show autograd hazards.")
    group.addoption("--gradscope-fail-on", choices=("error", "warning"), default=None,
                    help="Fail a test on findings of this severity or worse [default: from "
                         "[tool.gradscope], else error].")
    parser.addini("gradscope", type="bool", default=False,
                  help="Record every test with gradscope, as --gradscope does.")


def pytest_configure(config) -> None:
    config.addinivalue_line(
        "markers", "gradscope(fail_on=None, expect=()): record this test with gradscope and fail it on autograd "
                   "hazards, except the rules in `expect`, which it shows on purpose.")
    config.stash[_STATE] = _State(config)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    state = item.config.stash[_STATE]
    marker = item.get_closest_marker("gradscope")
    if not (state.everywhere or marker) or "torch" not in sys.modules:
        return (yield)
    fail_on = (marker.kwargs.get("fail_on") if marker else None) or state.fail_on
    expect = set(marker.kwargs.get("expect", ())) if marker else set()
    recording = state.start(item)
    try:
        result = yield
    except BaseException as exc:
        state.finish(item, recording, exc, fail_on, expect)
        raise
    verdict = state.finish(item, recording, None, fail_on, expect)
    if verdict is not None and verdict.failing:
        raise GradscopeFailure(_describe(verdict))
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if call.when != "call":
        return report
    explanation = item.stash.get(_EXPLANATION, None)
    if call.excinfo is not None and isinstance(call.excinfo.value, GradscopeFailure):
        report.longrepr = "gradscope: autograd hazards in this test\n\n" + str(call.excinfo.value)
    elif explanation:
        report.sections.append(("gradscope", explanation))
    return report


def pytest_runtest_logreport(report) -> None:
    if report.when != "call":
        return
    for key, value in report.user_properties:
        if key == _PROPERTY and value:
            _SUMMARY.append((report.nodeid, report.failed, value))


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    if not _SUMMARY:
        return
    terminalreporter.section("gradscope")
    for nodeid, failed, findings in _SUMMARY:
        terminalreporter.write_line(f"{nodeid}: {len(findings)} finding{'s' * (len(findings) != 1)}"
                                    + (" (test failed)" if failed else ""))
        for finding in findings:
            terminalreporter.write_line(f"    {finding['severity']} {finding['rule']} at {finding['where']}: "
                                        f"{finding['title']}")
    _SUMMARY.clear()


# ---------------------------------------------------------------- state of one pytest session
_SUMMARY: list = []  # (nodeid, failed, [finding summaries]) for the terminal summary


class _State:
    def __init__(self, config):
        self.pytest_config = config
        self.everywhere = bool(config.getoption(_ENABLED_OPTION) or config.getini("gradscope"))
        self._fail_on = config.getoption("gradscope_fail_on")
        self._config = None
        if self.everywhere:
            self.gate_config  # a broken [tool.gradscope] stops the session before any test runs

    @property
    def gate_config(self):
        if self._config is None:
            from .gate import config as config_module

            try:
                self._config = config_module.load(start=str(self.pytest_config.rootpath))
            except config_module.ConfigError as exc:
                raise pytest.UsageError(f"gradscope: {exc}") from None
        return self._config

    @property
    def fail_on(self) -> str:
        return self._fail_on or self.gate_config.fail_on

    def start(self, item):
        from .api import Recording

        recording = Recording(argv=[item.nodeid])
        recording.start()
        return recording

    def finish(self, item, recording, exc, fail_on, expect=frozenset()):
        """Stop recording; judge what the test did. Never raises into the test's outcome."""
        try:
            recording.stop(exc)
            from . import gate

            trace = recording.trace
            verdict = gate.judge(recording.findings, self.gate_config, trace, fail_on=fail_on, report_unused=False)
            expected = set(expect) | self.gate_config.expected_rules(item.nodeid)
            verdict.failing = [f for f in verdict.failing if f.rule not in expected]
        except pytest.UsageError:
            raise
        except Exception as error:  # gradscope's own failure must not change the test's result
            item.user_properties.append((_PROPERTY, [{
                "severity": "internal", "rule": "gradscope-internal-error", "where": "-",
                "title": f"{type(error).__name__}: {error}"}]))
            return None
        summaries = [_summary(f, f.rule in expected) for f in verdict.reported]
        summaries += [{"severity": "internal", "rule": "gradscope-internal-error", "where": "-", "title": error}
                      for error in trace.internal_errors]
        if verdict.reported:
            item.stash[_EXPLANATION] = _describe(verdict)
        if summaries:
            item.user_properties.append((_PROPERTY, summaries))
        return verdict


def _describe(verdict) -> str:
    from .render import console

    stream = io.StringIO()
    console.render(verdict.reported, [], stream, width=100)
    return stream.getvalue().strip("\n")


def _summary(finding, expected: bool = False) -> dict:
    import os

    where = finding.primary
    place = f"{os.path.relpath(where.path)}:{where.line}" if where else "-"
    title = finding.title + (" (expected)" if expected else "")
    return {"severity": finding.severity, "rule": finding.rule, "where": place, "title": title}


_STATE = pytest.StashKey[_State]()
_EXPLANATION = pytest.StashKey[str]()
