import copy

import torch


class ModelEMA:
    """Exponential moving average of a model's weights (mean teacher)."""

    def __init__(self, model, decay=0.99, warmup=True):
        self.module = copy.deepcopy(model).eval()
        self.module.requires_grad_(False)
        self.decay = decay
        self.warmup = warmup
        self.updates = 0

    def _decay(self):
        if not self.warmup:
            return self.decay
        return min(self.decay, (1 + self.updates) / (10 + self.updates))

    @torch.no_grad()
    def update(self, model):
        self.updates += 1
        d = self._decay()
        student = model.state_dict()
        for name, t in self.module.state_dict().items():
            if t.dtype.is_floating_point:
                t.mul_(d).add_(student[name].detach(), alpha=1 - d)
            else:
                t.copy_(student[name])
