"""Explainer tables: (pattern, explain) pairs where the first pattern an error message matches picks the explanation."""

from __future__ import annotations

import re
from typing import Callable

from ..trace.findings import Finding

Explainers = list[tuple[re.Pattern, Callable[..., "Finding | None"]]]


def explain_first(table: Explainers, message: str, *context) -> Finding | None:
    """`explain(*context, match)` of the first entry whose pattern is found in `message`; None
    when none is (or when that explainer has nothing to say)."""
    for pattern, explain in table:
        found = pattern.search(message)
        if found:
            return explain(*context, found)
    return None


def matches(table: Explainers, message: str) -> bool:
    """Whether some entry of `table` is found in `message`."""
    return any(pattern.search(message) for pattern, _ in table)
