"""JUnit XML, for CI test views: one test case per finding, failing at or above the threshold.

A check with no findings still has one passing case, so CI shows that it ran.
"""

from __future__ import annotations

from xml.etree import ElementTree

from ..paths import display
from ..trace.findings import Finding
from . import github


def render(findings: list[Finding], failing: list[Finding], name: str) -> str:
    failing_ids = {id(f) for f in failing}
    suite = ElementTree.Element("testsuite", {
        "name": "gradscope", "tests": str(max(1, len(findings))), "failures": str(len(failing)),
        "errors": "0", "skipped": "0",
    })
    if not findings:
        ElementTree.SubElement(suite, "testcase", {"classname": "gradscope", "name": f"gradscope check {name}"})
    for finding in findings:
        where = finding.primary
        place = f"{display(where.path)}:{where.line}" if where else name
        case = ElementTree.SubElement(suite, "testcase", {
            "classname": f"gradscope.{finding.rule}", "name": f"{place} {finding.title}",
            **({"file": display(where.path), "line": str(where.line)} if where else {}),
        })
        text = github.message(finding)
        if id(finding) in failing_ids:
            failure = ElementTree.SubElement(case, "failure", {"message": finding.title, "type": finding.rule})
            failure.text = text
        else:
            ElementTree.SubElement(case, "system-out").text = f"{finding.severity}: {text}"
    root = ElementTree.Element("testsuites", {"name": "gradscope", "tests": suite.get("tests"),
                                              "failures": suite.get("failures"), "errors": "0"})
    root.append(suite)
    ElementTree.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ElementTree.tostring(root, encoding="unicode") + "\n"
