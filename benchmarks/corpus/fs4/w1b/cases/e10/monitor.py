import torch


class GradientMonitor:
    """Collects per-layer gradient norms for the dashboards."""

    def __init__(self, model, layer_names, every_n_steps=1):
        self.model = model
        self.layer_names = list(layer_names)
        self.every_n_steps = every_n_steps
        self.handles = []
        self.records = {name: [] for name in self.layer_names}
        self._step = 0

    def _make_hook(self, name):
        def hook(module, grad_input, grad_output):
            if self._step % self.every_n_steps == 0 and grad_output[0] is not None:
                self.records[name].append(grad_output[0].detach().norm().item())
        return hook

    def attach(self):
        modules = dict(self.model.named_modules())
        for name in self.layer_names:
            module = modules[name]
            self.handles.append(module.register_full_backward_hook(self._make_hook(name)))
        return self

    def step(self):
        self._step += 1

    def detach(self):
        for h in self.handles:
            h.remove()
        self.handles.clear()

    def summary(self):
        return {k: (sum(v) / len(v) if v else float("nan")) for k, v in self.records.items()}
