"""The parameter ledger of each optimizer's first steps: which parameters had no .grad, or one
that is zero everywhere, and which the step changed (their version moved), frozen ones among
them. Looked at on GRAD_CHECK_STEPS steps of each optimizer, never per op."""

from __future__ import annotations

import types

import torch

from ..trace.locations import Site, capture_stack
from ..trace.model import ParamStep
from .leaves import Leaves


class StepLedger:
    def __init__(self, leaves: Leaves):
        self._leaves = leaves
        self.steps: list[ParamStep] = []

    def begin(self, optimizer, site, params, with_grad, seq: int = 0, groups: int = 1) -> tuple:
        """Before a step of `optimizer` (its OptimizerState): the parameters without .grad, and
        one count of non-zero elements per gradient (read after the step)."""
        leaf_id = self._leaves.id_of
        dense = [p for p in with_grad if p.grad.layout == torch.strided]
        zeros = [p.grad.count_nonzero() for p in dense]
        entry = ParamStep(optimizer.name, optimizer.steps, site, len(params), 0,
                          grad_none=[leaf_id(p) for p in params if p.requires_grad and p.grad is None][:16],
                          frozen_grad_none=[leaf_id(p) for p in params if not p.requires_grad and p.grad is None][:16],
                          optimizer_index=optimizer.index, seq=seq, groups=groups)
        # (leaf ids, not the parameters: a step that raises never ends, and holds nothing alive)
        return entry, [leaf_id(p) for p in dense], zeros

    def end(self, begun: tuple, before) -> bool:
        """After the step (`before`: a weak reference to each parameter with its version before
        it). Whether the entry names something worth naming the model's parameters for while
        they live."""
        entry, dense, zeros = begun
        leaf_id = self._leaves.id_of
        changed = [p for ref, version in before if (p := ref()) is not None and p._version != version]
        entry.changed = len(changed)
        entry.changed_leaves = [leaf_id(p) for p in changed[:64]]
        entry.frozen_changed = [leaf_id(p) for p in changed if not p.requires_grad][:16]
        if zeros:
            counts = _read(zeros)
            entry.grad_zero = [lid for lid, n in zip(dense, counts) if n == 0][:16]
            entry.grad_nonzero = sum(1 for n in counts if n)
        self.steps.append(entry)
        return bool(entry.frozen_changed or entry.grad_zero or entry.grad_none)


    def after_step(self, state, optimizer, begun, before, clock_seq) -> bool:
        """After a step of `optimizer` (its OptimizerState `state`): the entry begun before it,
        if any, finished; else, for an optimizer with step pre-hooks of its own, the frozen
        parameters the step changed (see frozen_during_step). Whether something is worth naming."""
        hooks = getattr(optimizer, "_optimizer_step_pre_hooks", None)
        if begun is not None:
            noted = self.end(begun, before)
            if noted and begun[0].frozen_changed and hooks:
                begun[0].step_hooks = hook_sites(hooks)
            return noted
        # Its own pre-hooks run inside the step, out of the recorder's sight (a schedule that
        # freezes parameters there, after the backward filled their .grad: this very step
        # applies it).
        return bool(hooks) and self.frozen_during_step(state, before, clock_seq, hook_sites(hooks))

    def frozen_during_step(self, optimizer, before, clock_seq, hooks) -> bool:
        """A step after the ledger's first ones, of an optimizer with step hooks of its own (which
        may freeze parameters inside the step): an entry naming the frozen parameters it changed,
        if any, and where the hooks are defined."""
        leaf_id = self._leaves.id_of
        changed = [p for ref, version in before if (p := ref()) is not None and p._version != version]
        frozen = [leaf_id(p) for p in changed if not p.requires_grad][:16]
        if not frozen or len(self.steps) >= 256:
            return False
        self.steps.append(ParamStep(optimizer.name, optimizer.steps, capture_stack()[0], len(before), len(changed),
                                    frozen_changed=frozen, changed_leaves=[leaf_id(p) for p in changed[:64]],
                                    optimizer_index=optimizer.index, seq=next(clock_seq), step_hooks=hooks))
        return True


def _read(counts: list) -> list[int]:
    """The counts as numbers: one stack and one read per device (a device sync, first steps only)."""
    by_device: dict = {}
    for index, count in enumerate(counts):
        by_device.setdefault(count.device, []).append(index)
    values = [0] * len(counts)
    for indices in by_device.values():
        for index, value in zip(indices, torch.stack([counts[i] for i in indices]).tolist()):
            values[index] = value
    return values


def hook_sites(hooks) -> list[Site]:
    """Where the functions of an optimizer's step hooks are defined (read from their code
    objects: nothing of the program runs)."""
    sites = []
    for hook in list(hooks.values())[:4]:
        function = hook.__func__ if type(hook) is types.MethodType else hook  # (no user attribute lookup)
        code = function.__code__ if type(function) is types.FunctionType else None
        if code is not None:
            sites.append(Site(code.co_filename, code.co_firstlineno, code.co_name))
    return sites
