"""A pruning helper collects the weights of every prunable layer and registers a gradient mask
hook on each; the stem's weight was frozen, and a hook on a tensor that requires no grad raises."""
import torch
from torch import nn


class GradientMask:
    def __init__(self, model):
        self.params = [m.weight for m in model.modules() if isinstance(m, (nn.Conv2d, nn.Linear))]
        self.masks = [torch.ones_like(p, dtype=torch.bool) for p in self.params]

    def attach(self):
        for index, param in enumerate(self.params):
            param.register_hook(lambda grad, i=index: grad * self.masks[i])


torch.manual_seed(0)
model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 6 * 6, 2))
model[0].weight.requires_grad_(False)
GradientMask(model).attach()
