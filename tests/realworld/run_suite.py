"""The real-library suite: run each script in scripts/ under plain Python and under `gradscope run`,
and check that gradscope changed nothing and found nothing.

Every script is correct, idiomatic training code against a real library (transformers, timm,
torchvision, lightning, torch.compile, autocast, custom autograd Functions, ...). For each one:

  1. `python SCRIPT`                                    (the plain run)
  2. `python -m gradscope run --json REPORT SCRIPT`     (the recorded run, right after)

both with the runner's interpreter, PYTHONHASHSEED=0, COLUMNS=120, stdin from /dev/null, a fresh
empty working directory each, and a timeout (default 300 s; the whole process group is killed with
SIGKILL). A script passes when:

  - neither run timed out, and the plain run exited 0;
  - the exit statuses are equal and stdout is byte for byte the same;
  - stderr is the same: gradscope prints its report to stderr after the program has finished, and
    prints nothing at all when it has no findings and no internal errors, so the recorded run's
    stderr must equal the plain run's; when there is a report, it is cut off (the trailing block
    of rich panels and the blank line before it) before comparing, and the report itself fails
    the script through the next point;
  - the JSON report exists, has no findings and no internal errors, and counts at least one
    backward call (every script runs backward; none recorded means the recorder did not run).

Usage: python tests/realworld/run_suite.py [-k SUBSTRING]... [--json OUT] [--timeout S] [-v]
Exit status: 0 when every selected script passes, 1 otherwise, 2 when nothing was selected.
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import importlib.util
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPTS_DIR = HERE / "scripts"
ROOT = HERE.parent.parent
DEFAULT_TIMEOUT = 300.0
DIFF_LINES = 40

# What each script needs installed beyond torch (the pytest module skips when one is missing).
REQUIREMENTS = {
    "hf_causal_lm_padding": ["transformers"],
    "hf_llama": ["transformers"],
    "hf_bert_classifier": ["transformers"],
    "hf_t5_seq2seq": ["transformers"],
    "hf_gradient_checkpointing": ["transformers"],
    "hf_trainer": ["transformers", "accelerate"],
    "torchvision_resnet": ["torchvision"],
    "timm_vit_ema": ["timm", "torchvision"],
    "lightning_trainer": ["lightning"],
}

_PANEL_CHARS = ("╭", "│", "╰")


def scripts(patterns: list[str] | None = None) -> list[Path]:
    """The suite's scripts (helpers start with an underscore), those matching any pattern."""
    found = sorted(p for p in SCRIPTS_DIR.glob("*.py") if not p.name.startswith("_"))
    if patterns:
        found = [p for p in found if any(pattern in p.name for pattern in patterns)]
    return found


def missing_requirements(script: Path) -> list[str]:
    """The modules the script needs that are not installed."""
    return [name for name in REQUIREMENTS.get(script.stem, []) if importlib.util.find_spec(name) is None]


@dataclasses.dataclass
class Run:
    command: list[str]
    returncode: int | None
    stdout: str
    stderr: str
    seconds: float
    timed_out: bool


@dataclasses.dataclass
class Result:
    script: str
    plain: Run
    gradscope: Run
    report: dict | None
    verdict: str  # "pass" or "fail"
    reasons: list[str]

    @property
    def ratio(self) -> float | None:
        if self.plain.seconds <= 0:
            return None
        return self.gradscope.seconds / self.plain.seconds

    def to_dict(self) -> dict:
        return {
            "script": self.script, "verdict": self.verdict, "reasons": self.reasons,
            "plain_seconds": round(self.plain.seconds, 3), "gradscope_seconds": round(self.gradscope.seconds, 3),
            "ratio": None if self.ratio is None else round(self.ratio, 3),
            "plain": dataclasses.asdict(self.plain), "gradscope": dataclasses.asdict(self.gradscope),
            "findings": (self.report or {}).get("findings"),
            "internal_errors": (self.report or {}).get("internal_errors"),
            "notes": (self.report or {}).get("notes"), "summary": (self.report or {}).get("summary"),
        }


def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONHASHSEED"] = "0"
    env["COLUMNS"] = "120"
    env.pop("PYTHONSAFEPATH", None)
    return env


def _gradscope_env() -> dict:
    """The recorded run's environment: the plain one, with this checkout's src/ on the path when
    gradscope is not installed (an installed or editable gradscope is used as it is)."""
    env = _env()
    if importlib.util.find_spec("gradscope") is None:
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), *filter(None, [env.get("PYTHONPATH")])])
    return env


def _run(command: list[str], timeout: float, env: dict | None = None) -> Run:
    with tempfile.TemporaryDirectory(prefix="gradscope-realworld-cwd-") as cwd:
        start = time.perf_counter()
        proc = subprocess.Popen(command, cwd=cwd, env=env or _env(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True)
        timed_out = False
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            try:
                os.killpg(proc.pid, signal.SIGKILL)  # the group of the process we started, children included
            except ProcessLookupError:
                pass
            out, err = proc.communicate()
        seconds = time.perf_counter() - start
    return Run(command, proc.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"),
               seconds, timed_out)


def split_report(stderr: str) -> tuple[str, str]:
    """(the program's stderr, gradscope's report). The report is the trailing block of rich panel
    lines, and the newline gradscope prints before the first panel (`console.print()`): that
    newline either ends the program's last line or, after a complete line, makes a blank line."""
    lines = stderr.splitlines(keepends=True)
    start = len(lines)
    while start > 0 and (lines[start - 1].startswith(_PANEL_CHARS) or not lines[start - 1].strip()):
        start -= 1
    while start < len(lines) and not lines[start].startswith(_PANEL_CHARS):
        start += 1  # blank lines before the first panel: the program's (save the last newline, below)
    if start == len(lines):
        return stderr, ""
    cut = sum(len(line) for line in lines[:start])
    program = stderr[:cut]
    if program.endswith("\n"):
        program = program[:-1]
    return program, stderr[len(program):]


def _diff(label: str, expected: str, actual: str) -> str:
    lines = list(difflib.unified_diff(expected.splitlines(), actual.splitlines(), f"{label} (plain)",
                                      f"{label} (gradscope run)", lineterm="", n=1))
    if len(lines) > DIFF_LINES:
        lines = lines[:DIFF_LINES] + [f"... ({len(lines) - DIFF_LINES} more diff lines)"]
    return "\n".join(lines)


def _finding_text(finding: dict) -> str:
    head = f"finding {finding.get('rule')} [{finding.get('severity')}]: {finding.get('title')}"
    where = [f"    {loc.get('role')} {loc.get('path')}:{loc.get('line')}  {(loc.get('code') or '').strip()}"
             for loc in finding.get("locations", [])]
    explanation = (finding.get("explanation") or "").strip()
    return "\n".join([head, *where, *([f"    {explanation}"] if explanation else [])])


def compare(plain: Run, recorded: Run, report: dict | None) -> list[str]:
    """Why the recorded run is not the plain run, or not clean (empty: it passes)."""
    reasons = []
    for label, run in (("plain", plain), ("gradscope", recorded)):
        if run.timed_out:
            reasons.append(f"{label} run timed out after {run.seconds:.0f} s (killed)")
    if plain.returncode != 0 and not plain.timed_out:
        tail = "\n".join(plain.stderr.strip().splitlines()[-8:])
        reasons.append(f"the script itself fails: plain run exited {plain.returncode}\n{tail}")
    if plain.returncode != recorded.returncode and not (plain.timed_out or recorded.timed_out):
        reasons.append(f"exit status differs: plain {plain.returncode}, gradscope run {recorded.returncode}")
    if plain.stdout != recorded.stdout:
        reasons.append("stdout differs:\n" + _diff("stdout", plain.stdout, recorded.stdout))
    program_stderr, gradscope_report = split_report(recorded.stderr)
    if report is not None and not report.get("findings") and not report.get("internal_errors"):
        program_stderr, gradscope_report = recorded.stderr, ""  # nothing to report: nothing may be cut off
    if plain.stderr != program_stderr:
        reasons.append("stderr differs (gradscope's report cut off):\n" + _diff("stderr", plain.stderr,
                                                                                program_stderr))
    if report is None:
        if not recorded.timed_out:
            reasons.append("gradscope wrote no JSON report")
        return reasons
    if not (report.get("summary") or {}).get("backward_calls"):
        reasons.append("gradscope recorded no backward call (every script runs backward: the recorder did not work)")
    for finding in report.get("findings", []):
        reasons.append(_finding_text(finding))
    for error in report.get("internal_errors", []):
        reasons.append(f"internal error: {error}")
    if (report.get("findings") or report.get("internal_errors")) and not gradscope_report:
        reasons.append("the JSON report has findings/internal errors but stderr shows no report")
    return reasons


def run_script(script: Path, timeout: float = DEFAULT_TIMEOUT) -> Result:
    """Run one script plain, then under `gradscope run`, and compare."""
    script = Path(script).resolve()
    plain = _run([sys.executable, str(script)], timeout)
    with tempfile.TemporaryDirectory(prefix="gradscope-realworld-") as tmp:
        report_path = Path(tmp) / "report.json"
        recorded = _run([sys.executable, "-m", "gradscope", "run", "--json", str(report_path), str(script)],
                        timeout, _gradscope_env())
        report = None
        if report_path.exists():
            try:
                report = json.loads(report_path.read_text())
            except ValueError as exc:
                recorded.stderr += f"\n[run_suite: unreadable JSON report: {exc}]"
    reasons = compare(plain, recorded, report)
    return Result(script.stem, plain, recorded, report, "fail" if reasons else "pass", reasons)


def _first_line(result: Result) -> str:
    if not result.reasons:
        return ""
    first = result.reasons[0].splitlines()[0]
    more = len(result.reasons) - 1
    return first + (f" (+{more} more)" if more else "")


def print_table(results: list[Result], stream=sys.stdout) -> None:
    name_width = max([len("script"), *(len(r.script) for r in results)])
    header = f"{'script':<{name_width}}  {'plain s':>8}  {'gradscope s':>11}  {'ratio':>6}  verdict  reason"
    print(header, file=stream)
    print("-" * len(header), file=stream)
    for r in results:
        ratio = "-" if r.ratio is None else f"{r.ratio:.2f}"
        print(f"{r.script:<{name_width}}  {r.plain.seconds:>8.1f}  {r.gradscope.seconds:>11.1f}  {ratio:>6}  "
              f"{r.verdict.upper():<7}  {_first_line(r)}", file=stream)
    passed = sum(r.verdict == "pass" for r in results)
    print(f"\n{passed}/{len(results)} passed", file=stream)


def print_details(results: list[Result], stream=sys.stdout) -> None:
    for r in results:
        if r.verdict == "pass":
            continue
        print(f"\n=== {r.script}: FAIL", file=stream)
        for reason in r.reasons:
            print("- " + reason.replace("\n", "\n  "), file=stream)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-k", dest="patterns", action="append", metavar="SUBSTRING",
                        help="run only the scripts whose file name contains SUBSTRING (repeatable)")
    parser.add_argument("--json", dest="json_out", metavar="OUT", help="write the results to OUT (JSON)")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="S",
                        help=f"per-run timeout in seconds [default: {DEFAULT_TIMEOUT:.0f}]")
    parser.add_argument("-v", "--verbose", action="store_true", help="print each script's verdict as it finishes")
    options = parser.parse_args(argv)

    selected = scripts(options.patterns)
    if not selected:
        print("no scripts selected", file=sys.stderr)
        return 2
    results = []
    for script in selected:
        missing = missing_requirements(script)
        if missing:
            print(f"{script.stem}: skipped, not installed: {', '.join(missing)}", file=sys.stderr)
            continue
        result = run_script(script, options.timeout)
        results.append(result)
        if options.verbose:
            print(f"{result.script}: {result.verdict} (plain {result.plain.seconds:.1f} s, "
                  f"gradscope {result.gradscope.seconds:.1f} s)", file=sys.stderr, flush=True)
    print_table(results)
    print_details(results)
    if options.json_out:
        Path(options.json_out).write_text(json.dumps({
            "python": sys.executable, "passed": sum(r.verdict == "pass" for r in results), "total": len(results),
            "results": [r.to_dict() for r in results]}, indent=2) + "\n")
    return 0 if results and all(r.verdict == "pass" for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
