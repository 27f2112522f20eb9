"""Score gradscope against the bug-reproduction corpus in cases.json.

Every case is run as `python -m gradscope run --json REPORT ENTRY` in its own
directory.  A bug case is "named" when every expected (file, line) pair shows up
among the locations of the report's findings (files compared by resolved
absolute path; the role is only a hint and is not compared).  A clean program
is a false alarm when its report has any finding at all.  A run that crashes,
writes no report or times out names nothing.

    python benchmarks/corpus/score.py                 # every case
    python benchmarks/corpus/score.py --only NAME     # one case
    python benchmarks/corpus/score.py --json out.json # also write the results
    python benchmarks/corpus/score.py --cases F.json  # the cases listed in another file

This script does not import torch; it only starts subprocesses.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

CORPUS = Path(__file__).resolve().parent
REPO_SRC = CORPUS.parent.parent / "src"
TIMEOUT_S = 120


def run_gradscope(entry):
    """Run gradscope on one entry script; return (report dict or None, problem text or None)."""
    env = dict(os.environ, OMP_NUM_THREADS="1")
    # Use the gradscope of this checkout, not whatever happens to be installed.
    env["PYTHONPATH"] = os.pathsep.join(p for p in [str(REPO_SRC), env.get("PYTHONPATH")] if p)
    with tempfile.TemporaryDirectory() as tmp:
        report_path = Path(tmp) / "report.json"
        cmd = [sys.executable, "-m", "gradscope", "run", "--json", str(report_path), entry.name]
        try:
            proc = subprocess.run(cmd, cwd=entry.parent, env=env, capture_output=True,
                                  text=True, timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            return None, f"timed out after {TIMEOUT_S} s"
        if not report_path.exists():
            tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["(no output)"]
            return None, f"no report (exit {proc.returncode}): {tail[0][:200]}"
        try:
            report = json.loads(report_path.read_text())
        except ValueError as exc:
            return None, f"unreadable report: {exc}"
    if report.get("internal_errors"):
        return report, f"gradscope internal errors: {len(report['internal_errors'])}"
    return report, None


def named_locations(report, with_stacks=False):
    """The set of (resolved path, line) pairs named by the report's findings; with_stacks: also
    the frames that reached each location (its `stack`), which the console shows under it."""
    named = set()
    for finding in (report or {}).get("findings", []):
        for loc in finding.get("locations", []):
            frames = loc.get("stack", []) if with_stacks else []
            for place in [loc, *frames]:
                if place.get("path") and place.get("line"):
                    named.add((str(Path(place["path"]).resolve()), int(place["line"])))
    return named


def score_case(case):
    entry = (CORPUS / case["entry"]).resolve()
    case_dir = entry.parent
    report, problem = run_gradscope(entry)
    findings = (report or {}).get("findings", [])
    named = named_locations(report)
    expected = [(str((case_dir / f).resolve()), int(line), role) for f, line, role in case["expected"]]
    hits = [(path, line, role) for path, line, role in expected if (path, line) in named]
    shown = named_locations(report, with_stacks=True)
    shown_hits = [1 for path, line, _ in expected if (path, line) in shown]
    result = {
        "name": case["name"],
        "kind": case["kind"],
        "problem": problem,
        "rules": [f.get("rule") for f in findings],
        "expected": len(expected),
        "named": len(hits),
        "shown": len(shown_hits),  # named, or shown in the stack of a named location
        "missed": [f"{Path(p).relative_to(case_dir)}:{line} ({role})"
                   for p, line, role in expected if (p, line, role) not in hits],
        "locations": sorted(f"{Path(p).name}:{line}" for p, line in named),
    }
    if case["kind"] == "bug":
        result["fully_named"] = report is not None and len(hits) == len(expected)
    else:
        result["false_alarm"] = bool(findings)
    return result


def print_result(r):
    if r["kind"] == "bug":
        status = "NAMED " if r["fully_named"] else "missed"
        line = f"{status} {r['name']:<32} {r['named']}/{r['expected']} lines"
        if r["missed"]:
            line += "   missing: " + ", ".join(r["missed"])
    else:
        status = "ALARM " if r["false_alarm"] else "clean "
        line = f"{status} {r['name']:<32} {len(r['rules'])} finding(s)"
    if r["rules"]:
        line += "   rules: " + ", ".join(sorted(set(map(str, r["rules"]))))
    if r["problem"]:
        line += f"   [{r['problem']}]"
    print(line, flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", metavar="PATH", help="write the per-case results and totals here")
    parser.add_argument("--only", metavar="NAME", help="run only the case with this name")
    parser.add_argument("--cases", metavar="FILE", default=str(CORPUS / "cases.json"),
                        help="read the cases from this file (same format; entries relative to "
                             "this directory); default: cases.json")
    args = parser.parse_args()

    cases = json.loads(Path(args.cases).read_text())
    if args.only:
        cases = [c for c in cases if c["name"] == args.only]
        if not cases:
            sys.exit(f"no case named {args.only!r}")

    results = []
    for case in cases:
        r = score_case(case)
        print_result(r)
        results.append(r)

    bugs = [r for r in results if r["kind"] == "bug"]
    clean = [r for r in results if r["kind"] == "clean"]
    totals = {
        "bug_cases": len(bugs),
        "fully_named": sum(r["fully_named"] for r in bugs),
        "expected_lines": sum(r["expected"] for r in bugs),
        "named_lines": sum(r["named"] for r in bugs),
        "shown_lines": sum(r["shown"] for r in bugs),
        "clean_programs": len(clean),
        "false_alarms": sum(r["false_alarm"] for r in clean),
        "runs_with_problems": sum(1 for r in results if r["problem"]),
    }
    print()
    print(f"cases fully named: {totals['fully_named']}/{totals['bug_cases']}")
    print(f"lines named:       {totals['named_lines']}/{totals['expected_lines']}")
    print(f"  and in stacks:   {totals['shown_lines']}/{totals['expected_lines']} (named, or in the stack of a named line)")
    print(f"false alarms:      {totals['false_alarms']}/{totals['clean_programs']}")
    if totals["runs_with_problems"]:
        print(f"runs with problems (crash, timeout, internal errors): {totals['runs_with_problems']}")

    if args.json:
        Path(args.json).write_text(json.dumps({"results": results, "totals": totals}, indent=1) + "\n")


if __name__ == "__main__":
    main()
