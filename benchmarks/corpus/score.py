"""Score gradscope on batches of bug reproductions and correct programs, batch by batch.

A batch is a folder of cases with the lines a complete diagnosis names, decided before gradscope
ran on them (see README.md here and the diagnosis standard). `batches.json` lists them: the
corpus the rules were shaped on, the first-sight batches written blind to gradscope, and the
calibration batches of ../shared (scored when that folder is present). Every case is run as
`python -m gradscope run --json REPORT ENTRY` in its own folder.

Per case:
- **fully named**: every expected (file, line) is a location of a finding, or a frame in the
  stack of one (the console shows those stacks);
- **fix site marked**: a location with role `fix` is one of the case's fix sites; **marked
  wrong**: there are `fix` locations and none of them is a fix site;
- **false alarm**: any finding on a correct program.

Per batch it prints those counts now, next to the batch's first-sight score (`first_sight.json`,
written once by `--record-first-sight` and never again) and the anchors measured on it
(`anchors.json`: the plain traceback, anomaly mode, an assistant reading only the code and the
output).

    python benchmarks/corpus/score.py                     # every batch
    python benchmarks/corpus/score.py --batch fs1 -j 2    # one batch, two runs at a time
    python benchmarks/corpus/score.py --only NAME         # one case (of any batch)
    python benchmarks/corpus/score.py --json out.json     # also write every result
    python benchmarks/corpus/score.py --record-first-sight --batch fs2   # a new batch, once

This script does not import torch; it only starts subprocesses.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

CORPUS = Path(__file__).resolve().parent
ROOT = CORPUS.parent.parent
REPO_SRC = ROOT / "src"
TIMEOUT_S = 120


@dataclass
class Case:
    batch: str
    name: str
    kind: str  # "bug" or "clean"
    entry: Path
    expected: list[tuple[str, int, str]] = field(default_factory=list)  # (resolved path, line, role)
    fix_sites: list[tuple[str, int]] = field(default_factory=list)  # best first; [] where not stated
    args: list[str] = field(default_factory=list)


@dataclass
class Batch:
    name: str
    folder: Path
    note: str
    cases: list[Case]


def _resolved(folder: Path, file: str) -> str:
    return str((folder / file).resolve())


def load_batch(spec: dict) -> Batch | None:
    """A batch from its entry in batches.json; None when its folder is absent (../shared)."""
    folder = (ROOT / spec["path"]).resolve()
    listing = folder / spec.get("cases", "cases.json")
    if not listing.is_file():
        if spec.get("optional"):
            return None
        raise SystemExit(f"batch {spec['name']}: {listing} is missing")
    raw = json.loads(listing.read_text())
    cases = [(_calibration_case if spec.get("format") == "calibration" else _corpus_case)(spec["name"], folder, c)
             for c in raw]
    return Batch(spec["name"], folder, spec.get("note", ""), cases)


def _corpus_case(batch: str, folder: Path, raw: dict) -> Case:
    """This corpus's format: entry, expected [[file, line, role]] relative to the entry's folder,
    fix_site [[file, line]] (or the expected lines with role "fix")."""
    entry = (folder / raw["entry"]).resolve()
    base = entry.parent
    expected = [(_resolved(base, f), int(line), role) for f, line, role in raw.get("expected", [])]
    if "fix_site" in raw:
        fixes = [(_resolved(base, f), int(line)) for f, line in raw["fix_site"]]
    else:
        fixes = [(path, line) for path, line, role in expected if role == "fix"]
    kind = "clean" if raw["kind"] == "clean" else "bug"
    return Case(batch, raw["name"], kind, entry, expected, fixes, list(raw.get("args", [])))


def _calibration_case(batch: str, folder: Path, raw: dict) -> Case:
    """../shared/calibration's format: path and must_name [{file, line, why}] relative to the
    batch folder, fix_site [{file, line}] (batch 2)."""
    entry = (folder / raw["path"]).resolve()
    expected = [(_resolved(folder, m["file"]), int(m["line"]), m.get("why", "")[:40]) for m in raw["must_name"]]
    fixes = [(_resolved(folder, f["file"]), int(f["line"])) for f in raw.get("fix_site", [])]
    kind = "clean" if raw.get("kind") == "clean" else "bug"
    return Case(batch, raw["id"], kind, entry, expected, fixes)


def run_gradscope(case: Case, src: Path) -> tuple[dict | None, str | None]:
    """Run gradscope on one case; (report dict or None, problem text or None)."""
    env = dict(os.environ, OMP_NUM_THREADS="1")
    # Use the gradscope of this checkout (or of --src), not whatever happens to be installed.
    env["PYTHONPATH"] = os.pathsep.join(p for p in [str(src), env.get("PYTHONPATH")] if p)
    with tempfile.TemporaryDirectory() as tmp:
        report_path = Path(tmp) / "report.json"
        cmd = [sys.executable, "-m", "gradscope", "run", "--json", str(report_path), case.entry.name, *case.args]
        try:
            proc = subprocess.run(cmd, cwd=case.entry.parent, env=env, capture_output=True, text=True,
                                  timeout=TIMEOUT_S, stdin=subprocess.DEVNULL)
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


def named_locations(report: dict | None, with_stacks: bool = False, role: str | None = None) -> set:
    """(resolved path, line) pairs of the findings' locations (of one role); with_stacks: also
    the frames in each location's stack."""
    named = set()
    for finding in (report or {}).get("findings", []):
        for loc in finding.get("locations", []):
            if role is not None and loc.get("role") != role:
                continue
            frames = loc.get("stack", []) if with_stacks else []
            for place in [loc, *frames]:
                if place.get("path") and place.get("line"):
                    named.add((str(Path(place["path"]).resolve()), int(place["line"])))
    return named


def score_case(case: Case, src: Path) -> dict:
    report, problem = run_gradscope(case, src)
    findings = (report or {}).get("findings", [])
    shown = named_locations(report, with_stacks=True)
    located = named_locations(report)
    marked = named_locations(report, role="fix")
    base = case.entry.parent
    result = {"batch": case.batch, "name": case.name, "kind": case.kind, "problem": problem,
              "rules": [f.get("rule") for f in findings],
              "locations": sorted(f"{_short(p, base)}:{line}" for p, line in located),
              "fix_locations": sorted(f"{_short(p, base)}:{line}" for p, line in marked)}
    if case.kind == "clean":
        result["false_alarm"] = bool(findings)
        return result
    hits = [(p, line) for p, line, _ in case.expected if (p, line) in shown]
    result.update({
        "expected": len(case.expected),
        "named": len(hits),
        "fully_named": report is not None and len(hits) == len(case.expected),
        "missed": [f"{_short(p, base)}:{line} ({role})" for p, line, role in case.expected if (p, line) not in shown],
        "has_fix_site": bool(case.fix_sites),
        "fix_marked": any(site in marked for site in case.fix_sites),
        "fix_named": any(site in shown for site in case.fix_sites),
        "fix_wrong": bool(case.fix_sites) and bool(marked) and not any(site in marked for site in case.fix_sites),
        "fix_sites": [f"{_short(p, base)}:{line}" for p, line in case.fix_sites],
    })
    return result


def _short(path: str, base: Path) -> str:
    try:
        return str(Path(path).relative_to(base))
    except ValueError:
        return os.path.basename(path)


def totals(results: list[dict]) -> dict:
    bugs = [r for r in results if r["kind"] == "bug"]
    clean = [r for r in results if r["kind"] == "clean"]
    with_fix = [r for r in bugs if r["has_fix_site"]]
    return {
        "bug_cases": len(bugs),
        "fully_named": sum(r["fully_named"] for r in bugs),
        "expected_lines": sum(r["expected"] for r in bugs),
        "named_lines": sum(r["named"] for r in bugs),
        "cases_with_fix_site": len(with_fix),
        "fix_marked": sum(r["fix_marked"] for r in with_fix),
        "fix_named": sum(r["fix_named"] for r in with_fix),
        "fix_wrong": sum(r["fix_wrong"] for r in with_fix),
        "clean_programs": len(clean),
        "false_alarms": sum(r["false_alarm"] for r in clean),
        "runs_with_problems": sum(1 for r in results if r["problem"]),
    }


def print_result(r: dict) -> None:
    if r["kind"] == "bug":
        status = "NAMED " if r["fully_named"] else "missed"
        fix = ("fix ok " if r["fix_marked"] else "fix X  " if r["fix_wrong"] else "fix -  ") if r["has_fix_site"] else ""
        line = f"{status} {fix}{r['batch']}/{r['name']:<34} {r['named']}/{r['expected']} lines"
        if r["missed"]:
            line += "   missing: " + ", ".join(r["missed"])
        if r["has_fix_site"] and not r["fix_marked"]:
            line += f"   fix site: {', '.join(r['fix_sites'])}; marked: {', '.join(r['fix_locations']) or 'none'}"
    else:
        status = "ALARM " if r["false_alarm"] else "clean "
        line = f"{status} {r['batch']}/{r['name']:<34} {len(r['rules'])} finding(s)"
    if r["rules"]:
        line += "   rules: " + ", ".join(sorted(set(map(str, r["rules"]))))
    if r["problem"]:
        line += f"   [{r['problem']}]"
    print(line, flush=True)


def row(label: str, t: dict) -> str:
    """One line of the per-batch table."""
    fix = (f"{t['fix_marked']}/{t['cases_with_fix_site']} (wrong {t['fix_wrong']})"
           if t.get("cases_with_fix_site") else "-")
    alarms = f"{t['false_alarms']}/{t['clean_programs']}" if t.get("clean_programs") else "-"
    return (f"  {label:<28} {t['fully_named']:>3}/{t['bug_cases']:<3} fully named   "
            f"{t['named_lines']:>3}/{t['expected_lines']:<3} lines   fix site marked {fix:<16} false alarms {alarms}")


def anchor_rows(folder: Path) -> list[str]:
    path = folder / "anchors.json"
    if not path.is_file():
        return []
    lines = []
    for name, t in json.loads(path.read_text()).items():
        lines.append(row(f"anchor: {name}", {**{k: 0 for k in ("fully_named", "bug_cases", "named_lines",
                                                               "expected_lines")}, **t}))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", action="append", metavar="NAME", help="score only this batch (repeatable)")
    parser.add_argument("--only", metavar="NAME", help="run only the case with this name")
    parser.add_argument("--json", metavar="PATH", help="write the per-case results and totals here")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="runs at a time (default 1)")
    parser.add_argument("--src", metavar="DIR", default=str(REPO_SRC),
                        help="the gradscope source tree to score (default: this checkout's src/)")
    parser.add_argument("--label", metavar="TEXT",
                        help="what is scored, for first_sight.json (default: this checkout's HEAD commit)")
    parser.add_argument("--record-first-sight", action="store_true",
                        help="write first_sight.json for the scored batches that have none (never replaces one)")
    args = parser.parse_args()

    specs = json.loads((CORPUS / "batches.json").read_text())
    if args.batch:
        unknown = set(args.batch) - {s["name"] for s in specs}
        if unknown:
            sys.exit(f"no batch named {', '.join(sorted(unknown))}")
        specs = [s for s in specs if s["name"] in args.batch]
    batches = [b for b in (load_batch(s) for s in specs) if b is not None]
    for batch in batches:
        if args.only:
            batch.cases = [c for c in batch.cases if c.name == args.only]
    if args.only and not any(b.cases for b in batches):
        sys.exit(f"no case named {args.only!r}")

    src = Path(args.src).resolve()
    all_results, summary = [], {}
    for batch in batches:
        if not batch.cases:
            continue
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            results = list(pool.map(lambda c: score_case(c, src), batch.cases))
        for r in results:
            print_result(r)
        all_results += results
        summary[batch.name] = totals(results)
        if args.record_first_sight and not args.only:
            _record_first_sight(batch, summary[batch.name], results, args.label)

    print()
    for batch in batches:
        if batch.name not in summary:
            continue
        print(f"{batch.name}: {batch.note}" if batch.note else batch.name)
        first = batch.folder / "first_sight.json"
        if first.is_file():
            recorded = json.loads(first.read_text())
            print(row(f"first sight ({recorded.get('commit', '?')[:7]})", recorded["totals"]))
        print(row("now", summary[batch.name]))
        for line in anchor_rows(batch.folder):
            print(line)
        if summary[batch.name]["runs_with_problems"]:
            print(f"  runs with problems (crash, timeout, internal errors): {summary[batch.name]['runs_with_problems']}")

    if args.json:
        Path(args.json).write_text(json.dumps({"results": all_results, "totals": summary}, indent=1) + "\n")


def _record_first_sight(batch: Batch, batch_totals: dict, results: list[dict], label: str | None) -> None:
    path = batch.folder / "first_sight.json"
    if path.exists():
        print(f"{batch.name}: first_sight.json exists; a batch is scored at first sight once", file=sys.stderr)
        return
    commit = label or subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                                     text=True).stdout.strip()
    path.write_text(json.dumps({"commit": commit, "totals": batch_totals, "results": results}, indent=1) + "\n")


if __name__ == "__main__":
    main()
