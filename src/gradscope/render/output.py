"""Report output helpers, re-exported from gradscope/paths.py where they live (session.py imports them from here)."""

from __future__ import annotations

from ..paths import display, relative_to, write_text

__all__ = ["display", "relative_to", "write_text"]
