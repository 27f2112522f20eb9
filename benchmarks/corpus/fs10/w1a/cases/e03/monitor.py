import torch.nn as nn


class GradientMonitor:
    def __init__(self, model, watch_types, every_n_steps=1):
        self.model = model
        self.watch_types = tuple(getattr(nn, name) for name in watch_types)
        self.every_n_steps = every_n_steps
        self.handles = []
        self.stats = {}

    def _make_hook(self, name):
        def hook(module, grad_input, grad_output):
            g = grad_output[0]
            if g is not None:
                self.stats.setdefault(name, []).append(g.norm().item())
        return hook

    def attach(self):
        for name, module in self.model.named_modules():
            if isinstance(module, self.watch_types):
                self.handles.append(module.register_full_backward_hook(self._make_hook(name)))

    def detach(self):
        for h in self.handles:
            h.remove()
        self.handles = []

    def summary(self):
        return {k: sum(v) / len(v) for k, v in self.stats.items()}
