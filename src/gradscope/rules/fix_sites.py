"""The line to change, for findings whose rule did not mark one itself.

Each kind of finding names its lines by role; for most kinds one role is, by the cause, the
line where the one-line change goes (the `.numpy()` call for numpy-on-requires-grad, the
`returned` line of a custom Function's backward). This table says which role, best first, and
why that line, in one sentence. A finding marks a line only when it names one in that role:
where the record does not single a line out, none is marked (never a guess), and the finding's
own text says what to check.

Rules that choose from more facts (in-place changes, freed graphs, cuts, DDP) mark their own
lines; this runs after them and leaves their choice alone.
"""

from __future__ import annotations

from ..trace.findings import Finding, Location
from ..trace.locations import Site, user_site
from ..trace.source_search import enclosing_condition, input_guard, nonfinite_fill

# rule id -> [(role, why that line), ...], best first
FIX_ROLES: dict[str, list[tuple[str, str]]] = {
    "inplace-hazard": [("modified", "changes in place a tensor saved for a backward that has not run yet: make "
                                    "it out of place (or run that backward first)")],
    "backward-non-scalar": [("created", "makes the tensor that is backpropagated, which is not a scalar: reduce "
                                        "it here (`.mean()` or `.sum()`), or pass `gradient=` to backward")],
    "backward-gradient-mismatch": [("backward", "passes a gradient whose shape is not the shape of the tensor "
                                                "backpropagated")],
    "custom-function-bad-gradient": [("returned", "the Function's backward returns here: one gradient per input "
                                                  "of forward, each shaped like its input (None where none)")],
    "custom-function-view-inplace": [("returned", "forward returns its input (or a view of it): return a clone, "
                                                  "or declare the change with ctx.mark_dirty"),
                                     ("failed", "or make this write out of place")],
    # (multi-output-view-inplace: no line. Cloning the view, or an out-of-place op, would make an
    # in-place update meant for the whole tensor a no-op; the finding says what to check.)
    "detach-view-inplace": [("failed", "changes in place a view of a detached tensor that autograd still needs: "
                                       "change a clone")],
    "no-grad-view-inplace": [("failed", "changes in place, with grad on, a view made under no_grad: make the "
                                        "change under no_grad too, or take the view outside it")],
    "hook-changed-gradient": [("hook", "the hook returns a gradient of another size: return one shaped like the "
                                       "gradient it is given (or None)")],
    "hook-on-tensor-without-grad": [("no-grad-block", "switches gradient tracking off, so the tensor the hook is "
                                                      "registered on requires no grad: run this with grad enabled"),
                                    ("cut", "the tensor the hook is registered on loses its graph here")],
    # (no cut: nothing singles a line out; the input may be meant, and the code that should
    # use it is what to check: the finding says so, without a mark)
    "grad-input-unused": [("cut", "the outputs stop depending on this input here")],
    "requires-grad-on-non-leaf": [("non-leaf", "makes the tensor a non-leaf (computed from a tensor that requires "
                                               "grad): set requires_grad on the tensor before this op, or on a "
                                               "detached result")],
    "optimizer-non-leaf": [("non-leaf", "makes the tensor given to the optimizer a non-leaf: create it on its "
                                        "device and dtype with requires_grad=True, or pass a detached leaf")],
    "only-float-requires-grad": [("failed", "asks an integer tensor to require grad: make it a float tensor")],
    "inference-tensor-in-autograd": [("no-grad-block", "torch.inference_mode() here makes tensors autograd can "
                                                       "never save: use torch.no_grad() instead"),
                                     ("inference", "made under inference_mode: clone it outside that block")],
    "numpy-on-requires-grad": [("failed", "converts a tensor that requires grad: use `.detach().cpu().numpy()`")],
    "resize-requires-grad": [("failed", "resizes a tensor that requires grad: resize a detached clone")],
    "out-argument-with-grad": [("failed", "writes into `out=` from inputs that require grad: drop `out=` and "
                                          "assign the result")],
    "leaf-moved-into-graph": [("modified", "writes into a leaf that requires grad, after a graph used it")],
    "grad-is-none": [("non-leaf", "makes the tensor whose .grad is read a non-leaf (its .grad stays None): keep "
                                  "the leaf itself")],
    "non-leaf-grad-read": [("non-leaf", "makes the tensor whose .grad is read a non-leaf (its .grad stays None): "
                                        "read the leaf's .grad, or call .retain_grad()")],
    "grad-not-zeroed": [("backward", "gradients from earlier steps are still in .grad when this backward adds "
                                     "to them: call optimizer.zero_grad() before it")],
    "accumulation-wiped": [("zero_grad", "resets the gradients between the backward calls meant to add up: "
                                         "reset them only after the optimizer step")],
    "data-write-to-saved-tensor": [("modified", "writes through `.data` into a tensor a backward then used: "
                                                "change a copy, or make the change out of place")],
    "loss-term-without-gradient": [("cut", "the term loses its graph here, so adding it to the loss trains "
                                           "nothing")],
    "graph-kept-alive": [("kept", "keeps the loss with its graph across iterations: add `loss.item()` (or a "
                                  "detached value) instead")],
    "target-is-online-network": [("alias", "makes the target the online network object itself: assign a copy "
                                           "(`copy.deepcopy`)")],
    "nonfinite-gradient": [("masked", "masks a whole row with -inf, so the softmax of that row is NaN: mask with "
                                      "a large finite negative value, or skip empty rows"),
                           ("origin", "makes the first non-finite value, which later ops carry into the "
                                      "gradients: keep its input in the op's domain here (clamp or mask before it)"),
                           ("created", "the backward of this op turns finite gradients into NaN/inf: keep its "
                                       "input away from where its derivative is infinite (clamp or mask it here)")],
    "nan-in-backward": [("source", "makes the first non-finite value: keep its input in the op's domain here"),
                        ("created", "the backward of this op returned NaN: keep its input away from where its "
                                    "derivative is undefined (clamp or mask it here)")],
    "derivative-not-implemented": [("created", "uses an op whose derivative PyTorch does not implement: use a "
                                               "differentiable alternative here, or run it under no_grad")],
    "backward-create-graph-cycle": [("backward", "create_graph=True here keeps each .grad's graph alive: pass "
                                                 "it only where a higher-order gradient is needed")],
}


_NONFINITE = ("nonfinite-gradient", "nan-in-backward")


def mark_fix_sites(findings: list[Finding]) -> None:
    """Mark, for each finding without a fix site, the line its kind of cause singles out."""
    for finding in findings:
        if finding.fix_sites or "unmarked" in finding.details:
            continue  # (marked by its rule, or the rule found that its roles single no line out)
        if finding.rule == "accumulation-wiped" and _reset_under_condition(finding):
            continue
        for role, why in FIX_ROLES.get(finding.rule, ()):
            found = next((loc for loc in finding.locations if loc.role == role), None)
            site = _user_line(found)
            if site is None:
                continue
            # (the op at that location, as the rule recorded it: the guard is looked for on its input)
            op = finding.details.get("op_at", {}).get(role)
            filled = nonfinite_fill(site.path, site.line, op) if finding.rule in _NONFINITE else None
            if filled is not None:
                # (the op's input was filled with +inf or NaN before it: a sign slip in a mask,
                # `-float("-inf")`, makes every row NaN)
                line, value = filled
                finding.mark_fix(Site(site.path, line, site.function, site.callers),
                                 f"fills the input of the op at line {site.line} with {value}: a softmax over a row "
                                 "holding it is NaN; a mask fills with -inf (or a large finite negative number)")
                finding.add(Location(site.path, line, "masked", f"filled with {value}", site.function,
                                     site.callers))
                break
            guard = input_guard(site.path, site.line, op) if finding.rule in _NONFINITE else None
            if guard is not None:
                # The op's input went through a guard (a clamp to the domain's edge, a mask with
                # -inf) that lets the value where the op's derivative is infinite through.
                line, name = guard
                finding.mark_fix(Site(site.path, line, site.function, site.callers),
                                 f"this {name} is meant to keep the input of the op at line {site.line} in its "
                                 "domain, but lets through the value where its derivative is infinite (the edge "
                                 "of the domain, or a row masked whole): guard strictly inside it")
                finding.add(Location(site.path, line, "guard", f"{name} that does not guard", site.function,
                                     site.callers))
            finding.mark_fix(site, why)
            # (a second line, as good, where the table gives one: "or ...")
            for other_role, other_why in FIX_ROLES.get(finding.rule, ())[1:]:
                other = _user_line(next((loc for loc in finding.locations if loc.role == other_role), None))
                if other_why.startswith("or ") and role != other_role and other is not None:
                    finding.mark_fix(other, other_why)
            break


def _reset_under_condition(finding: Finding) -> bool:
    """A reset inside an `if` (`if it % n == 0: optimizer.zero_grad()`) that lets it run inside
    the accumulation window: the condition is the line to change, or the reset goes right after
    the step. Whether it marked them."""
    reset = _user_line(next((loc for loc in finding.locations if loc.role == "zero_grad"), None))
    step = _user_line(next((loc for loc in finding.locations if loc.role == "step"), None))
    condition = enclosing_condition(reset.path, reset.line) if reset is not None else None
    if condition is None:
        return False
    finding.mark_fix(Site(reset.path, condition, reset.function, reset.callers),
                     f"lets the reset at line {reset.line} run inside the accumulation window, before the last "
                     "backward the step is meant to sum: reset at the start of each window instead")
    if step is not None:
        finding.mark_fix(step, "or reset the gradients right after this step")
    return True


def _user_line(location: Location | None) -> Site | None:
    """The location, or, inside an installed library, the user's innermost line that called it."""
    return user_site(Site(location.path, location.line, location.function, location.callers)) if location else None
