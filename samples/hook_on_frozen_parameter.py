"""A gradient monitor puts a hook on every parameter of the model it watches, but the pretrained
embedding was frozen first: register_hook refuses a tensor that does not require grad. The loop
should skip the frozen parameters."""
import torch
from torch import nn


class Monitor:
    def __init__(self):
        self.norms = {}

    def watch(self, model):
        for name, param in model.named_parameters():
            param.register_hook(lambda grad, name=name: self.norms.__setitem__(name, grad.norm().item()))


torch.manual_seed(0)
model = nn.Sequential(nn.Embedding(50, 8), nn.Flatten(), nn.Linear(32, 2))
model[0].weight.requires_grad_(False)
Monitor().watch(model)
loss = model(torch.randint(0, 50, (3, 4))).sum()
loss.backward()
