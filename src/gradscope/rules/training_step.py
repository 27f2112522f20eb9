"""The training step around a finding about parameters.

A finding that names an optimizer step (a frozen parameter it still changes, layers it never
holds, a module trained in eval mode) is fixed where the optimizer was made or where the
gradients it applies came from, so those lines are named too: the statement that built the
optimizer (and the one that collected the parameters it was given), and the backward calls
whose gradients the step applied, from the parameter ledger.
"""

from __future__ import annotations

from ..analyses.ledger import optimizer_made
from ..trace.findings import Finding, Location
from ..trace.locations import Site, is_library_path, user_site
from ..trace.model import Trace
from ..trace.queries import project_files


# Findings about the values of gradients (watched across backward calls, or non-finite), not about
# which parameters a step holds and which backward trains them.
_NOT_ABOUT_HOLDINGS = frozenset({"nonfinite-gradient", "nan-in-backward", "vanishing-gradient", "exploding-gradient",
                                 "dead-relu"})


def name_training_step(trace: Trace, findings: list[Finding]) -> None:
    files = None
    only_backward = _only_backward_line(trace)
    for finding in findings:
        stepped = next((loc for loc in finding.locations if loc.role == "step"), None)
        if stepped is None:
            # (a silent finding that names no backward: the program's one backward line is the
            # training the finding is about)
            if finding.severity == "warning" and only_backward is not None and finding.rule not in _NOT_ABOUT_HOLDINGS \
                    and not any(
                    loc.role in ("backward", "affected") for loc in finding.locations):
                finding.add(Location.at(only_backward, "affected", "the program's backward: it trains with this"))
            continue
        if finding.rule in _NOT_ABOUT_HOLDINGS or finding.rule.startswith(("ddp-", "clipped-")):
            continue  # (about values or syncing, not about which parameters the optimizer holds)
        files = files if files is not None else project_files(trace)
        shown = {(f.path, f.line) for loc in finding.locations for f in (loc, *loc.callers)}
        step = next((s for s in trace.param_steps if s.site is not None
                     and (s.site.path, s.site.line) == (stepped.path, stepped.line)), None)
        # (inside a library, `accelerator.backward(loss)`, the user's line that called it)
        made = optimizer_made(user_site(step.site if step is not None else Site(stepped.path, stepped.line, stepped.function, stepped.callers)), files)
        for site, what in made:
            if (site.path, site.line) not in shown:
                shown.add((site.path, site.line))
                finding.add(Location.at(site, "optimizer", "builds the optimizer that steps them") if what == "built"
                            else Location.at(site, "used", "collects the parameters the optimizer is given"))
        for site in [user_site(s) for s in (step.backward_sites if step is not None else [])][-2:]:
            if site is None:
                continue
            if (site.path, site.line) not in shown:
                shown.add((site.path, site.line))
                finding.add(Location.at(site, "backward", "makes the gradients this step applies"))
        # (a trainer that runs the backward itself, Lightning's: the program's line that made the
        # loss it backpropagates is the program's part of that backward)
        loss = _loss_a_library_backpropagates(trace)
        if loss is not None and (loss.path, loss.line) not in shown:
            finding.add(Location.at(loss, "loss", "the loss the trainer backpropagates"))


def _loss_a_library_backpropagates(trace: Trace) -> Site | None:
    for call in trace.backward_calls:
        if call.error is None and call.site is not None and is_library_path(call.site.path):
            node = next((trace.node(r) for r in call.roots if trace.node(r) is not None), None)
            for _ in range(8):  # (down the trainer's own scaling of it, `loss / accumulate_grad_batches`)
                if node is None or node.site is None or not is_library_path(node.site.path):
                    break
                node = trace.node(node.next_ids[0]) if node.next_ids else None
            if node is not None and node.site is not None and not is_library_path(node.site.path):
                return node.site
    return None


def _only_backward_line(trace: Trace) -> Site | None:
    """The user's line of every recorded backward call that ran without error, where it is one line."""
    lines = {}
    for call in trace.backward_calls:
        site = user_site(call.site) if call.error is None else None
        if site is not None:
            lines.setdefault((site.path, site.line), site)
    return next(iter(lines.values())) if len(lines) == 1 else None
