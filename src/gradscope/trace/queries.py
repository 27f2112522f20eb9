"""Questions about a recorded trace that rules and renderers both ask: graph walks and saved tensors."""

from __future__ import annotations

import os
import re

from .locations import Site, is_library_path
from .call_sites import passed_in_from
from .source_search import assignments, enclosing_condition, imported_modules, same_function, unpacked_argument
from .model import BackwardCall, InplaceChange, Node, SavedTensor, Trace


def reachable(trace: Trace, roots: list[int]) -> list[int]:
    """Ids of the recorded nodes reachable from `roots`, in the order a depth-first walk meets them."""
    seen, order, stack = set(), [], list(roots)
    while stack:
        nid = stack.pop()
        if nid in seen or nid not in trace.nodes:
            continue
        seen.add(nid)
        order.append(nid)
        stack.extend(trace.nodes[nid].next_ids)
    return order


def graph_of(trace: Trace, roots: list[int]) -> set[int]:
    """Ids of the recorded nodes reachable from `roots` (a backward call's graph)."""
    return set(reachable(trace, roots))


def ran_after(trace: Trace, node_id: int, seq: int) -> BackwardCall | None:
    """The first backward call after event `seq` that ran through node `node_id` without failing."""
    for call in trace.backward_calls:
        if call.seq > seq and call.error is None and node_id in graph_of(trace, call.roots):
            return call
    return None


def saved_tensor_of(saved: list[SavedTensor], attr: str, version: int) -> SavedTensor | None:
    """The saved tensor a version failure names: by attribute, at the version it was saved at."""
    candidates = [s for s in saved if s.attr == attr or s.attr.startswith(attr + "[")]
    # (a custom Function's failure names `saved_tensors`, not which one: the one whose version
    # moved after it was saved, when the in-place log knows)
    for s in sorted(candidates, key=lambda s: not (s.version_now is not None and s.version_now != s.version)):
        if s.version == version:
            return s
    return candidates[0] if candidates else None


def changes_after_save(trace, node, saved, call) -> list[InplaceChange]:
    """The in-place changes that made `saved` (saved by `node`) stale before `call` needed it."""
    if node is None and call.version_failure is not None:
        # Saved where gradscope could not look: the changes that took a counter from the saved
        # version to the current one are the suspects.
        failure = call.version_failure
        return [c for c in trace.inplace_changes if c.seq < call.seq and not c.bypasses_version
                and failure.expected_version <= c.version_before < c.version_after <= failure.current_version]
    if node is None or saved is None or saved.storage is None:
        return []
    return [
        c for c in trace.inplace_changes
        if c.storage == saved.storage and node.seq < c.seq < call.seq and c.version_after > saved.version
    ]


def frame_in_caller_of(site, call_site):
    """The frame of `site`'s chain that runs in a function `call_site`'s chain also runs in,
    innermost first: for a tensor made inside a model's forward and a backward in the training
    loop, the loop's line that called the model. None when that frame is `site` itself (or
    when either has no chain to compare)."""
    if site is None or call_site is None:
        return None
    functions = {(frame.path, frame.function) for frame in (*call_site.callers, call_site)}
    for frame in (site, *reversed(site.callers)):
        if (frame.path, frame.function) in functions:
            return None if frame is site else frame
    return None


def model_call_site(trace: Trace, node: Node):
    """Where the outermost module call around `node` was made (`netD(fake)` for a layer deep in
    the discriminator), if elsewhere than the node's own line; None without a module call."""
    call = trace.module_calls.get(root_call(trace, node.module_call)) if node.module_call is not None else None
    site = call.site if call is not None else None
    if site is None or node.site is None:
        return site
    return None if (site.path, site.line) == (node.site.path, node.site.line) else site


def earlier_use(trace: Trace, made: Node, call: BackwardCall, besides: Node | None) -> Node | None:
    """The first node of `call`'s graph (run or freed by it) that took `made`'s output, other
    than `besides`: the use that put a tensor into the graph that call freed."""
    users = [n for n in trace.nodes.values()
             if made.id in n.next_ids and n is not besides and n.seq < call.seq
             and call.index in (n.ran_by, n.freed_by)]
    return min(users, key=lambda n: n.seq, default=None)


def user_files(trace: Trace) -> list[str]:
    """The files of the user's own code that the trace names (where nodes were made, modules
    called, backward calls made), most named first: where to look for a line the record
    cannot hold (a constructor's arguments, an assignment)."""
    counts: dict[str, int] = {}

    def note(site) -> None:
        for place in ([site, *site.callers] if site is not None else []):
            if not is_library_path(place.path) and not place.path.startswith("<"):
                counts[place.path] = counts.get(place.path, 0) + 1

    for node in trace.nodes.values():
        note(node.site)
    for call in trace.module_calls.values():
        note(call.site)
        note(call.registered_at)
    for call in trace.backward_calls:
        note(call.site)
    note(trace.error.site if trace.error is not None else None)  # (a run that failed before any op)
    return sorted(counts, key=lambda path: -counts[path])


def project_files(trace: Trace, limit: int = 40) -> list[str]:
    """The user's files the trace names (user_files), then the Python files beside them that
    those import (a `config.py` that only holds settings runs no op and appears in no record;
    the other scripts of a folder are not the program)."""
    named = user_files(trace)
    found = list(named)
    imported = set().union(*(imported_modules(path) for path in named[:8])) if named else set()
    for folder in dict.fromkeys(os.path.dirname(path) for path in named[:8]):
        try:
            entries = sorted(os.listdir(folder))
        except OSError:
            continue
        for entry in entries:
            path = os.path.join(folder, entry)
            if entry.endswith(".py") and entry[:-3] in imported and path not in found and not is_library_path(path):
                found.append(path)
            if len(found) >= limit:
                return found
    return found


_STEP_CALL = re.compile(r"([A-Za-z_][\w.]*)\.step\(")


def stepped_name(code: str | None) -> str | None:
    """The name an optimizer step is called on, in a line of code (`opt_d` in `opt_d.step()`)."""
    found = _STEP_CALL.search(code) if code else None
    return found.group(1) if found else None


def optimizer_built(step_site):
    """Where the optimizer stepped at `step_site` was assigned (`optimizer = torch.optim.SGD(...)`),
    found in the step's file by the name the step is called on."""
    name = stepped_name(step_site.code) if step_site is not None else None
    if name is None:
        return None
    lines = assignments(step_site.path, name, limit=4)
    # (the function's own assignment first: `model, optimizer = main()` at the bottom of the file
    # takes back what the function that steps it returns)
    own = [line for line in lines if same_function(step_site.path, line, step_site.line)]
    lines = own or lines
    if not lines:
        return None
    # (handed back by a wrapper, `accelerator.prepare(model, optimizer)`: where it was made)
    given = unpacked_argument(step_site.path, lines[-1], name)
    made = assignments(step_site.path, given, before=lines[-1]) if given else []
    if made and same_function(step_site.path, made[-1], lines[-1]):
        return Site(step_site.path, made[-1])
    # (`self.optimizer = optimizer`, given to the trainer: where the caller built it)
    files = list(dict.fromkeys(f.path for f in (*step_site.callers, step_site)
                               if not is_library_path(f.path) and not f.path.startswith("<")))
    made = passed_in_from(step_site.path, lines[-1], files)
    return Site(*made) if made is not None else Site(step_site.path, lines[-1])


def accumulates_into(trace: Trace, node_id: int | None, leaves: set[int], limit: int | None = None) -> bool:
    """Whether the graph behind node `node_id` accumulates into one of `leaves` (at most `limit`
    nodes looked at): what it computes was computed from those leaves."""
    seen, stack = set(), [node_id] if node_id is not None else []
    while stack and (limit is None or len(seen) < limit):
        node = trace.node(stack.pop())
        if node is None or node.id in seen:
            continue
        seen.add(node.id)
        if leaves & set(node.leaf_ids):
            return True
        stack.extend(node.next_ids)
    return False


def extended_after(trace: Trace, node_id: int, seq: int) -> bool:
    """Whether the graph through node `node_id` was built on after event `seq`: a node made
    later consumes, directly or through others, that node's output (the forward went on using
    it). A graph that no later op uses, and no backward ran through, is never used again."""
    consumers: dict[int, list[Node]] = {}
    for node in trace.nodes.values():
        for input_id in node.next_ids:
            consumers.setdefault(input_id, []).append(node)
    seen, stack = {node_id}, [node_id]
    while stack:
        for consumer in consumers.get(stack.pop(), ()):
            if consumer.seq > seq:
                return True
            if consumer.id not in seen:
                seen.add(consumer.id)
                stack.append(consumer.id)
    return False


def made_later_in_function(made: Site | None, other: Site | None) -> bool:
    """Whether what happened at `made` (with its callers) came after the line `other`, by the
    source: a frame of it is a later line of the function `other` is in (`model.head =
    nn.Linear(...)` after `opt = Adam(model.parameters())`; `freeze(model)` before it). The
    order of leaf ids says nothing here: a model may define its layers in any order."""
    if made is None or other is None:
        return False
    return any(frame.path == other.path and frame.line > other.line
               and same_function(frame.path, frame.line, other.line)
               for frame in (made, *made.callers))


def root_call(trace: Trace, cid: int) -> int:
    """The outermost module call around call `cid` (the whole model's forward); `cid` itself
    when it is one, or unknown."""
    call, seen = trace.module_calls.get(cid), set()
    while call is not None and call.parent is not None and call.parent in trace.module_calls and call.id not in seen:
        seen.add(call.id)
        call = trace.module_calls[call.parent]
    return call.id if call is not None else cid


def top_module(trace: Trace, lid: int | None) -> str | None:
    """The top-level module a parameter belongs to (`backbone` for `backbone.3.weight`)."""
    leaf = trace.leaf(lid)
    return leaf.name.split(".", 1)[0] if leaf is not None and leaf.name and "." in leaf.name else None


def classes_run_at(trace: Trace) -> dict[tuple[str, int], set[str]]:
    """For each user line, the classes whose code ran from it: the layers its calls ran
    (the innermost module of each op made there, each module called there) and the custom
    autograd Functions applied there (`KernelConvFunctionBackward`: `KernelConvFunction`)."""
    found: dict[tuple[str, int], set[str]] = {}

    def note(site, name: str) -> None:
        if site is not None and name:
            found.setdefault((site.path, site.line), set()).add(name)

    for node in trace.nodes.values():
        if node.name.endswith("Backward"):  # (torch's own nodes end in a number: MulBackward0)
            note(node.site, node.name[:-len("Backward")])
        call = trace.module_calls.get(node.module_call) if node.module_call is not None else None
        if call is not None:
            note(node.site, call.type)
    for call in trace.module_calls.values():
        note(call.site, call.type)
    return found


def step_condition(step_site: Site | None, backward_site: Site | None) -> Site | None:
    """The `if` around the optimizer step's call, in a function that also makes the backward
    calls (`if (i + 1) % accumulation_steps == 0:`): what lets the step run once per window."""
    backward_frames = [*backward_site.callers, backward_site] if backward_site is not None else []
    for frame in reversed([*step_site.callers, step_site] if step_site is not None else []):
        if is_library_path(frame.path):
            continue
        line = enclosing_condition(frame.path, frame.line)
        if line is not None and any(f.path == frame.path and same_function(f.path, f.line, frame.line)
                                    for f in backward_frames):
            return Site(frame.path, line, frame.function, frame.callers)
    return None
