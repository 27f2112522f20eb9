"""A GraphView as Graphviz DOT text (built with the `graphviz` package, which does the quoting)."""

from __future__ import annotations

import graphviz

from .graphview import ROLES, GraphView

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
    graph.attr("node", fontname="Helvetica", fontsize=str(_FONT_SIZE))
    graph.attr("edge", color="#6b7280", arrowsize="0.6")
    scale = _scale(view)
    for box in view.boxes:
        attrs = dict(_KIND_STYLE.get(box.kind, {}))
        role = next((r for r in ROLES if r in box.roles), None)
        if role is not None and role != "root":
            attrs.update(color=_ROLE_COLOUR[role], penwidth="2.5", fontcolor=_ROLE_COLOUR[role])
        elif role == "root":
            attrs.update(penwidth="2")
        if view.color_by and box.value is not None and scale is not None:
            attrs.update(style="filled" + (",rounded" if box.kind == "op" else ""), fillcolor=_heat(box.value, scale))
        lines = [line for line in [box.title, *box.lines] if line]
        label = "\\n".join(graphviz.escape(line) for line in lines)
        attrs["width"] = _min_width(lines, float(attrs.get("fontsize", _FONT_SIZE)))
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


_FONT_SIZE = 10


def _min_width(lines: list[str], font_size: float) -> str:
    """A box width (inches) that holds the longest line. Renderers measure text with their own
    font metrics; graphviz-pure's are narrower than the fonts browsers draw Helvetica with, so
    its boxes cut long labels at both edges. A generous estimate (0.62 em a character) is a
    minimum width, which full Graphviz honours too."""
    longest = max((len(line) for line in lines), default=0)
    return f"{(longest * font_size * 0.62 + 18) / 72:.2f}"


def _legend(view: GraphView) -> str:
    """An HTML-like table: the highlight colours used, and how much of the graph is drawn."""
    rows = []
    for role in view.roles:
        colour = _ROLE_COLOUR[role]
        rows.append(f'<TR><TD BGCOLOR="{colour}" WIDTH="14"> </TD><TD ALIGN="LEFT">{_html(ROLES[role])}</TD></TR>')
    scale = _scale(view)
    if scale is not None:
        low, high = scale
        cells = "".join(f'<TD BGCOLOR="{_heat(10 ** (low + (high - low) * k / 4), scale)}" WIDTH="14"> </TD>'
                        for k in range(5))
        rows.append('<TR><TD ALIGN="LEFT" COLSPAN="2">gradient norm at the last backward (log scale)</TD></TR>')
        rows.append(f'<TR><TD COLSPAN="2"><TABLE BORDER="0" CELLSPACING="0" CELLPADDING="2"><TR>'
                    f'<TD>1e{low:.0f}</TD>{cells}<TD>1e{high:.0f}</TD></TR></TABLE></TD></TR>')
    counts = f"{view.shown_nodes} of {view.total_nodes} autograd nodes drawn one by one"
    if view.grouped_nodes:
        counts += f", {view.grouped_nodes} folded into boxes"
        if view.depth is not None:
            counts += f" (module depth {view.depth})"
    if view.hidden_nodes:
        counts += f", {view.hidden_nodes} hidden"
    rows.append(f'<TR><TD COLSPAN="2" ALIGN="LEFT">{_html(counts)}</TD></TR>')
    return f'<<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="3">{"".join(rows)}</TABLE>>'


# Cool (small gradient) to hot (large): blue, cyan, yellow, orange, red.
_HEAT = [(0.23, 0.35, 0.85), (0.30, 0.75, 0.93), (0.99, 0.91, 0.45), (0.98, 0.60, 0.25), (0.86, 0.15, 0.15)]


def _scale(view: GraphView) -> tuple[float, float] | None:
    """The log10 range of the box values, widened to whole decades."""
    import math

    values = [b.value for b in view.boxes if b.value is not None and b.value > 0]
    if not view.color_by or not values:
        return None
    low, high = math.floor(math.log10(min(values))), math.ceil(math.log10(max(values)))
    return float(low), float(max(high, low + 1))


def _heat(value: float, scale: tuple[float, float]) -> str:
    import math

    low, high = scale
    t = 0.0 if value <= 0 else min(1.0, max(0.0, (math.log10(value) - low) / (high - low)))
    position = t * (len(_HEAT) - 1)
    i = min(int(position), len(_HEAT) - 2)
    f = position - i
    rgb = [a + (b - a) * f for a, b in zip(_HEAT[i], _HEAT[i + 1])]
    return "#" + "".join(f"{int(round(c * 255)):02x}" for c in rgb)


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
