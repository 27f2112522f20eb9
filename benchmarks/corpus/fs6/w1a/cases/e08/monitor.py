from collections import defaultdict
from functools import partial

import torch


class GradientMonitor:
    """Collects per-parameter gradient norms through tensor hooks, registered lazily on the first forward."""

    def __init__(self, log_every=1):
        self.log_every = log_every
        self.step = 0
        self.norms = defaultdict(list)
        self.handles = []
        self._registered = False

    def watch(self, model):
        model.register_forward_pre_hook(self._on_forward)
        self.model = model

    def _on_forward(self, module, inputs):
        if self._registered:
            return
        for name, param in module.named_parameters():
            self.handles.append(param.register_hook(partial(self._record, name)))
        self._registered = True

    def _record(self, name, grad):
        if self.step % self.log_every == 0:
            self.norms[name].append(grad.norm().item())
        return grad

    def end_step(self):
        self.step += 1

    def summary(self):
        return {name: sum(v) / len(v) for name, v in self.norms.items() if v}


def global_grad_norm(model):
    grads = [p.grad.norm() for p in model.parameters() if p.grad is not None]
    return torch.stack(grads).norm().item() if grads else 0.0
