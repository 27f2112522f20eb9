"""The rule catalog, as the rules see it: it lives in gradscope/trace/catalog.py (below rules and render)."""

from __future__ import annotations

from ..trace.catalog import CATALOG, RuleInfo

__all__ = ["CATALOG", "RuleInfo"]
