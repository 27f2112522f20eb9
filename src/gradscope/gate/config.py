"""`[tool.gradscope]` in pyproject.toml: which findings a check reports and fails on.

    [tool.gradscope]
    fail-on = "warning"                 # "error" (default) or "warning"
    ignore = ["graph-kept-alive"]       # rule ids never reported
    include = ["src/**", "train.py"]    # report only findings on these paths ...
    exclude = ["src/legacy/**"]         # ... and none on these
    [tool.gradscope.severity]
    grad-not-zeroed = "error"           # "error", "warning" or "off"
    [tool.gradscope.expect]             # pytest plugin: hazards these tests have on purpose
    "tests/test_versions.py::test_saved_version_*" = ["inplace-hazard"]

The file is found by walking up from the working directory to the first pyproject.toml that has
a `[tool.gradscope]` table. Path patterns are relative to that file's directory: `*` matches
within one path segment, `**` across segments, and a pattern naming a directory covers all
below it. A finding is kept when at least one of its lines is in scope (or it names no line).
`expect` keys are glob patterns over pytest node ids (as pytest prints them, relative to its
rootdir); a test's findings of the listed rules are reported as expected and do not fail it.

This module does not import torch.
"""

from __future__ import annotations

import fnmatch
import os
import re
from dataclasses import dataclass, field

from ..paths import relative_to
from ..trace.catalog import CATALOG

SEVERITIES = ("error", "warning")
_KEYS = {"fail-on", "ignore", "include", "exclude", "severity", "expect"}


class ConfigError(Exception):
    """The configuration cannot be used; the message says why, in one line."""


@dataclass
class Config:
    root: str  # the directory path patterns are relative to
    path: str | None = None  # the pyproject.toml it came from, if any
    fail_on: str = "error"
    ignore: frozenset[str] = frozenset()
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    severity: dict[str, str] = field(default_factory=dict)  # rule id -> "error" | "warning" | "off"
    expect: dict[str, tuple[str, ...]] = field(default_factory=dict)  # test id pattern -> rule ids

    def expected_rules(self, test_id: str) -> set[str]:
        """The rules a pytest test (by node id) is documented to show on purpose."""
        return {rule for pattern, rules in self.expect.items() if fnmatch.fnmatchcase(test_id, pattern)
                for rule in rules}

    def in_scope(self, path: str) -> bool:
        relative = relative_to(path, self.root)
        if relative is None:  # outside the project: only an explicit include brings it in
            return not self.include
        if self.include and not any(_matches(p, relative) for p in self.include):
            return False
        return not any(_matches(p, relative) for p in self.exclude)

    def severity_of(self, rule: str, default: str) -> str | None:
        """The severity a finding of `rule` is reported with; None when it is not reported."""
        if rule in self.ignore:
            return None
        chosen = self.severity.get(rule, default)
        return None if chosen == "off" else chosen


def load(explicit: str | None = None, start: str | None = None) -> Config:
    """The configuration in force: from `explicit` (a pyproject.toml), else the nearest one."""
    path = explicit if explicit is not None else find(start or os.getcwd())
    if path is None:
        return Config(root=os.path.abspath(start or os.getcwd()))
    table = _read_table(path, required=explicit is not None)
    return parse(table, root=os.path.dirname(os.path.abspath(path)), path=path)


def find(start: str) -> str | None:
    directory = os.path.abspath(start)
    while True:
        candidate = os.path.join(directory, "pyproject.toml")
        if os.path.isfile(candidate) and _read_table(candidate, required=False) is not None:
            return candidate
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


def parse(table: dict | None, root: str, path: str | None = None) -> Config:
    config = Config(root=root, path=path)
    if not table:
        return config
    where = f"[tool.gradscope] in {path}" if path else "[tool.gradscope]"
    unknown = sorted(set(table) - _KEYS)
    if unknown:
        raise ConfigError(f"unknown key '{unknown[0]}' in {where} (known: {', '.join(sorted(_KEYS))})")
    fail_on = table.get("fail-on", "error")
    if fail_on not in SEVERITIES:
        raise ConfigError(f"fail-on must be \"error\" or \"warning\" in {where}, not {fail_on!r}")
    config.fail_on = fail_on
    config.ignore = frozenset(_rule_list(table, "ignore", where))
    config.include = tuple(_string_list(table, "include", where))
    config.exclude = tuple(_string_list(table, "exclude", where))
    severity = table.get("severity", {})
    if not isinstance(severity, dict):
        raise ConfigError(f"severity must be a table (rule id = \"error\" | \"warning\" | \"off\") in {where}")
    for rule, level in severity.items():
        _known_rule(rule, where)
        if level not in (*SEVERITIES, "off"):
            raise ConfigError(f"severity of {rule} must be \"error\", \"warning\" or \"off\" in {where}, "
                              f"not {level!r}")
    config.severity = dict(severity)
    expect = table.get("expect", {})
    if not isinstance(expect, dict):
        raise ConfigError(f"expect must be a table (\"test id pattern\" = [rule ids]) in {where}")
    config.expect = {pattern: tuple(_rule_list(expect, pattern, where)) for pattern in expect}
    return config


def _read_table(path: str, required: bool) -> dict | None:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    try:
        with open(path, "rb") as handle:
            document = tomllib.load(handle)
    except OSError as exc:
        raise ConfigError(f"cannot read configuration '{path}': {exc.strerror}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"'{path}' is not valid TOML: {exc}") from None
    table = document.get("tool", {}).get("gradscope") if isinstance(document.get("tool"), dict) else None
    if table is not None and not isinstance(table, dict):
        raise ConfigError(f"[tool.gradscope] in '{path}' must be a table")
    if table is None and required:
        return {}
    return table


def _string_list(table: dict, key: str, where: str) -> list[str]:
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{key} must be a list of strings in {where}")
    return value


def _rule_list(table: dict, key: str, where: str) -> list[str]:
    rules = _string_list(table, key, where)
    for rule in rules:
        _known_rule(rule, where)
    return rules


def _known_rule(rule: str, where: str) -> None:
    if rule not in CATALOG:
        close = [known for known in CATALOG if known.split("-")[0] == rule.split("-")[0]][:3]
        hint = f" (did you mean {', '.join(close)}?)" if close else " (`gradscope rules` lists them)"
        raise ConfigError(f"unknown rule '{rule}' in {where}{hint}")


_pattern_cache: dict[str, re.Pattern] = {}


def _matches(pattern: str, relative: str) -> bool:
    """Glob match of a project-relative path; a pattern also covers everything below a match."""
    compiled = _pattern_cache.get(pattern)
    if compiled is None:
        compiled = _pattern_cache[pattern] = re.compile(_glob_regex(pattern.strip("/")) + r"(/.*)?")
    return compiled.fullmatch(relative) is not None


def _glob_regex(pattern: str) -> str:
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append(r"(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(r".*")
            i += 2
        elif pattern[i] == "*":
            out.append(r"[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append(r"[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return "".join(out)
