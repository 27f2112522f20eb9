"""A pytest plugin for run_autograd_tests.py: streams each test's outcome to a JSON-lines file.

Loaded with `-p outcome_log` (this folder on PYTHONPATH), identically in every mode the harness
compares, so it changes nothing between them. Each line is written and flushed as it happens, so
a run that has to be killed (a test that deadlocks) still leaves what it did, and the last
"start" line without a matching "finish" names the test that hung.

Options:
  --outcome-log PATH      where to write the lines
  --deselect-from PATH    test ids to deselect, one a line (`#` comments); an id matches a test
                          whose node id equals it, ends with "/" + it, or starts with it + "::"
                          or "[" (a class, or every parametrization).
"""

from __future__ import annotations

import json
import os
import time

import pytest

_LOG = pytest.StashKey[object]()


def pytest_addoption(parser) -> None:
    group = parser.getgroup("outcome_log", "run_autograd_tests.py outcome log")
    group.addoption("--outcome-log", default=None, metavar="PATH",
                    help="Write one JSON line per test event to PATH.")
    group.addoption("--deselect-from", default=None, metavar="PATH",
                    help="Deselect the test ids listed in PATH (one a line).")


class _Log:
    def __init__(self, path: str):
        self._fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)

    def write(self, **event) -> None:
        event["t"] = time.time()
        os.write(self._fd, (json.dumps(event) + "\n").encode())

    def close(self) -> None:
        os.close(self._fd)


def pytest_configure(config) -> None:
    path = config.getoption("outcome_log")
    if path:
        log = _Log(path)
        config.stash[_LOG] = log
        log.write(event="configure", pid=os.getpid())


def _log(config):
    return config.stash.get(_LOG, None)


def read_ids(path: str) -> list[str]:
    ids = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            line = line.split("#", 1)[0].strip()
            if line:
                ids.append(line)
    return ids


def matches(nodeid: str, entry: str) -> bool:
    for candidate in (nodeid, nodeid.split("/")[-1]):
        if candidate == entry or candidate.startswith(entry + "::") or candidate.startswith(entry + "["):
            return True
    return nodeid.endswith("/" + entry)


def pytest_collection_modifyitems(session, config, items) -> None:
    path = config.getoption("deselect_from")
    if not path:
        return
    entries = read_ids(path)
    keep, drop = [], []
    for item in items:
        (drop if any(matches(item.nodeid, entry) for entry in entries) else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def pytest_collection_finish(session) -> None:
    log = _log(session.config)
    if log:
        log.write(event="collected", count=len(session.items),
                  nodeids=[item.nodeid for item in session.items])


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item, nextitem):
    log = _log(item.config)
    if log:
        log.write(event="start", nodeid=item.nodeid)


def _crash(report):
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is None:
        return None
    return {"path": crash.path, "line": crash.lineno, "message": crash.message}


def pytest_runtest_logreport(report) -> None:
    log = _SESSION_LOG[0] if _SESSION_LOG else None  # reports carry no config
    if log is None:
        return
    event = {"event": "report", "nodeid": report.nodeid, "when": report.when,
             "outcome": report.outcome, "duration": report.duration}
    if hasattr(report, "wasxfail"):
        event["wasxfail"] = str(report.wasxfail)
    if report.outcome != "passed" and report.longrepr is not None:
        if report.outcome == "skipped" and isinstance(report.longrepr, tuple):
            event["skip_reason"] = str(report.longrepr[2])
        else:
            text = report.longreprtext
            event["longrepr"] = text if len(text) <= 20000 else text[:4000] + "\n[...]\n" + text[-16000:]
            event["crash"] = _crash(report)
    props = [(key, value) for key, value in report.user_properties if key == "gradscope"]
    if props:
        event["gradscope"] = props[0][1]
    log.write(**event)


_SESSION_LOG: list = []


def pytest_sessionstart(session) -> None:
    log = _log(session.config)
    if log:
        _SESSION_LOG.append(log)
        log.write(event="sessionstart")


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus) -> None:
    log = _log(session.config)
    if log:
        log.write(event="sessionfinish", exitstatus=int(exitstatus))


def pytest_unconfigure(config) -> None:
    log = _log(config)
    if log:
        log.write(event="unconfigure")
        log.close()
        _SESSION_LOG.clear()
