"""An in-place change of a leaf that requires grad (or of a view of one), made with grad on.

torch raises at the op itself ("a leaf Variable that requires grad is being used in an
in-place operation", or "a view of a leaf Variable ..."). We name the leaf, where it was made,
the view (if any) and the line, and tell apart a hand-written update from initialisation.
"""

from __future__ import annotations

import re

from ..trace.findings import Finding, Location
from ..trace.locations import Site, is_library_path, source_line, user_site
from ..trace.queries import project_files
from ..trace.model import OpFailure, Trace
from ..trace.source_search import assignments, reads_gradient_of, same_function, sibling_writes, writes_into_same_object
from ._words import leaf_words, op_words, uncaught_note, where

RULE_ID = "inplace-on-leaf"

_LEAF = "a leaf Variable that requires grad"
_VIEW_OF_LEAF = "a view of a leaf Variable that requires grad"
_UPDATES = {"__isub__", "__iadd__", "__imul__", "__itruediv__", "sub_", "add_", "mul_", "div_",
            "addcmul_", "addcdiv_", "lerp_"}
_INITS = {"fill_", "zero_", "normal_", "uniform_", "copy_", "constant_", "xavier_uniform_",
          "kaiming_uniform_", "ones_", "zeros_", "eye_", "orthogonal_", "random_", "bernoulli_"}


def check(trace: Trace) -> list[Finding]:
    return [_explain(trace, i, failure) for i, failure in enumerate(trace.op_failures)
            if _LEAF in failure.error.message]


def _explain(trace: Trace, index: int, failure: OpFailure) -> Finding:
    arg = failure.tensors[0] if failure.tensors else None
    is_view = _VIEW_OF_LEAF in failure.error.message
    leaf = trace.leaf(arg.base_leaf if (arg and is_view) else (arg.leaf if arg else None))
    view_node = _first_view(trace, trace.node(arg.node), leaf.id if leaf else None) if (arg and is_view) else None
    if leaf is None and arg is not None and arg.leaf is not None:
        leaf = trace.leaf(arg.leaf)  # (`x[i] = v` on the leaf itself: torch writes through a view of it)
    if leaf is None and view_node is not None and view_node.leaf_ids:
        leaf = trace.leaf(view_node.leaf_ids[0])  # (the view's own record says whose view it is)

    finding = Finding(
        rule=RULE_ID, severity="error",
        title=("In-place change of a view of a leaf that requires grad" if is_view
               else "In-place change of a leaf tensor that requires grad"),
        explanation="", fix="", details={**uncaught_note(trace, failure_index=index),
                                         "leaf": leaf.name or leaf.owner if leaf else None})
    finding.add(Location.at(leaf.site if leaf else None, "created", "leaf created"))
    if view_node is not None:
        finding.add(Location.at(view_node.site, "view", "view of the leaf taken"))
    finding.add(Location.at(failure.site, "modified", f"in-place {op_words(failure.op)}"))
    siblings = [Site(failure.site.path, line, failure.site.function)
                for line in sibling_writes(failure.site.path, failure.site.line)] if failure.site else []
    for site in siblings:
        finding.add(Location.at(site, "modified", "the same tensor, changed in place again"))

    target = f"a view (taken at {where(view_node.site)}) of " if view_node else ("a view of " if is_view else "")
    finding.explanation = (
        f"{op_words(failure.op)} at {where(failure.site)} writes in place into {target}{leaf_words(leaf)}"
        f"{f', created at {where(leaf.site)}' if leaf and leaf.site else ''}, while gradient tracking is "
        "on. Autograd cannot record a change to a leaf: its .grad would no longer belong to the "
        "value you started from."
        + (f" The same tensor is changed in place again at {', '.join(where(s) for s in siblings)}: the "
           "fix is due there too." if siblings else ""))
    # (`+=` in a function called `_initialize_biases` is an initialisation, not an update step)
    written_in = user_site(failure.site) or failure.site
    initialising = failure.op in _INITS or bool(re.search(r"(^|_)init", (written_in.function if written_in else None) or ""))
    why = ("writes in place into a tensor autograd tracks"
           + (" (an initialisation: do it under `with torch.no_grad():`)" if initialising else
              " (a hand-written update: do it under `with torch.no_grad():`)" if failure.op in _UPDATES else
              ": make the change under `with torch.no_grad():`, or on a clone"))
    view_site = user_site(view_node.site) if view_node is not None else None
    write_site = user_site(failure.site)
    separate_view = view_site is not None and write_site is not None and view_site.line != write_site.line \
        and view_site.path == write_site.path
    if separate_view and siblings:  # one change at the view fixes every write through it
        finding.mark_fix(view_site, "takes the view of the parameter that every write below goes through: take it "
                                    "of `.data` (or under `with torch.no_grad():`)")
    others = writes_into_same_object(write_site.path, write_site.line) \
        if write_site is not None and not siblings and not separate_view else []
    if others and write_site.callers:
        # (the function writes several tensors of one object in place, `cconv.weight[...]` and
        # `cconv.bias[:]`: its callers' lines are where one change covers them all)
        for caller in list(reversed(write_site.callers))[:2]:
            finding.mark_fix(caller, f"calls the code whose in-place writes at lines "
                                     f"{', '.join(str(n) for n in [write_site.line, *others])} change tensors autograd "
                                     "tracks: run this call under `with torch.no_grad():`")
    # Data made to require grad (`batch.requires_grad_(True)`) whose gradient the program never
    # reads: nothing needs it tracked, and the write into it is ordinary preprocessing.
    marked = _data_marked_trainable(trace, leaf)
    handed = _library_leaf_taken_at(leaf, view_site)
    if handed is not None:
        finding.mark_fix(handed, "takes a tensor that library code made a leaf requiring grad (a hook on the "
                                 "module's output): take a copy here (`.clone()`), which autograd tracks, and "
                                 "write into that")
    elif marked is not None:
        finding.mark_fix(marked, "makes this data tensor a leaf that requires grad, and no line of the program "
                                 "reads its gradient (`.grad`, autograd.grad): drop it, unless its gradient is "
                                 "wanted (then write into a clone)")
    finding.mark_fix(write_site, why)
    if separate_view and not siblings:
        finding.mark_fix(view_site, "takes the view of the parameter the write goes through: take it of `.data` "
                                    "(or under `with torch.no_grad():`)")
    if failure.op in _UPDATES and not initialising:
        finding.fix = ("This looks like a hand-written update step. Wrap it in `with torch.no_grad():` "
                       "(e.g. `with torch.no_grad(): w -= lr * w.grad`), or let a torch.optim "
                       "optimizer do it.")
    elif initialising:
        finding.fix = ("To initialise a parameter, do it under `with torch.no_grad():` or with the "
                       "torch.nn.init functions, which do that for you.")
    else:
        finding.fix = ("If the change is not meant to be differentiated, make it under "
                       "`with torch.no_grad():`. If it is, change a copy: `x = x.clone()` first, then "
                       "modify x (the clone is part of the graph).")
    return finding


_SETS_REQUIRES_GRAD = re.compile(r"^\s*(\w+)(?:\.requires_grad_\(\s*(?:True)?\s*\)|\.requires_grad\s*=\s*True)")


def _data_marked_trainable(trace: Trace, leaf) -> Site | None:
    """The line that made a data tensor (not a parameter) require grad in place, when no file of
    the program reads the gradient of that name (`name.grad`) or asks autograd.grad for one."""
    site = user_site(leaf.site) if leaf is not None and leaf.kind == "tensor" else None
    marked = _SETS_REQUIRES_GRAD.match(source_line(site.path, site.line)) if site is not None else None
    if marked is None:
        return None
    if any(reads_gradient_of(path, marked.group(1)) for path in project_files(trace)):
        return None
    return site


def _library_leaf_taken_at(leaf, view_site: Site | None) -> Site | None:
    """For a leaf that library code made (not a parameter: a module output a hook set to require
    grad), the program's statement that bound the name the view was taken of: where it came in."""
    if leaf is None or leaf.kind != "tensor" or leaf.site is None or not is_library_path(leaf.site.path) \
            or view_site is None:
        return None
    read = re.match(r"^\s*\w+\s*=\s*(\w+)\s*[.\[]", source_line(view_site.path, view_site.line))
    lines = assignments(view_site.path, read.group(1), before=view_site.line) if read else []
    if not lines or not same_function(view_site.path, lines[-1], view_site.line):
        return None
    return Site(view_site.path, lines[-1], view_site.function, view_site.callers)


_VIEW_NODES = ("ViewBackward", "SliceBackward", "SelectBackward", "AsStridedBackward", "UnsqueezeBackward",
               "SqueezeBackward", "TBackward", "TransposeBackward", "PermuteBackward", "ExpandBackward",
               "UnfoldBackward", "SplitBackward", "ChunkBackward", "NarrowBackward", "DiagonalBackward",
               "AliasBackward", "ReshapeAliasBackward", "UnbindBackward", "ViewAsRealBackward",
               "ViewAsComplexBackward")


def _first_view(trace: Trace, node, leaf_id: int | None):
    """The view taken of the leaf itself, walking back from the view written into through views
    of views (`b = w.view(3, -1)` for a write into `b[:, 4]`): where the aliasing began."""
    first, seen = node, set()
    while node is not None and node.id not in seen:
        seen.add(node.id)
        if not node.name.startswith(_VIEW_NODES):
            break
        first = node
        if leaf_id is not None and leaf_id in node.leaf_ids:
            break
        node = trace.node(node.next_ids[0]) if len(node.next_ids) == 1 else None
    return first
