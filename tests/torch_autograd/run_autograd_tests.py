#!/usr/bin/env python
"""Run PyTorch's own autograd tests plainly and under gradscope, and compare test by test.

The tests are PyTorch's (unmodified, in upstream/: see upstream/README.md). Three modes run the
same pytest command line, serially, from upstream/ (PyTorch runs its tests from its test/ folder):

  python  python -m pytest FILES ...                            (the reference)
  run     python -m gradscope run --json R -m pytest FILES ...  (whole session recorded)
  plugin  python -m pytest --gradscope FILES ...                (each test recorded; findings fail it)

A test that passes under `python` but not under `run` or `plugin` is a regression: it is listed
with its failure message. The script exits 0 only when there is none.

Hangs. gradscope has deadlocked on some tests in a way that neither pytest-timeout (the test
holds the GIL) nor SIGTERM ends. So each run is watched from outside: a small plugin
(outcome_log.py) streams every test's start and outcome to a file; when nothing new arrives for
--stall-limit seconds, or the run passes --run-limit, the whole process group gets SIGKILL and
the test that had started but not finished is reported as hung. The run then goes on from where
it was (a new pytest process, with the hung test and those already done deselected) unless
--no-resume. --deselect-file skips known-hanging tests from the start, in every mode.

Nothing is fetched at run time. Needs pytest-timeout and expecttest in the environment (see
upstream/README.md).

Every mode also gets `-p no:cacheprovider -p no:logging -v --timeout=N --timeout-method=M
--junitxml=... -p outcome_log`. Not -n (xdist): `gradscope run` records only its own process, so
under xdist it would record nothing (checked: 0 backward calls recorded with -n 2).

Examples:
  .venv/bin/python tests/torch_autograd/run_autograd_tests.py --json autograd-report.json
  .venv/bin/python tests/torch_autograd/run_autograd_tests.py --recheck \\
      --deselect-file tests/torch_autograd/known_hangs.txt --work-dir /tmp/autograd-runs --json out.json
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
UPSTREAM = HERE / "upstream"
ROOT = HERE.parent.parent
DEFAULT_FILES = ["test_autograd.py", "autograd/test_functional.py", "autograd/test_complex.py"]
MODES = ("python", "run", "plugin")
OUTCOME_ORDER = ("passed", "failed", "error", "skipped", "xfailed", "xpassed", "timeout", "hung",
                 "not-run", "deselected")

sys.path.insert(0, str(HERE))
from outcome_log import matches, read_ids  # noqa: E402


# ------------------------------------------------------------------ command lines
def pytest_args(files, timeout, method, junit, log, deselect, extra):
    # -p no:logging: pytest's log capture cannot format the records torch's LoggingTensor emits, so
    # with it ~106 `*_logging_tensor` tests fail under plain python when test_autograd.py runs whole.
    args = ["-p", "no:cacheprovider", "-p", "no:logging", "-p", "outcome_log", "-v", f"--timeout={timeout}",
            f"--timeout-method={method}", f"--junitxml={junit}", f"--outcome-log={log}"]
    if deselect:
        args.append(f"--deselect-from={deselect}")
    return [*files, *args, *extra]


def command(mode, python, args, report):
    if mode == "python":
        return [python, "-m", "pytest", *args]
    if mode == "run":
        return [python, "-m", "gradscope", "run", "--json", str(report), "-m", "pytest", *args]
    if mode == "plugin":
        return [python, "-m", "pytest", "--gradscope", *args]
    raise ValueError(mode)


GRADSCOPE_SRC: list[str] = []  # --gradscope-src: a copy of gradscope to import instead of the installed one


def child_env():
    env = dict(os.environ)
    env["GRADSCOPE_UPSTREAM_TESTS"] = "1"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [*GRADSCOPE_SRC, str(HERE), env.get("PYTHONPATH")]))
    env["PYTHONUNBUFFERED"] = "1"
    # PyTorch's test utilities change behaviour in CI (reruns, slow-test imports): keep them plain.
    for name in ("CI", "PYTORCH_TEST_WITH_DYNAMO", "PYTORCH_TEST_WITH_INDUCTOR", "PYTORCH_TEST_WITH_SLOW",
                 "PYTEST_ADDOPTS"):
        env.pop(name, None)
    return env


# ------------------------------------------------------------------ one pytest process, watched
def read_events(path: Path) -> list[dict]:
    if not path.exists():
        return []
    events = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            events.append(json.loads(line))
        except json.JSONDecodeError:
            pass  # a line cut by SIGKILL
    return events


def watch(cmd, cwd, log_path, events_path, limits, deadline):
    """Run cmd in its own process group; SIGKILL the group when it stalls or runs out of time.

    Returns (returncode or None, wall seconds, kill reason or None, seconds lost to the stall).
    """
    start = time.monotonic()
    with open(log_path, "wb") as out:
        out.write(("$ cd " + str(cwd) + " && " + " ".join(cmd) + "\n").encode())
        out.flush()
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                env=child_env(), start_new_session=True)
        size, last_change, phase, reason = -1, start, "startup", None
        while True:
            try:
                returncode = proc.wait(timeout=1.0)
                break
            except subprocess.TimeoutExpired:
                pass
            now = time.monotonic()
            new_size = events_path.stat().st_size if events_path.exists() else 0
            if new_size != size:
                size, last_change = new_size, now
                tail = _last_event(events_path)
                if tail == "sessionfinish" or tail == "unconfigure":
                    phase = "finishing"
                elif tail in ("collected", "start", "report"):
                    phase = "running"
            limit = limits[phase]
            if now >= deadline:
                reason = "run-limit"
            elif now - last_change > limit:
                reason = f"stalled {int(now - last_change)} s while {phase}"
            if reason:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                returncode = proc.wait()
                return None, time.monotonic() - start, reason, now - last_change
    # the group may have left children (a test's subprocess): end them too
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    return returncode, time.monotonic() - start, None, 0.0


def _last_event(path: Path) -> str | None:
    try:
        with open(path, "rb") as handle:
            handle.seek(max(0, path.stat().st_size - 65536))
            lines = handle.read().splitlines()
    except OSError:
        return None
    for line in reversed(lines):
        try:
            return json.loads(line).get("event")
        except (json.JSONDecodeError, UnicodeDecodeError):
            continue
    return None


# ------------------------------------------------------------------ outcomes from the event log
def outcomes_from(events: list[dict]) -> tuple[dict, list[str], str | None, dict]:
    """Per test: outcome record; the ids collected; the test started but never finished."""
    reports = collections.defaultdict(list)
    started, finished, collected = [], set(), []
    for event in events:
        kind = event.get("event")
        if kind == "collected":
            collected = event.get("nodeids", [])
        elif kind == "start":
            started.append(event["nodeid"])
        elif kind == "report":
            reports[event["nodeid"]].append(event)
            if event["when"] == "teardown":
                finished.add(event["nodeid"])
    results = {nodeid: summarize(phases) for nodeid, phases in reports.items()}
    running = next((nodeid for nodeid in reversed(started) if nodeid not in finished), None)
    meta = {"collected": len(collected)}
    return results, collected, running, meta


def summarize(phases: list[dict]) -> dict:
    duration = sum(p.get("duration", 0.0) for p in phases)
    by_when = {p["when"]: p for p in phases}
    gradscope = next((p["gradscope"] for p in phases if p.get("gradscope")), None)
    failed = [p for p in phases if p["outcome"] == "failed"]
    record = {"duration": round(duration, 3)}
    if gradscope:
        record["gradscope"] = gradscope
    if failed:
        first = failed[0]
        text = first.get("longrepr", "")
        crash = first.get("crash") or {}
        if "Timeout" in (crash.get("message") or "") and "pytest-timeout" in text + (crash.get("message") or ""):
            outcome = "timeout"
        elif first["when"] == "call":
            outcome = "xpassed" if "wasxfail" in first else "failed"
        else:
            outcome = "error"
        record.update(outcome=outcome, when=first["when"], message=message_of(text, crash),
                      longrepr=text[-6000:], cause=cause_of(text, crash))
        return record
    call = by_when.get("call")
    setup = by_when.get("setup")
    if call is not None and call["outcome"] == "skipped" and "wasxfail" in call:
        record["outcome"] = "xfailed"
    elif (call and call["outcome"] == "skipped") or (setup and setup["outcome"] == "skipped"):
        skipped = call if call and call["outcome"] == "skipped" else setup
        record.update(outcome="skipped", reason=skipped.get("skip_reason", ""))
    elif call is not None and "wasxfail" in call:
        record["outcome"] = "xpassed"
    elif call is not None:
        record["outcome"] = "passed"
    else:
        record["outcome"] = "not-run"
    return record


def message_of(text: str, crash: dict) -> str:
    if text.startswith("gradscope: autograd hazards"):
        return "gradscope findings failed the test (see findings)"
    lines = [line[1:].strip() for line in text.splitlines() if line.startswith("E ")]
    lines = [line for line in lines if line]
    where = f" [{Path(crash['path']).name}:{crash['line']}]" if crash.get("path") else ""
    if lines:
        return "\n".join(lines[:8])[:1500] + where
    if crash.get("message"):
        return crash["message"][:1500] + where
    return "\n".join(text.strip().splitlines()[-5:])[:1500]


def cause_of(text: str, crash: dict) -> str:
    if text.startswith("gradscope: autograd hazards"):
        return "plugin: findings failed a passing test"
    if "/gradscope/" in (crash.get("path") or ""):
        return "exception raised in gradscope code"
    if "/gradscope/" in text:
        return "test failed, gradscope frames on the stack"
    return "test failed, no gradscope frame in the traceback"


# ------------------------------------------------------------------ one mode, resumed after hangs
def run_mode(mode, opts, work: Path, base_deselect: list[str], only: list[str] | None = None, tag=""):
    name = f"{mode}{tag}"
    results: dict[str, dict] = {}
    hung: list[dict] = []
    segments = []
    collected: list[str] = []
    done: list[str] = []
    deadline = time.monotonic() + opts.run_limit
    limits = {"startup": opts.startup_limit, "running": opts.stall_limit, "finishing": opts.finish_limit}
    for index in range(opts.max_resumes + 1):
        stem = work / f"{name}.{index}"
        events_path = Path(f"{stem}.events.jsonl")
        events_path.unlink(missing_ok=True)
        deselect_path = Path(f"{stem}.deselect.txt")
        skip = base_deselect + [h["id"] for h in hung] + done
        deselect_path.write_text("".join(f"{entry}\n" for entry in skip))
        files = [str(UPSTREAM / f) for f in opts.files] if only is None else [str(ROOT / i) for i in only]
        args = pytest_args(files, opts.timeout, opts.timeout_method, f"{stem}.junit.xml", events_path,
                           deselect_path if skip else None, opts.pytest_args)
        report = Path(f"{stem}.gradscope.json")
        report.unlink(missing_ok=True)
        cmd = command(mode, opts.python, args, report)
        print(f"[{name}] segment {index}: {' '.join(cmd)}", flush=True)
        load_before = os.getloadavg()
        returncode, wall, reason, lost = watch(cmd, UPSTREAM, Path(f"{stem}.log"), events_path, limits, deadline)
        load_after = os.getloadavg()
        events = read_events(events_path)
        seg_results, seg_collected, running, meta = outcomes_from(events)
        if index == 0:
            collected = seg_collected
        results.update(seg_results)
        done.extend(nodeid for nodeid in seg_results if nodeid not in done)
        segment = {"command": cmd, "cwd": str(UPSTREAM), "exit_status": returncode, "wall_s": round(wall, 1),
                   "killed": reason, "stall_lost_s": round(lost, 1), "tests_reported": len(seg_results),
                   "loadavg_1_5_15_before": [round(x, 2) for x in load_before],
                   "loadavg_1_5_15_after": [round(x, 2) for x in load_after],
                   "log": f"{stem}.log", "junit": f"{stem}.junit.xml", "events": str(events_path),
                   **meta}
        if mode == "run":
            segment["report"] = str(report)
            if report.exists():
                try:
                    data = json.loads(report.read_text())
                    segment["gradscope_report"] = {
                        "exit_status": data.get("exit_status"), "error": data.get("error"),
                        "internal_errors": data.get("internal_errors", []), "notes": data.get("notes", []),
                        "summary": data.get("summary"),
                        "findings": [{"rule": f["rule"], "severity": f["severity"], "title": f["title"],
                                      "where": _where(f)} for f in data.get("findings", [])]}
                except (OSError, json.JSONDecodeError) as error:
                    segment["gradscope_report"] = {"unreadable": str(error)}
            else:
                segment["gradscope_report"] = None
        segments.append(segment)
        print(f"[{name}] segment {index}: exit {returncode}, {wall:.0f} s, {len(seg_results)} tests"
              + (f", KILLED ({reason}) while running {running}" if reason else ""), flush=True)
        if reason is None:
            break
        if running is None or reason == "run-limit" or opts.no_resume:
            if running is not None:
                hung.append({"id": running, "reason": reason, "segment": index})
            break
        hung.append({"id": running, "reason": reason, "segment": index})
        results.pop(running, None)
        done = [nodeid for nodeid in done if nodeid != running]
        if collected and set(collected) <= set(done) | {h["id"] for h in hung}:
            break  # nothing left to run
    for item in hung:
        results[item["id"]] = {"outcome": "hung", "message": f"killed with SIGKILL: {item['reason']}",
                               "cause": "hang (process killed)"}
    expected = collected if only is None else collected or only
    for nodeid in expected:
        results.setdefault(nodeid, {"outcome": "not-run"})
    counts = collections.Counter(r["outcome"] for r in results.values())
    return {
        "mode": mode,
        "wall_s": round(sum(s["wall_s"] for s in segments), 1),
        "stall_lost_s": round(sum(s["stall_lost_s"] for s in segments), 1),
        "test_time_s": round(sum(r.get("duration", 0.0) for r in results.values()), 1),
        "counts": {k: counts[k] for k in OUTCOME_ORDER if counts.get(k)},
        "hung": hung,
        "segments": segments,
        "results": results,
    }


def _where(finding):
    for loc in finding.get("locations", []):
        return f"{os.path.relpath(loc['path'], ROOT) if os.path.isabs(loc['path']) else loc['path']}:{loc['line']}"
    return "-"


# ------------------------------------------------------------------ comparison and report
def compare(reference: dict, other: dict) -> tuple[list[dict], list[dict]]:
    regressions, better = [], []
    for nodeid, ref in sorted(reference["results"].items()):
        got = other["results"].get(nodeid, {"outcome": "not-run"})
        if ref["outcome"] == "passed" and got["outcome"] not in ("passed", "deselected"):
            entry = {"id": nodeid, "outcome": got["outcome"], "cause": got.get("cause", got["outcome"]),
                     "message": got.get("message", "")}
            if got.get("gradscope"):
                entry["findings"] = got["gradscope"]
            if got.get("longrepr"):
                entry["longrepr_tail"] = got["longrepr"][-3000:]
            regressions.append(entry)
        elif ref["outcome"] in ("failed", "error", "timeout") and got["outcome"] == "passed":
            better.append({"id": nodeid, "python": ref["outcome"], "message_under_python": ref.get("message", "")})
    return regressions, better


def internal_errors(mode_result: dict) -> list[str]:
    errors = []
    for segment in mode_result["segments"]:
        report = segment.get("gradscope_report") or {}
        errors.extend(report.get("internal_errors", []))
    for nodeid, result in mode_result["results"].items():
        for finding in result.get("gradscope") or []:
            if finding.get("severity") == "internal":
                errors.append(f"{nodeid}: {finding.get('title')}")
    return errors


def summary_text(summary: dict) -> str:
    out = []
    out.append(f"torch {summary['torch']} | tests: {', '.join(summary['files'])} | per-test timeout "
               f"{summary['settings']['timeout']} s ({summary['settings']['timeout_method']})")
    for mode, data in summary["modes"].items():
        counts = ", ".join(f"{k} {v}" for k, v in data["counts"].items())
        ratio = summary["ratios"].get(f"{mode}/python")
        out.append(f"  {mode:7s} wall {data['wall_s']:8.1f} s"
                   + (f"  (x{ratio:.2f} of python)" if ratio else "")
                   + f"  test time {data['test_time_s']:.1f} s  segments {len(data['segments'])}  | {counts}")
        for item in data["hung"]:
            out.append(f"      HUNG: {item['id']} ({item['reason']})")
        timeouts = [i for i, r in data["results"].items() if r["outcome"] == "timeout"]
        for nodeid in timeouts:
            out.append(f"      TIMEOUT (pytest-timeout): {nodeid}")
    for mode, regs in summary["regressions"].items():
        out.append(f"\nRegressions under {mode}: {len(regs)}")
        by_cause = collections.defaultdict(list)
        for reg in regs:
            by_cause[reg["cause"]].append(reg)
        for cause, items in by_cause.items():
            out.append(f"  [{cause}] {len(items)}")
            for reg in items:
                first = (reg["message"] or "").strip().splitlines()
                out.append(f"    {reg['id']}  ({reg['outcome']})")
                if first:
                    out.append(f"        {first[0][:300]}")
                for finding in reg.get("findings", [])[:3]:
                    out.append(f"        finding: {finding.get('severity')} {finding.get('rule')} at "
                               f"{finding.get('where')}: {finding.get('title')}")
    for mode, better in summary["better_than_python"].items():
        if better:
            out.append(f"\nFailing under python but passing under {mode} (flaky?): {len(better)}")
            for item in better:
                out.append(f"    {item['id']}")
    for mode, errors in summary["internal_errors"].items():
        out.append(f"\ngradscope internal errors under {mode}: {len(errors)}")
        for error in errors:
            out.append("    " + str(error).replace("\n", "\n    ")[:2000])
    if summary.get("empty_modes"):
        out.append(f"\nNOT OK: no test ran under {', '.join(summary['empty_modes'])} (see its log in the work dir; "
                   "is `pip install -e .[autograd-tests]` done?)")
    else:
        out.append("\nOK: no regressions" if summary["ok"] else "\nNOT OK: regressions above")
    return "\n".join(out)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--modes", default=",".join(MODES),
                        help="comma-separated, from python,run,plugin [default: all; python always runs]")
    parser.add_argument("--files", nargs="+", default=DEFAULT_FILES, help="test files, relative to upstream/")
    parser.add_argument("--timeout", type=int, default=60, help="pytest-timeout per test, seconds [60]")
    parser.add_argument("--timeout-method", default="signal", choices=("signal", "thread"),
                        help="pytest-timeout method [signal: the test fails and the run goes on]")
    parser.add_argument("--stall-limit", type=int, default=None,
                        help="SIGKILL a run when no test starts or ends for this long [timeout + 90 s]")
    parser.add_argument("--startup-limit", type=int, default=600, help="seconds allowed before the first test")
    parser.add_argument("--finish-limit", type=int, default=1800,
                        help="seconds allowed after the last test (gradscope writes its report then)")
    parser.add_argument("--run-limit", type=int, default=7200, help="wall-clock limit of one mode, all segments")
    parser.add_argument("--no-resume", action="store_true", help="after a hang, do not go on with the rest")
    parser.add_argument("--max-resumes", type=int, default=10)
    parser.add_argument("--deselect-file", help="test ids to skip in every mode, one a line (# comments)")
    parser.add_argument("--recheck", action="store_true",
                        help="re-run each mode's regressions alone, under python and under that mode")
    parser.add_argument("--work-dir", help="logs, junit xml, event logs, gradscope reports [a new temp dir]")
    parser.add_argument("--python", default=sys.executable, help="interpreter with torch, pytest, gradscope")
    parser.add_argument("--gradscope-src", help="folder holding a gradscope package to use instead of the "
                        "installed one (put first on the children's PYTHONPATH), e.g. a snapshot of src/")
    parser.add_argument("--json", dest="json_out", help="write the summary here")
    parser.add_argument("pytest_args", nargs="*", help="extra pytest arguments (after --)")
    opts = parser.parse_args(argv)
    opts.stall_limit = opts.stall_limit or opts.timeout + 90
    modes = [m for m in opts.modes.split(",") if m]
    if any(m not in MODES for m in modes):
        parser.error(f"--modes: choose from {', '.join(MODES)}")
    if "python" not in modes:
        modes.insert(0, "python")
    work = Path(opts.work_dir or tempfile.mkdtemp(prefix="gradscope-autograd-")).resolve()
    work.mkdir(parents=True, exist_ok=True)
    base_deselect = read_ids(opts.deselect_file) if opts.deselect_file else []
    if opts.gradscope_src:
        GRADSCOPE_SRC.append(str(Path(opts.gradscope_src).resolve()))
    torch_version = subprocess.run([opts.python, "-c", "import torch; print(torch.__version__, torch.version.git_version)"],
                                   capture_output=True, text=True).stdout.strip()
    gradscope_at = subprocess.run([opts.python, "-c", "import gradscope; print(gradscope.__file__)"],
                                  capture_output=True, text=True, env=child_env()).stdout.strip()
    print(f"gradscope imported from: {gradscope_at}", flush=True)
    print(f"work dir: {work}", flush=True)

    results = {}
    for mode in modes:
        results[mode] = run_mode(mode, opts, work, base_deselect)
        for nodeid in base_deselect:
            for key in [k for k in results[mode]["results"] if matches(k, nodeid)]:
                results[mode]["results"][key] = {"outcome": "deselected"}

    reference = results["python"]
    summary = {
        "torch": torch_version,
        "gradscope": gradscope_at,
        "files": opts.files,
        "work_dir": str(work),
        "settings": {"timeout": opts.timeout, "timeout_method": opts.timeout_method,
                     "stall_limit": opts.stall_limit, "run_limit": opts.run_limit,
                     "deselected": base_deselect, "extra_pytest_args": opts.pytest_args},
        "modes": {},
        "ratios": {},
        "regressions": {},
        "better_than_python": {},
        "internal_errors": {},
    }
    for mode, data in results.items():
        summary["modes"][mode] = {k: v for k, v in data.items()}
        if mode == "python":
            continue
        if reference["wall_s"]:
            summary["ratios"][f"{mode}/python"] = round(data["wall_s"] / reference["wall_s"], 2)
        common = [i for i, r in data["results"].items()
                  if r["outcome"] == "passed" and reference["results"].get(i, {}).get("outcome") == "passed"]
        ref_time = sum(reference["results"][i].get("duration", 0) for i in common)
        if ref_time:
            summary["ratios"][f"{mode}/python, tests passing in both (test time)"] = round(
                sum(data["results"][i].get("duration", 0) for i in common) / ref_time, 2)
        regs, better = compare(reference, data)
        summary["regressions"][mode] = regs
        summary["better_than_python"][mode] = better
        summary["internal_errors"][mode] = internal_errors(data)
        if mode == "plugin":
            with_findings = [i for i, r in data["results"].items() if r.get("gradscope")]
            summary["modes"][mode]["tests_with_findings"] = len(with_findings)

    if opts.recheck:
        for mode in modes[1:]:
            ids = [reg["id"] for reg in summary["regressions"][mode] if reg["outcome"] != "hung"]
            if not ids:
                continue
            alone_python = run_mode("python", opts, work, [], only=ids, tag=f"-recheck-{mode}")
            alone_mode = run_mode(mode, opts, work, [], only=ids, tag=f"-recheck-{mode}")
            for reg in summary["regressions"][mode]:
                if reg["outcome"] == "hung":
                    continue
                reg["recheck"] = {
                    "python_alone": alone_python["results"].get(reg["id"], {}).get("outcome", "not-run"),
                    f"{mode}_alone": alone_mode["results"].get(reg["id"], {}).get("outcome", "not-run")}
            summary[f"recheck_{mode}"] = {"python": {k: alone_python[k] for k in ("wall_s", "counts", "segments")},
                                          mode: {k: alone_mode[k] for k in ("wall_s", "counts", "segments")}}

    # (a mode that ran no test says nothing: a missing plugin, or no test file, is no pass)
    summary["empty_modes"] = [mode for mode, data in summary["modes"].items() if not data["results"]]
    summary["ok"] = not any(summary["regressions"].values()) and not summary["empty_modes"]
    text = summary_text(summary)
    print(text)
    if opts.json_out:
        out = dict(summary)
        out["modes"] = {}
        for mode, data in summary["modes"].items():
            slim = dict(data)
            slim["results"] = {i: {k: v for k, v in r.items() if k != "longrepr"} for i, r in data["results"].items()}
            out["modes"][mode] = slim
        Path(opts.json_out).write_text(json.dumps(out, indent=1) + "\n")
        (work / "summary.txt").write_text(text + "\n")
    return 0 if summary["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
