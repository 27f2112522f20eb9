"""`--grad-flow`: gradient statistics per parameter and per module output, per backward call.

The recorder calls in at two moments: when an nn.Module returns (a gradient hook goes on its
output; ReLU outputs also get their dead-unit count) and after each backward call (parameters'
`.grad`, and the statistics the hooks gathered). Only statistics are kept, never a gradient:
norm, largest magnitude, fraction of zeros, finiteness. They are computed as small tensors and
read back once per backward call (one device sync, not one per layer).

Memory stays bounded over any run: at most `max_steps` columns; when full, every other column
is dropped and only every second backward call is recorded from then on.

Our own statistics ops run with torch functions off, so the recorder never sees them.
"""

from __future__ import annotations

import fnmatch
import functools
import itertools
import math
import weakref

import torch

from ..trace.locations import capture
from ..trace.model import FlowSeries, GradFlow
from .reads import parameters_of, unique

RELU_TYPES = frozenset({"ReLU", "ReLU6"})


def _nothing():
    return None


class _Series:
    def __init__(self, kind, module_type, numel, order, site=None, name=None, module_id=None, leaf=None):
        self.kind, self.module_type, self.numel, self.order = kind, module_type, numel, order
        self.site, self.name, self.module_id, self.leaf = site, name, module_id, leaf
        self.columns: dict[int, tuple] = {}  # column -> (norm, max_abs, zero_fraction, finite)
        self.dead: dict[int, float] = {}  # column -> fraction of dead units (ReLU outputs)


class FlowCollector:
    def __init__(self, modules, leaves, errors, watch: tuple[str, ...] = (), max_steps: int = 512):
        self._modules = modules  # record.modules.Modules: module names and paths
        self._leaves = leaves  # record.leaves.Leaves: a parameter's leaf id
        self._errors = errors
        self.watch = watch  # module path patterns; empty: every module
        self.max_steps = max_steps
        self.series: dict[tuple, _Series] = {}
        self.steps: list[int] = []
        self.stride = 1
        self.first_nonfinite = None  # (series key, column)
        self._order = itertools.count()
        self._grads: list = []  # (key, stats tensor) from hooks during the running backward
        # key -> dead-unit fraction (a tensor) of the latest forward call: bounded by the number
        # of modules however many forward passes run without a backward (evaluation with grad on)
        self._forward: dict = {}
        self._last_output = _nothing  # weak reference to the output hooked last
        self._watched: dict[int, bool] = {}

    # ------------------------------------------------------------ forward: module outputs
    def pending(self) -> int:
        """Statistics held between a forward pass and the backward that will use them."""
        return max(0, len(self._forward) - 1) + len(self._grads)

    def module_output(self, module, output) -> None:
        if isinstance(output, (tuple, list)) and output:  # an RNN's (output, state): its output
            output = output[0]
        if not torch.is_grad_enabled() or not isinstance(output, torch.Tensor) or not output.requires_grad:
            return
        if self._last_output() is output or not self._is_watched(module):
            return  # a container returning its last child's output: the child has it
        self._last_output = weakref.ref(output)
        key = (id(module), "output")
        if key not in self.series:
            self.series[key] = _Series("output", type(module).__name__, output.numel(), next(self._order),
                                       site=capture()[0], module_id=id(module))
        with torch._C.DisableTorchFunction():  # our hook is not one the program registered
            output.register_hook(functools.partial(self._on_grad, key))
        if type(module).__name__ in RELU_TYPES and output.dim() >= 2:
            with torch._C.DisableTorchFunction(), torch.no_grad():  # units zero for every sample
                unit = _unit_dim(output)
                dead = (output == 0).all(dim=tuple(d for d in range(output.dim()) if d != unit))
                self._forward[key] = dead.float().mean().reshape(1)

    def _is_watched(self, module) -> bool:
        if not self.watch:
            return True
        known = self._watched.get(id(module))
        if known is None:
            name = self._modules.name_of(module)
            known = self._watched[id(module)] = name is not None and any(
                fnmatch.fnmatchcase(name, pattern) for pattern in self.watch)
        return known

    def _on_grad(self, key, grad):
        try:
            self._grads.append((key, _stats(grad)))
        except Exception as exc:
            self._errors.add(exc)
        return None  # the gradient flows on unchanged

    # ------------------------------------------------------------ after each backward call
    def forget(self) -> None:
        """A backward call that is not a training step (autograd.grad) or that failed: its
        gradients must not count toward the next step's column."""
        self._grads = []

    def after_backward(self, call_index: int, roots: list) -> None:
        grads, forward = self._grads, self._forward
        self._grads, self._forward, self._last_output = [], {}, _nothing
        if call_index % self.stride:
            return
        roots = [r for r in roots if any(True for _ in parameters_of(r))]
        for root in roots:
            prefix = f"{type(root).__name__}." if len(roots) > 1 else ""  # several models: say whose
            for name, param in unique(parameters_of(root)):
                if param.grad is None or (self.watch and not self._param_watched(name)):
                    continue
                key = (id(param), "parameter")
                if key not in self.series:
                    owner = _owner(root, name)
                    self.series[key] = _Series("parameter", type(owner).__name__, param.numel(), -1,
                                               name=prefix + name, module_id=id(owner),
                                               leaf=self._leaves.id_of(param))
                grads.append((key, _stats(param.grad)))
        if not grads:
            return
        column = len(self.steps)
        self.steps.append(call_index)
        values = _read_back([stats for _, stats in grads])
        combined: dict[tuple, list] = {}
        for (key, _), stats in zip(grads, values):
            combined.setdefault(key, []).append(stats)
            if self.first_nonfinite is None and not stats[3]:
                self.first_nonfinite = (key, column)
        for key, parts in combined.items():
            self.series[key].columns[column] = _combine(parts)
        if forward:
            for key, dead in zip(forward, _read_back(list(forward.values()))):
                self.series[key].dead[column] = dead[0]
        if len(self.steps) > self.max_steps:
            self._thin()

    def _param_watched(self, name: str) -> bool:
        module = name.rsplit(".", 1)[0] if "." in name else ""
        return any(fnmatch.fnmatchcase(module, p) or fnmatch.fnmatchcase(name, p) for p in self.watch)

    def _thin(self) -> None:
        """Keep every other column; record every other backward call from now on."""
        kept = list(range(0, len(self.steps), 2))
        renumber = {old: new for new, old in enumerate(kept)}
        self.steps = [self.steps[i] for i in kept]
        for series in self.series.values():
            series.columns = {renumber[c]: v for c, v in series.columns.items() if c in renumber}
            series.dead = {renumber[c]: v for c, v in series.dead.items() if c in renumber}
        if self.first_nonfinite is not None:
            key, column = self.first_nonfinite
            self.first_nonfinite = (key, renumber.get(column, column // 2))
        self.stride *= 2

    # ------------------------------------------------------------ the trace
    def to_trace(self, thresholds: dict, resolve, leaf_site) -> GradFlow:
        """`resolve` turns a raw location into a Site; `leaf_site(leaf id)` gives a parameter's."""
        orders = {s.module_id: s.order for s in self.series.values() if s.kind == "output"}
        named = []
        for key, series in self.series.items():
            module_path = self._modules.names.get(series.module_id)
            if series.kind == "output":
                name = module_path
                series.name = name if name else (f"{series.module_type} (model)" if name == "" else series.module_type)
                site = resolve(series.site)
            else:  # just after its module's output; modules that never ran last
                series.order = orders.get(series.module_id, 10**6) + 0.5
                site = leaf_site(series.leaf)
            named.append((key, series, site, module_path))
        named.sort(key=lambda item: (item[1].order, item[1].kind != "parameter", item[1].name or ""))
        flow = GradFlow(steps=list(self.steps), thresholds=dict(thresholds), stride=self.stride)
        for index, (key, series, site, module_path) in enumerate(named):
            columns = range(len(self.steps))
            values = [series.columns.get(c) for c in columns]
            flow.series.append(FlowSeries(
                name=series.name or series.module_type, kind=series.kind, module_type=series.module_type,
                site=site, numel=series.numel, order=index,
                norms=[v[0] if v else None for v in values], max_abs=[v[1] if v else None for v in values],
                zero_fraction=[v[2] if v else None for v in values],
                finite=[bool(v[3]) if v else None for v in values],
                dead_units=[series.dead.get(c) for c in columns] if series.dead else [],
                module=module_path, leaf=series.leaf))
            if self.first_nonfinite is not None and self.first_nonfinite[0] == key:
                flow.first_nonfinite = [index, self.first_nonfinite[1]]
        return flow


def _stats(grad) -> torch.Tensor:
    """[norm, max |g|, fraction of zeros, all finite] as one float32 tensor on the grad's device."""
    with torch._C.DisableTorchFunction(), torch.no_grad():
        g = grad.detach()
        if g.is_sparse:
            g = g.coalesce().values()
        if g.numel() == 0:
            return torch.zeros(4, device=g.device).index_fill_(0, torch.tensor([3], device=g.device), 1.0)
        # Three passes over the gradient, no temporary of its size (the cheapest ops measured on
        # CPU: the inf-norm is ten times slower than aminmax, `(g == 0).sum()` three times slower
        # than count_nonzero). Finite is read off the norm: NaN and inf reach it (so does a
        # float32 overflow, which is exploding anyway).
        norm = torch.linalg.vector_norm(g, dtype=torch.float32)
        low, high = torch.aminmax(g)
        return torch.stack([
            norm,
            torch.maximum(high.abs(), low.abs()).float(),
            1.0 - torch.count_nonzero(g).float() / g.numel(),
            torch.isfinite(norm).float(),
        ])


def _read_back(tensors: list) -> list[list[float]]:
    """One device-to-host copy per device for all the statistics of a backward call."""
    with torch._C.DisableTorchFunction(), torch.no_grad():
        by_device: dict = {}
        for index, tensor in enumerate(tensors):
            by_device.setdefault(tensor.device, []).append(index)
        values: list = [None] * len(tensors)
        for indices in by_device.values():
            rows = torch.stack([tensors[i] for i in indices]).tolist()
            for index, row in zip(indices, rows):
                values[index] = row
        return values


def _combine(parts: list[list[float]]) -> tuple:
    """One module called several times in a step (a recurrent cell): one set of statistics."""
    if len(parts) == 1:
        norm, biggest, zeros, finite = parts[0]
        return (norm, biggest, zeros, finite)
    return (math.sqrt(sum(p[0] ** 2 for p in parts)), max(p[1] for p in parts),
            sum(p[2] for p in parts) / len(parts), min(p[3] for p in parts))


def _unit_dim(tensor) -> int:
    """Which dimension holds the units: features of (N, F) or (N, T, F), channels of (N, C, H, W)."""
    return 1 if tensor.dim() >= 4 else tensor.dim() - 1


def _owner(root, name: str):
    """The module a parameter named `name` (from root.named_parameters) belongs to."""
    module = root
    for part in name.split(".")[:-1]:
        module = getattr(module, part, module)
    return module
