"""Transfer learning with a frozen backbone: the config names the head to keep trainable by its
prefix, "classifier", but this model's head is called "head". Every parameter is frozen and
backward has nothing to differentiate."""
import torch
from torch import nn

CONFIG = {"trainable_prefixes": ("classifier",), "lr": 0.1}


def set_trainable(model, prefixes):
    for name, param in model.named_parameters():
        param.requires_grad = any(name.startswith(prefix) for prefix in prefixes)


torch.manual_seed(0)
model = nn.Sequential()
model.add_module("backbone", nn.Sequential(nn.Linear(8, 16), nn.ReLU()))
model.add_module("head", nn.Linear(16, 3))
set_trainable(model, CONFIG["trainable_prefixes"])
optimizer = torch.optim.SGD(model.parameters(), lr=CONFIG["lr"])
loss = nn.functional.cross_entropy(model(torch.randn(4, 8)), torch.tensor([0, 1, 2, 0]))
loss.backward()
