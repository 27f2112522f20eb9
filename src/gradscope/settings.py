"""What a recording keeps and watches: one definition of the settings and their defaults, for the
CLI, the session, the pytest plugin and the recorder (no torch import: `--help` reads it)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Settings:
    """How much the recorder keeps (see `gradscope run --help`)."""

    keep_backwards: int = 4  # full detail of the graphs of the last N backward calls
    max_nodes: int = 100_000  # node records kept at most (memory bound)
    check_nan: bool = False  # hook every node to find the first non-finite gradient
    grad_flow: tuple[str, ...] | None = None  # --grad-flow: module patterns to watch (empty: all)
    flow_thresholds: dict = field(default_factory=dict)
    flow_max_steps: int = 512  # grad-flow columns kept at most (then every other one is dropped)
    flow_svg: str | None = None  # write the per-layer gradient-norm chart here


DEFAULTS = Settings()
