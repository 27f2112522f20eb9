"""What to draw of a trace: which graph, what to highlight, and how to fit it on a page.

A pure function of the trace (no torch, no Graphviz): `build(trace, options)` returns boxes and
arrows that a renderer turns into DOT. Arrows follow the forward data flow (an input points to
the op that consumed it), so leaves sit at the top and the loss at the bottom.

Fitting large graphs (a transformer has ~1k nodes, an unrolled loop tens of thousands):
  1. `focus`: keep only the neighbourhood of the highlighted nodes;
  2. module boxes: nodes made inside one nn.Module call become one box, at a module depth
     chosen so the drawing stays under `max_boxes` (or the depth asked for);
  3. repeats: connected boxes with the same signature (same source line, or same module
     class) merge into one "×N" box, and so do parallel siblings with the same signature;
  4. a hard cap keeps the boxes nearest to the roots and highlights.
Highlighted nodes are never folded away. Every walk is iterative (no recursion limit).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from ..trace.locations import Site, source_line
from ..trace.model import Node, Trace
from ..trace.queries import changes_after_save, reachable, saved_tensor_of
from ..trace.wording import op_plain, where

# Highlight roles and what they mean (the legend shows those present).
ROLES = {
    "failed": "backward failed here",
    "modified-saved": "saved tensor changed after it was saved",
    "inplace": "in-place change of that tensor",
    "freed": "freed by an earlier backward",
    "used": "reuses the freed graph",
    "leaf-modified": "leaf changed in place",
    "view": "view of the leaf",
    "root": "where backward started",
}


class GraphError(Exception):
    """The requested graph cannot be drawn from this trace (one-line reason)."""


@dataclass
class Options:
    call: int | None = None  # backward call number as shown in reports (1-based)
    focus: bool = False
    radius: int = 4  # hops around highlighted nodes kept by `focus`
    depth: int | None = None  # module depth for boxes; None = choose automatically
    max_boxes: int = 150
    show_saved: bool = True
    color_by: str | None = None  # "grad-norm": fill boxes by gradient norm (needs --grad-flow data)


@dataclass
class Box:
    id: str
    kind: str  # op, leaf, saved, inplace, group, repeat, more
    title: str
    lines: list[str] = field(default_factory=list)
    tooltip: str = ""
    roles: list[str] = field(default_factory=list)
    members: int = 1  # autograd nodes represented
    value: float | None = None  # with color_by: the gradient norm it is coloured by


@dataclass
class Arrow:
    src: str
    dst: str
    kind: str = "flow"  # flow, saved, inplace


@dataclass
class GraphView:
    title: str
    boxes: list[Box]
    arrows: list[Arrow]
    total_nodes: int
    shown_nodes: int  # autograd nodes drawn as their own box
    grouped_nodes: int  # autograd nodes folded into module or repeat boxes
    hidden_nodes: int  # autograd nodes left out (focus, cap)
    depth: int | None
    roles: list[str]
    color_by: str | None = None

    def to_dict(self) -> dict:
        from dataclasses import asdict
        return asdict(self)


# ------------------------------------------------------------------ selection
def select(trace: Trace, call: int | None = None) -> tuple[list[int], str]:
    """Root node ids of the graph to draw, and a sentence saying which graph it is."""
    calls = {c.index: c for c in trace.backward_calls}
    if call is not None:
        chosen = calls.get(call - 1)
        if chosen is None:
            known = ", ".join(f"#{i + 1}" for i in sorted(calls)) or "none"
            raise GraphError(f"there is no backward call #{call} in this trace (recorded: {known})")
        return _alive(trace, chosen.roots, f"backward call #{call}"), f"backward call #{call}"
    for c in trace.backward_calls:
        if c.error is not None:
            return _alive(trace, c.roots, f"failing backward call #{c.index + 1}"), f"failing backward call #{c.index + 1}"
    for failure in trace.op_failures:
        nodes = [t.node for t in failure.tensors if t.node is not None and t.node in trace.nodes]
        leaves = [t.leaf or t.base_leaf for t in failure.tensors if (t.leaf or t.base_leaf)]
        if nodes or leaves:
            return nodes, f"the failing {op_plain(failure.op)} at {_where(failure.site)}"
    for c in reversed(trace.backward_calls):
        roots = [r for r in c.roots if r in trace.nodes]
        if roots:
            return roots, f"backward call #{c.index + 1}"
    if not trace.nodes:
        raise GraphError("no autograd graph was recorded (did the program build one with torch?)")
    consumed = {i for n in trace.nodes.values() for i in n.next_ids}
    return sorted(n for n in trace.nodes if n not in consumed), "every graph alive at the end"


def _alive(trace: Trace, roots: list[int], what: str) -> list[int]:
    alive = [r for r in roots if r in trace.nodes]
    if not alive:
        raise GraphError(f"the graph of {what} was freed before the trace was taken")
    return alive


# ------------------------------------------------------------------ highlights
@dataclass
class _Highlights:
    nodes: dict[int, list[str]] = field(default_factory=dict)
    leaves: dict[int, list[str]] = field(default_factory=dict)
    stale_saved: tuple[int, str] | None = None  # (node id, attr)
    changes: list = field(default_factory=list)

    def mark(self, nid: int | None, role: str) -> None:
        if nid is not None:
            roles = self.nodes.setdefault(nid, [])
            if role not in roles:
                roles.append(role)


def _highlights(trace: Trace, roots: list[int]) -> _Highlights:
    found = _Highlights()
    root_set = set(roots)
    backward_roots = {r for c in trace.backward_calls for r in c.roots}
    for root in roots:
        if root in backward_roots:
            found.mark(root, "root")
    for call in trace.backward_calls:
        if not root_set.intersection(call.roots):
            continue
        failure = call.version_failure
        if failure is not None and failure.node in trace.nodes:
            node = trace.nodes[failure.node]
            found.mark(node.id, "failed")
            found.stale_saved = (node.id, failure.attr)
            saved = saved_tensor_of(node.saved, failure.attr, failure.expected_version)
            found.changes = changes_after_save(trace, node, saved, call)
        for freed in call.freed_failures:
            found.mark(freed.freed_node, "freed")
            found.mark(freed.consumer_node, "used")
        found.mark(call.failed_node, "failed")
    for failure in trace.op_failures:
        for arg in failure.tensors:
            leaf = arg.base_leaf or arg.leaf
            if leaf is not None and "leaf Variable" in failure.error.message:
                found.leaves.setdefault(leaf, []).append("leaf-modified")
                if arg.node is not None and arg.node in root_set:
                    found.mark(arg.node, "view")
    return found


# ------------------------------------------------------------------ building
def build(trace: Trace, options: Options | None = None, source: dict[str, str] | None = None) -> GraphView:
    options = options or Options()
    roots, what = select(trace, options.call)
    nodes = reachable(trace, roots)
    marks = _highlights(trace, roots)
    code = _CodeLookup(source)
    total = len(nodes)

    kept = set(nodes)
    if options.focus and marks.nodes:
        kept = _neighbourhood(trace, kept, set(marks.nodes), options.radius)
    # unit: what each kept node is drawn as (itself, or a module/repeat box)
    unit, depth = _fit(trace, kept, marks, options)
    shown_units = _cap(trace, kept, unit, roots, marks, options.max_boxes)

    boxes: dict[str, Box] = {}
    arrows: list[Arrow] = []
    members: dict[str, list[int]] = {}
    for nid in kept:
        u = unit[nid]
        if u in shown_units:
            members.setdefault(u, []).append(nid)
    for u, ids in members.items():
        boxes[u] = _box(trace, u, ids, marks, code)
    seen_arrows = set()
    for u, ids in members.items():
        for nid in ids:
            node = trace.nodes[nid]
            for inp in node.next_ids:
                src = unit.get(inp)
                if src is None or src == u or src not in shown_units or (src, u) in seen_arrows:
                    continue
                seen_arrows.add((src, u))
                arrows.append(Arrow(src, u))
            if boxes[u].kind == "op":
                _add_leaves(trace, node, u, boxes, arrows, marks)
                if options.show_saved:
                    _add_saved(trace, node, u, boxes, arrows, marks, code)
    _add_failing_ops(trace, roots, boxes, arrows, marks, code)
    hidden = total - sum(len(ids) for ids in members.values())
    if hidden:
        boxes["more"] = Box("more", "more", f"{hidden} more nodes not drawn",
                            ["use --focus, --depth or --call to see them"])
    shown = sum(1 for b in boxes.values() if b.kind == "op")
    roles = sorted({r for b in boxes.values() for r in b.roles}, key=list(ROLES).index)
    if options.color_by == "grad-norm":
        _colour_by_grad_norm(trace, boxes)
    return GraphView(
        title=f"gradscope: autograd graph of {what}", boxes=list(boxes.values()), arrows=arrows,
        total_nodes=total, shown_nodes=shown, grouped_nodes=total - hidden - shown,
        hidden_nodes=hidden, depth=depth, roles=roles, color_by=options.color_by)


def _colour_by_grad_norm(trace: Trace, boxes: dict[str, Box]) -> None:
    """Give each box the gradient norm of the last backward: a parameter's own, an op's (or a
    module box's) that of the output of the module it ran in."""
    flow = trace.grad_flow
    if flow is None:
        raise GraphError("this trace has no gradient statistics: record it with "
                         "`gradscope run --grad-flow --trace PATH` (or draw the script directly)")
    by_leaf = {s.leaf: s.last_norm() for s in flow.series if s.kind == "parameter" and s.leaf is not None}
    by_module = {s.module: s.last_norm() for s in flow.series if s.kind == "output" and s.module is not None}
    for box in boxes.values():
        call = None
        if box.id.startswith("l"):
            box.value = by_leaf.get(int(box.id[1:]))
            continue
        if box.id.startswith("n"):
            node = trace.nodes.get(int(box.id[1:]))
            call = trace.module_calls.get(node.module_call) if node and node.module_call is not None else None
        elif box.id.startswith("g"):
            call = trace.module_calls.get(int(box.id[1:]))
        while call is not None and by_module.get(call.name) is None and call.parent is not None:
            call = trace.module_calls.get(call.parent)  # a functional op inside a watched module
        if call is not None:
            box.value = by_module.get(call.name)
        if box.value is not None:
            box.lines.append(f"grad norm {box.value:.2e}")


def _neighbourhood(trace: Trace, kept: set[int], centres: set[int], radius: int) -> set[int]:
    consumers: dict[int, list[int]] = {}
    for nid in kept:
        for inp in trace.nodes[nid].next_ids:
            consumers.setdefault(inp, []).append(nid)
    distance = {c: 0 for c in centres if c in kept}
    queue = deque(distance)
    while queue:
        nid = queue.popleft()
        if distance[nid] == radius:
            continue
        for other in [*trace.nodes[nid].next_ids, *consumers.get(nid, ())]:
            if other in kept and other not in distance:
                distance[other] = distance[nid] + 1
                queue.append(other)
    return set(distance)


def _module_path(trace: Trace, node: Node) -> list[int]:
    path, call = [], node.module_call
    while call is not None and call in trace.module_calls:
        path.append(call)
        call = trace.module_calls[call].parent
    return path[::-1]


def _fit(trace, kept, marks, options) -> tuple[dict[int, str], int | None]:
    """Choose module depth and repeat folding so that about `max_boxes` boxes remain.

    The deepest module depth that fits wins (most detail); repeats are folded only where the
    boxes would not fit otherwise.
    """
    paths = {nid: _module_path(trace, trace.nodes[nid]) for nid in kept}

    def units_at(depth):
        unit = {}
        for nid in kept:
            path = paths[nid]
            if depth is not None and len(path) > depth and nid not in marks.nodes:
                unit[nid] = f"g{path[depth]}"
            else:
                unit[nid] = f"n{nid}"
        return unit

    def fitted(depth):
        unit = units_at(depth)
        if len(set(unit.values())) > options.max_boxes:
            unit = _merge_repeats(trace, kept, unit, marks)
        return unit

    if options.depth is not None:
        return fitted(options.depth), options.depth
    if len(kept) <= options.max_boxes:
        return units_at(None), None
    deepest = max((len(p) for p in paths.values()), default=0)
    unit = None
    # Module boxes first (a model's structure), folding by source line last (a loop of ops).
    for depth in [*range(deepest - 1, -1, -1), None]:
        unit = fitted(depth)
        if len(set(unit.values())) <= options.max_boxes:
            return unit, depth
    return unit, None


def _signature(trace: Trace, unit: str, ids: list[int]) -> tuple | None:
    if unit.startswith("g"):
        return ("module", trace.module_calls[int(unit[1:])].type)
    site = trace.nodes[ids[0]].site
    return ("line", site.path, site.line) if site is not None else None


def _merge_repeats(trace, kept, unit, marks) -> dict[int, str]:
    """Fold connected units with one signature (a loop, stacked layers) into one box."""
    members: dict[str, list[int]] = {}
    for nid in kept:
        members.setdefault(unit[nid], []).append(nid)
    pinned = {f"n{n}" for n in marks.nodes}
    signature = {u: _signature(trace, u, ids) for u, ids in members.items()}
    parent = {u: u for u in members}

    def find(u):
        while parent[u] != u:
            parent[u] = parent[parent[u]]
            u = parent[u]
        return u

    inputs: dict[str, set[str]] = {u: set() for u in members}
    consumers: dict[str, set[str]] = {u: set() for u in members}
    for nid in kept:
        for inp in trace.nodes[nid].next_ids:
            if inp in kept and unit[inp] != unit[nid]:
                inputs[unit[nid]].add(unit[inp])
                consumers[unit[inp]].add(unit[nid])
    for u in members:  # chains: an input with the same signature
        for v in inputs[u]:
            if signature[u] is not None and signature[u] == signature[v] and u not in pinned and v not in pinned:
                a, b = find(u), find(v)
                if a != b:
                    parent[b] = a
    siblings: dict[tuple, list[str]] = {}  # parallel copies feeding the same consumers
    for u in members:
        if u in pinned or signature[u] is None:
            continue
        key = (signature[u], frozenset(find(c) for c in consumers[u]), frozenset(find(i) for i in inputs[u]))
        siblings.setdefault(key, []).append(u)
    for group in siblings.values():
        for other in group[1:]:
            a, b = find(group[0]), find(other)
            if a != b:
                parent[b] = a
    groups: dict[str, list[str]] = {}
    for u in members:
        groups.setdefault(find(u), []).append(u)
    # Keep the first and the last of a long run as they are, so the drawing shows what repeats.
    first_seq = {u: min(trace.nodes[n].seq for n in ids) for u, ids in members.items()}
    folded: dict[str, str] = {}
    for root, group in groups.items():
        if len(group) < 2:
            continue
        group.sort(key=first_seq.__getitem__)
        inner = group[1:-1] if len(group) >= 4 else group
        for u in inner:
            folded[u] = f"r{root}"
    return {nid: folded.get(unit[nid], unit[nid]) for nid in kept}


def _cap(trace, kept, unit, roots, marks, max_boxes) -> set[str]:
    units = set(unit[n] for n in kept)
    limit = max(max_boxes * 2, 50)
    if len(units) <= limit:
        return units
    chosen: set[str] = set()  # breadth first from the highlights and roots
    queue = deque([*marks.nodes, *roots])
    visited = set()
    while queue and len(chosen) < limit:
        nid = queue.popleft()
        if nid in visited or nid not in kept:
            continue
        visited.add(nid)
        chosen.add(unit[nid])
        queue.extend(trace.nodes[nid].next_ids)
    return chosen


# ------------------------------------------------------------------ boxes
class _CodeLookup:
    def __init__(self, source: dict[str, str] | None):
        self.source = source

    def __call__(self, site: Site | None) -> str:
        if site is None:
            return ""
        if self.source is not None:
            return self.source.get(f"{site.path}:{site.line}", "")
        return source_line(site.path, site.line)


def _where(site: Site | None) -> str:
    return where(site, "?")


def _tip(site: Site | None, code: _CodeLookup) -> str:
    """Tooltip text: where, and the line of code (SVG viewers show it on hover)."""
    text = code(site)
    return f"{_where(site)}: {text}" if text else _where(site)


def _box(trace: Trace, unit: str, ids: list[int], marks: _Highlights, code: _CodeLookup) -> Box:
    nodes = [trace.nodes[n] for n in ids]
    if unit.startswith("n"):
        node = nodes[0]
        title = node.name
        lines = [_where(node.site) + (" (first seen)" if node.first_seen_late else "")]
        if node.module_call is not None and node.module_call in trace.module_calls:
            call = trace.module_calls[node.module_call]
            lines.append(f"in {call.type}" + (f" {call.name}" if call.name else ""))
        tooltip = _tip(node.site, code) if node.site else node.name
        return Box(unit, "op", title, lines, tooltip, list(marks.nodes.get(node.id, [])), 1)
    if unit.startswith("g"):
        call = trace.module_calls[int(unit[1:])]
        title = call.type + (f" ({call.name})" if call.name else "")
        return Box(unit, "group", title, [f"{len(nodes)} autograd nodes"], title, [], len(nodes))
    # a repeat box: many units folded into one
    sites = sorted({(n.site.path, n.site.line) for n in nodes if n.site}, key=lambda s: s[1])
    types = sorted({trace.module_calls[n.module_call].type for n in nodes
                    if n.module_call is not None and n.module_call in trace.module_calls})
    title = f"×{len(nodes)} nodes"
    lines = [f"{_where(Site(*sites[0]))}" + (f" … :{sites[-1][1]}" if len(sites) > 1 else "")] if sites else []
    if types and len(types) <= 3:
        lines.append("in " + ", ".join(types))
    names = sorted({n.name for n in nodes})
    lines.append(", ".join(names[:3]) + (" …" if len(names) > 3 else ""))
    tooltip = _tip(Site(*sites[0]), code) if sites else title
    return Box(unit, "repeat", title, lines, tooltip, [], len(nodes))


def _add_failing_ops(trace, roots, boxes, arrows, marks, code) -> None:
    """An in-place op on a leaf fails before it makes a node: draw the op and the leaf."""
    if trace.backward_calls and any(c.error is not None for c in trace.backward_calls):
        return
    for i, failure in enumerate(trace.op_failures):
        targets = []
        for arg in failure.tensors:
            if arg.node is not None and f"n{arg.node}" in boxes:
                targets.append(f"n{arg.node}")
            elif (arg.leaf or arg.base_leaf) in marks.leaves:
                targets.append(_leaf_box(trace, arg.leaf or arg.base_leaf, boxes, marks))
        if not targets:
            continue
        box_id = f"f{i}"
        boxes[box_id] = Box(box_id, "inplace", f"in-place {op_plain(failure.op)}",
                            [_where(failure.site), f"raised {failure.error.type}"], _tip(failure.site, code),
                            ["inplace"])
        for target in targets:
            arrows.append(Arrow(box_id, target, "inplace"))


def _leaf_box(trace, lid, boxes, marks) -> str:
    box_id = f"l{lid}"
    if box_id not in boxes:
        leaf = trace.leaves.get(lid)
        name = (leaf.name or leaf.owner) if leaf else None
        shape = f"[{', '.join(str(d) for d in leaf.shape)}] {leaf.dtype}" if leaf else ""
        title = name or "leaf tensor"
        lines = [shape] + ([_where(leaf.site)] if leaf and leaf.site else [])
        boxes[box_id] = Box(box_id, "leaf", title, lines, f"{title} {shape}", list(marks.leaves.get(lid, [])))
    return box_id


def _add_leaves(trace, node, unit, boxes, arrows, marks) -> None:
    for lid in node.leaf_ids:
        arrows.append(Arrow(_leaf_box(trace, lid, boxes, marks), unit))


def _add_saved(trace, node, unit, boxes, arrows, marks, code) -> None:
    for k, saved in enumerate(node.saved):
        box_id = f"s{node.id}_{k}"
        now = saved.version_now if saved.version_now is not None else saved.version
        culprit = marks.stale_saved == (node.id, saved.attr.split("[")[0])
        # Changed before its node's backward ran (or with no backward yet): a change after it (the
        # optimizer's step) is how training goes, not a hazard.
        before_backward = saved.version_at_backward if saved.version_at_backward is not None else now
        stale = culprit or before_backward != saved.version
        version = f"v{saved.version}" + (f" → now v{now}" if now != saved.version else "")
        boxes[box_id] = Box(box_id, "saved", saved.attr.replace("_saved_", "saved "),
                            [f"[{', '.join(str(d) for d in saved.shape)}] {saved.dtype}", version],
                            f"{saved.attr} of {node.name}", ["modified-saved"] if stale else [])
        arrows.append(Arrow(box_id, unit, "saved"))
        if culprit:
            for i, change in enumerate(marks.changes):
                change_id = f"i{node.id}_{i}"
                boxes[change_id] = Box(change_id, "inplace", f"in-place {op_plain(change.op)}",
                                       [_where(change.site), f"v{change.version_before} → v{change.version_after}"],
                                       _tip(change.site, code), ["inplace"])
                arrows.append(Arrow(change_id, box_id, "inplace"))
