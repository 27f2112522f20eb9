"""A GraphView as Graphviz DOT text (built with the `graphviz` package, which does the quoting)."""

from __future__ import annotations

import graphviz

from ..graphview import ROLES, GraphView

_KIND_STYLE = {
    "op": {"shape": "box", "style": "rounded,filled", "fillcolor": "#f5f5f5"},
    "leaf": {"shape": "ellipse", "style": "filled", "fillcolor": "#dbeafe"},
    "saved": {"shape": "note", "style": "filled", "fillcolor": "#fafaf0", "fontsize": "9"},
    "inplace": {"shape": "octagon", "style": "filled", "fillcolor": "#fed7aa"},
    "group": {"shape": "box3d", "style": "filled", "fillcolor": "#e0e7ff"},
    "repeat": {"shape": "folder", "style": "filled", "fillcolor": "#ede9fe"},
    "more": {"shape": "plaintext"},
}
_ROLE_COLOUR = {
    "failed": "#dc2626", "modified-saved": "#ea580c", "inplace": "#ea580c", "freed": "#7c3aed",
    "used": "#2563eb", "leaf-modified": "#dc2626", "view": "#ea580c", "root": "#111827",
}


def to_dot(view: GraphView) -> str:
    graph = graphviz.Digraph("autograd", graph_attr={
        "rankdir": "TB", "fontname": "Helvetica", "labelloc": "t", "label": graphviz.escape(view.title),
        "tooltip": graphviz.escape(view.title)})
    graph.attr("node", fontname="Helvetica", fontsize="10")
    graph.attr("edge", color="#6b7280", arrowsize="0.6")
    for box in view.boxes:
        attrs = dict(_KIND_STYLE.get(box.kind, {}))
        role = next((r for r in ROLES if r in box.roles), None)
        if role is not None and role != "root":
            attrs.update(color=_ROLE_COLOUR[role], penwidth="2.5", fontcolor=_ROLE_COLOUR[role])
        elif role == "root":
            attrs.update(penwidth="2")
        label = "\\n".join(graphviz.escape(line) for line in [box.title, *box.lines] if line)
        graph.node(box.id, label, tooltip=graphviz.escape(box.tooltip or box.title), **attrs)
    for arrow in view.arrows:
        attrs = {}
        if arrow.kind == "saved":
            attrs = {"style": "dashed", "arrowhead": "none"}
        elif arrow.kind == "inplace":
            attrs = {"color": _ROLE_COLOUR["inplace"], "penwidth": "2", "label": " writes"}
        graph.edge(arrow.src, arrow.dst, **attrs)
    graph.node("legend", _legend(view), shape="plaintext", fontsize="9")
    return graph.source


def _legend(view: GraphView) -> str:
    """An HTML-like table: the highlight colours used, and how much of the graph is drawn."""
    rows = []
    for role in view.roles:
        colour = _ROLE_COLOUR[role]
        rows.append(f'<TR><TD BGCOLOR="{colour}" WIDTH="14"> </TD><TD ALIGN="LEFT">{_html(ROLES[role])}</TD></TR>')
    counts = f"{view.shown_nodes} of {view.total_nodes} autograd nodes drawn one by one"
    if view.grouped_nodes:
        counts += f", {view.grouped_nodes} folded into boxes"
        if view.depth is not None:
            counts += f" (module depth {view.depth})"
    if view.hidden_nodes:
        counts += f", {view.hidden_nodes} hidden"
    rows.append(f'<TR><TD COLSPAN="2" ALIGN="LEFT">{_html(counts)}</TD></TR>')
    return f'<<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="3">{"".join(rows)}</TABLE>>'


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
