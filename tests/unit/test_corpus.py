"""benchmarks/corpus/cases.json is well formed: every entry runs a file that exists, every
expected line is a line of code in its file, every bug names the report it reproduces.
(Scoring gradscope on it is `python benchmarks/corpus/score.py`, not a test: it is a measure.)"""

from __future__ import annotations

import json
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[2] / "benchmarks" / "corpus"


def test_cases_are_well_formed():
    cases = json.loads((CORPUS / "cases.json").read_text())
    names = [case["name"] for case in cases]
    assert len(names) == len(set(names))
    assert {case["kind"] for case in cases} == {"bug", "clean"}
    for case in cases:
        entry = CORPUS / case["entry"]
        assert entry.is_file(), case["name"]
        if case["kind"] == "clean":
            assert case["expected"] == [], case["name"]
            continue
        assert case["source"].startswith("https://"), case["name"]
        assert case["expected"], case["name"]
        for file, line, role in case["expected"]:
            lines = (entry.parent / file).read_text().splitlines()
            assert 1 <= line <= len(lines) and lines[line - 1].strip(), (case["name"], file, line)
            assert role, case["name"]
