"""A gradient monitor puts a full backward hook on the layer the config names; that layer's
output is then changed in place by the next activation (ReLU(inplace=True)), which autograd
forbids for the output a full backward hook wraps."""
from collections import OrderedDict

import torch
import torch.nn as nn

CONFIG = {"watch": ["encoder.fc", "head"]}


class GradientMonitor:
    def __init__(self, model, names):
        self.norms = {}
        modules = dict(model.named_modules())
        for name in names:
            modules[name].register_full_backward_hook(self._hook(name))

    def _hook(self, name):
        def record(module, grad_input, grad_output):
            self.norms[name] = grad_output[0].norm().item()
        return record


torch.manual_seed(0)
model = nn.Sequential(OrderedDict(
    encoder=nn.Sequential(OrderedDict(fc=nn.Linear(4, 8), act=nn.ReLU(inplace=True))),
    head=nn.Linear(8, 1)))
monitor = GradientMonitor(model, CONFIG["watch"])
loss = model(torch.randn(2, 4)).pow(2).mean()
loss.backward()
print(monitor.norms)
