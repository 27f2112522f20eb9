"""The rule catalog, as the rules see it: it lives in gradscope/catalog.py (below rules and render)."""

from __future__ import annotations

from ..catalog import CATALOG, RuleInfo

__all__ = ["CATALOG", "RuleInfo"]
