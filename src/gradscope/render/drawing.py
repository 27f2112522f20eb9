"""Drawing a trace's graph to a file: what `gradscope graph` and `Recording.graph()` write.

Statuses (the exit codes of `gradscope graph`, documented in the README): 0 the diagram was
written; 1 this trace has no such graph to draw; 2 bad input; 3 no renderer for the format
here, so the DOT text was written instead.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass

from ..paths import write_text
from ..trace.findings import Finding
from ..trace.model import Trace
from . import diagram, graphview
from .dot import to_dot

GRAPH_WRITTEN, NO_SUCH_GRAPH, BAD_INPUT, NO_RENDERER = 0, 1, 2, 3


@dataclass
class Request:
    output: str | None
    fmt: str | None
    call: int | None
    focus: bool
    radius: int
    depth: int | None
    max_boxes: int
    show_saved: bool
    color_by: str | None = None

    def resolve_format(self, target: str) -> None:
        if self.fmt is None and self.output:
            suffix = os.path.splitext(self.output)[1].lstrip(".").lower()
            self.fmt = suffix if suffix in diagram.FORMATS else None
        self.fmt = (self.fmt or "svg").lower()
        if self.fmt not in diagram.FORMATS:
            raise ValueError(f"unknown format '{self.fmt}' (choose from {', '.join(diagram.FORMATS)})")
        if self.output is None:
            stem = os.path.basename(target.rstrip("/"))
            for suffix in (".gz", ".json", ".trace", ".py", ".ipynb"):
                stem = stem[: -len(suffix)] if stem.endswith(suffix) else stem
            self.output = f"{stem}.graph.{self.fmt}"

    def options(self) -> graphview.Options:
        return graphview.Options(call=self.call, focus=self.focus, radius=self.radius, depth=self.depth,
                                 max_boxes=self.max_boxes, show_saved=self.show_saved, color_by=self.color_by)


def write_diagram(trace: Trace, findings: list[Finding], request: Request,
                  source: dict[str, str] | None = None) -> tuple[int, str]:
    """Write the diagram `request` asks for: (exit code, one line saying what was written or why not)."""
    try:
        view = graphview.build(trace, request.options(), source)
    except graphview.GraphError as exc:
        return NO_SUCH_GRAPH, f"cannot draw the graph: {exc}"
    if request.fmt == "json":
        write_text(request.output, json.dumps(view.to_dict(), indent=1))
        renderer = "none"
    else:
        try:
            renderer = diagram.render(to_dot(view), request.output, request.fmt)
        except diagram.RendererMissing as exc:
            return NO_RENDERER, str(exc)
        except diagram.RenderFailed as exc:
            return NO_SUCH_GRAPH, str(exc)
    drawn = f"{view.shown_nodes} of {view.total_nodes} nodes drawn"
    if view.grouped_nodes:
        drawn += f", {view.grouped_nodes} folded"
    via = f" with {renderer}" if renderer != "none" else ""
    return GRAPH_WRITTEN, f"{view.title.split(' of ', 1)[-1]} -> {request.output} ({drawn}{via})"
