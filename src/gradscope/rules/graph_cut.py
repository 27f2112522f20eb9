"""Backward on a tensor with no graph ("element 0 of tensors does not require grad and does not
have a grad_fn"), and the "fix" that silences it without training anything.

The recorder remembers where values that depended on tensors requiring grad stopped requiring
it (a no_grad block, .detach(), .item(), torch.tensor(t), argmax, ...), and which results
descend from that cut. From the tensor backward was given we name the cut.
"""

from __future__ import annotations

import re

from ..analyses.settings import options_read
from ..trace.findings import Finding, Location
from ..trace.locations import Site, is_library_path, source_line, user_site
from ..trace.queries import project_files
from ..trace.source_search import class_bases, enclosing_class, enclosing_loop, keyword_uses, loops_over_an_argument
from ..trace.model import BackwardCall, Trace
from . import _cuts
from ._words import call_words, op_words, shape_words, uncaught_note, where

RULE_ID = "backward-without-graph"
REVIVAL_RULE_ID = "requires-grad-on-detached-result"

_NO_GRAPH = re.compile(r"element (\d+) of tensors does not require grad and does not have a grad_fn")


def check(trace: Trace) -> list[Finding]:
    findings = []
    for call in trace.backward_calls:
        found = _NO_GRAPH.search(call.error.message) if call.error else None
        if found:
            findings.append(_explain(trace, call, int(found.group(1))))
    return findings


_FREEZES_ALL = re.compile(r"requires_grad\s*=\s*False|requires_grad_\(\s*False\s*\)")


def _explain(trace: Trace, call: BackwardCall, index: int) -> Finding:
    tensor = call.outputs[index] if index < len(call.outputs) else None
    cut = trace.cut(tensor.cut if tensor else None)
    finding = Finding(rule=RULE_ID, severity="error",
                      title="Backward on a tensor that has no graph",
                      explanation="", fix="", details=uncaught_note(trace, call=call))
    what = f"a {shape_words(tensor.shape, tensor.dtype)} tensor" if tensor else "a tensor"
    start = (f"{call_words(call)} was given {what} that does not require grad, so there is no graph "
             "to go back through.")
    if cut is not None:
        option_fix = _cuts.name_cut(finding, trace, cut)
        finding.explanation = f"{start} It was computed from tensors that required grad, but {_cuts.sentence(cut)}."
        finding.fix = option_fix or _cuts.fix(cut)
        # (frozen parameters are why a region's inputs need no grad: a reentrant checkpoint's, say)
        for freeze in _cuts.freezes_before(trace, call)[:2]:
            finding.add(Location.at(freeze.site, "frozen", "parameters frozen before this backward"))
    elif call.total_params and not call.trainable_params:
        freezes = _cuts.freezes_before(trace, call)[:4]
        for freeze in freezes:
            finding.add(Location.at(freeze.site, "frozen", "parameters frozen"))
        if len(freezes) == 1:
            # (a freezing helper that loops over the model it is handed: its caller chose to hand it
            # the whole model, head included)
            frozen_at = user_site(freezes[0].site)
            if frozen_at is not None and not _FREEZES_ALL.search(source_line(frozen_at.path, frozen_at.line)):
                frozen_at = None  # (a computed flag, `= name.startswith(prefix)`: what it reads decides)
            caller = next((f for f in reversed(frozen_at.callers) if not is_library_path(f.path)), None) \
                if frozen_at is not None and loops_over_an_argument(frozen_at.path, frozen_at.line) else None
            loop = enclosing_loop(frozen_at.path, frozen_at.line) if frozen_at is not None else None
            if caller is not None:
                finding.mark_fix(caller, f"hands `{frozen_at.function}` the whole model, which freezes every "
                                         "parameter it is given: pass only the part to freeze (or exclude the "
                                         "layers that train)")
            elif loop is not None and "parameters(" in source_line(frozen_at.path, loop[0]):
                finding.mark_fix(Site(frozen_at.path, loop[0], frozen_at.function, frozen_at.callers),
                                 "loops over every parameter of the model, the layers meant to train too: loop "
                                 "over the part to freeze only")
            finding.mark_fix(freezes[0].site, "freezes the parameters this loss would train: every parameter "
                                              "now has requires_grad=False")
        if not freezes:
            _built_frozen(trace, finding)
        finding.explanation = (f"{start} Every parameter of the model ({call.total_params} tensors) has "
                               "requires_grad=False: all of them are frozen"
                               + (f" (at {', '.join(where(f.site) for f in freezes)})" if freezes else "")
                               + ", so nothing in the loss depends on a tensor that requires grad.")
        finding.fix = ("Unfreeze the parameters you mean to train (`p.requires_grad_(True)`), or do not call "
                       "backward when nothing is trainable.")
    else:
        escape = _last_escape(trace, call)
        if escape is not None:
            finding.add(Location.at(escape.site, "cut", f"value left autograd ({op_words(escape.op)})"))
            finding.mark_fix(escape.site, f"{op_words(escape.op)} turns the tensor into a Python number here; "
                                          "the loss rebuilt from it has no graph")
            finding.explanation = (f"{start} The value left autograd at {where(escape.site)} "
                                   f"({op_words(escape.op)} turns a tensor into a Python number), and the "
                                   "tensor backpropagated was rebuilt from plain numbers.")
            finding.fix = ("Keep the loss a tensor: use it directly instead of `.item()`/`float()`/NumPy, and "
                           "call `.item()` only to log it.")
        else:
            finding.explanation = (f"{start} It was computed only from tensors that never required grad "
                                   "(data, constants, or tensors made under no_grad before recording started).")
            finding.fix = ("Make sure the loss is computed from the model's output, and that the parameters "
                           "you train have requires_grad=True.")
    finding.explanation += (" Setting `loss.requires_grad = True` would silence the error but train "
                            "nothing: the parameters would still get no gradient.")
    finding.add(Location.at(call.site, "backward", "backward fails here"))
    return finding


def _last_escape(trace: Trace, call: BackwardCall):
    earlier = [e for e in trace.escapes if e.seq < call.seq and e.backwards_before == call.index]
    return max(earlier, key=lambda e: e.seq, default=None)


def check_revival(trace: Trace) -> list[Finding]:
    findings = []
    for revival in trace.revivals:
        if _gradient_asked_for(trace, revival):
            continue
        if revival.site is not None and is_library_path(revival.site.path):
            continue  # set by library code (a checkpointing hook that makes embeddings require grad)
        if _in_function_forward(revival.site):
            continue  # (a custom Function's forward makes leaves its own backward differentiates)
        cut = trace.cut(revival.cut)
        finding = Finding(
            rule=REVIVAL_RULE_ID, severity="warning",
            title="requires_grad set on a result cut from the graph: it trains nothing",
            explanation=(f"At {where(revival.site)} `requires_grad` is switched on for a tensor computed from "
                         f"tensors that required grad, after {_cuts.sentence(cut) if cut else 'the graph was cut'}. "
                         "Backward then runs without error but stops at this tensor: the parameters "
                         "before the cut get no gradient."),
            fix=(_cuts.fix(cut) if cut else "Keep the computation on the graph.")
            + (" Then drop its `requires_grad=True`." if cut and cut.site == revival.site
               else " Then remove the `requires_grad = True` line."),
        )
        if cut is not None:
            _cuts.mark_fix_sites(finding, trace, cut)
        finding.add(Location.at(revival.site, "requires-grad", "requires_grad switched on"))
        for location in _cuts.locations(trace, cut) if cut else []:
            finding.add(location)
        backward = _backward_through(trace, revival)
        if backward is not None:
            finding.add(Location.at(backward.site, "backward", "stops at that tensor: trains nothing before it"))
        findings.append(finding)
    return findings


def _in_function_forward(site: Site | None) -> bool:
    """Whether the line is in the `forward` of a custom autograd Function (a class whose bases,
    as written, end in `Function`)."""
    if site is None or site.function != "forward":
        return False
    owner = enclosing_class(site.path, site.line)
    bases = class_bases(site.path, owner) if owner else None
    return bool(bases) and any(base.rsplit(".", 1)[-1] == "Function" for base in bases)


def _backward_through(trace: Trace, revival) -> BackwardCall | None:
    """The first backward that ran into the revived tensor (or, revivals being kept once per
    line, into a tensor revived on the same line in a later iteration)."""
    for node in sorted((n for n in trace.nodes.values() if n.ran_by is not None and n.leaf_ids), key=lambda n: n.seq):
        for lid in node.leaf_ids:
            leaf = trace.leaf(lid)
            if lid == revival.leaf or (leaf is not None and leaf.site is not None and revival.site is not None
                                       and (leaf.site.path, leaf.site.line) == (revival.site.path, revival.site.line)):
                return next((c for c in trace.backward_calls if c.index == node.ran_by), None)
    return None


def _gradient_asked_for(trace: Trace, revival) -> bool:
    """The revived tensor was later given as `inputs=` of autograd.grad or backward: its own
    gradient is what the program wants (a WGAN-GP penalty, an input-saliency map), not the
    parameters' before the cut."""
    if revival.leaf is not None and any(call.seq > revival.seq and revival.leaf in call.input_leaves
                                        for call in trace.backward_calls):
        return True
    # Revivals are kept once per line, and backward calls only the latest: the same line's tensor
    # of a later iteration, asked for by a later call, tells the same.
    return revival.site is not None and any(
        (leaf := trace.leaf(lid)) is not None and leaf.site == revival.site
        for call in trace.backward_calls for lid in call.input_leaves)


LEAF_RULE_ID = "backward-on-leaf"


def check_leaf_backward(trace: Trace) -> list[Finding]:
    """`loss.backward()` on a tensor that is itself a leaf (made from numbers with
    requires_grad=True, e.g. `torch.tensor(total, requires_grad=True)`): it only fills that
    tensor's own .grad; no parameter gets a gradient. Quiet where no model is around."""
    if not any(leaf.kind == "parameter" for leaf in trace.leaves.values()):
        return []
    findings, seen = [], set()
    revived = {revival.leaf for revival in trace.revivals}  # check_revival explains those
    for call in trace.backward_calls:
        if (call.error is not None or call.roots or not call.leaf_outputs or call.api == "torch.autograd.grad"
                or call.leaf_outputs[0] in revived):
            continue
        leaf = trace.leaf(call.leaf_outputs[0])
        key = (leaf.site, call.site) if leaf is not None else None  # once per line pair (a loop repeats it)
        if leaf is None or leaf.kind == "parameter" or key in seen:
            continue
        seen.add(key)
        escape = _last_escape(trace, call)
        finding = Finding(
            rule=LEAF_RULE_ID, severity="warning", title="Backward on a tensor that has no graph behind it",
            explanation=(f"{call_words(call)} backpropagates a tensor made at {where(leaf.site)} as a new leaf "
                         "(requires_grad=True on a tensor built from values): there is no graph behind it, so the "
                         "backward only fills its own .grad and no parameter gets a gradient."
                         + (f" Its value left autograd at {where(escape.site)} ({op_words(escape.op)} turns a "
                            "tensor into a Python number)." if escape else "")),
            fix=("Build the loss from the model's outputs as tensors (keep `log_prob`, not "
                 "`log_prob.item()`; sum tensors, e.g. `torch.stack(terms).sum()`), and drop "
                 "`torch.tensor(..., requires_grad=True)` around it."))
        finding.mark_fix(leaf.site, "makes a new leaf from plain values: nothing before it is in the graph")
        if escape is not None:
            finding.add(Location.at(escape.site, "cut", f"value left autograd ({op_words(escape.op)})"))
        finding.add(Location.at(call.site, "backward", "trains nothing"))
        findings.append(finding)
    return findings


# Keywords that build a layer or parameter without gradients, and the value that does not.
_TRAINABLE = {"freeze": "False", "requires_grad": "True"}


def _built_frozen(trace: Trace, finding: Finding) -> None:
    """No parameter was frozen after it was made: the calls of the program that may build them
    frozen (`from_pretrained(w, freeze=...)`, `nn.Parameter(t, requires_grad=False)`), and the
    setting that chose it, which is the line to change when one setting chose it for all."""
    files = project_files(trace)
    built = [(Site(path, line), key, value) for path in files for line, key, value in keyword_uses(path, _TRAINABLE)]
    if not built or len(built) > 4:
        return
    settings = {}
    for site, key, value in built:
        finding.add(Location.at(site, "defined", f"builds with {key}={value}: parameters that require no grad"))
        unless = _TRAINABLE[key]
        for place, name, set_to in options_read(site, files, accept=lambda v, unless=unless: v in ("True", "False")
                                                and v != unless):
            settings[(place.path, place.line)] = (place, name, set_to)
    if len(settings) == 1:
        place, name, value = next(iter(settings.values()))
        finding.mark_fix(place, f"sets `{name}` to {value}, which builds the parameters frozen: nothing in the loss "
                                "requires grad")
    elif len(built) == 1 and built[0][2] in ("True", "False"):
        site, key, value = built[0]
        finding.mark_fix(site, f"builds with {key}={value}: nothing in the loss requires grad")
