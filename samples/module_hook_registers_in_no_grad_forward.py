"""A feature extractor's forward hook puts a gradient hook on each output; a second extractor
built on the same model probes it with a forward under no_grad, and the first one's hook fires."""
import torch
import torch.nn as nn


class GradientKeeper:
    def __init__(self, model, layer):
        self.grads = []
        layer.register_forward_hook(self._on_forward)
        with torch.no_grad():
            self.shape = model(torch.zeros(1, 4)).shape

    def _on_forward(self, module, inputs, output):
        output.register_hook(self.grads.append)


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
first = GradientKeeper(model, model[0])
second = GradientKeeper(model, model[2])
model(torch.randn(3, 4)).sum().backward()
