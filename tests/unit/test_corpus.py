"""The corpus batches in this repository are well formed (batches.json lists them): every entry
runs a file that exists, every expected line and fix site is a line of code in its file, every
bug names the report it reproduces. (Scoring gradscope on them is `python
benchmarks/corpus/score.py`, not a test: it is a measure.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parents[2] / "benchmarks" / "corpus"


def _batches():
    root = CORPUS.parent.parent
    for spec in json.loads((CORPUS / "batches.json").read_text()):
        if spec.get("format") != "calibration":  # (those live in ../shared, read when present)
            yield (root / spec["path"]).resolve() / spec.get("cases", "cases.json")


def test_every_batch_is_listed():
    listed = {path.parent.name for path in _batches()}
    assert listed == {"corpus"} | {p.name for p in CORPUS.iterdir() if (p / "cases.json").is_file()}


@pytest.mark.parametrize("listing", list(_batches()), ids=lambda p: p.parent.name)
def test_cases_are_well_formed(listing):
    folder = listing.parent
    cases = json.loads(listing.read_text())
    names = [case["name"] for case in cases]
    assert len(names) == len(set(names))
    assert {case["kind"] for case in cases} == {"bug", "clean"}
    for case in cases:
        entry = folder / case["entry"]
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
        for file, line in case.get("fix_site", []):
            assert [file, line] in [[f, n] for f, n, _ in case["expected"]], (case["name"], file, line)
