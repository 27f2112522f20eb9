"""A feed-forward block built from per-layer option lists: the activation comes from a name
registry and, where a dropout rate is given, an in-place Dropout follows it, overwriting the
activation's output that its backward needs."""
import torch
from torch import nn

ACTIVATIONS = {"relu": nn.ReLU, "tanh": nn.Tanh}
CONFIG = {"layers": [6, 8, 1], "activation": ["tanh", None], "dropout": [0.2, None]}


class FeedForward(nn.Module):
    def __init__(self, layers, activation, dropout):
        super().__init__()
        modules = []
        for i in range(len(layers) - 1):
            modules.append(nn.Linear(layers[i], layers[i + 1]))
            if activation[i] is not None:
                modules.append(ACTIVATIONS[activation[i]]())
            if dropout[i] is not None:
                modules.append(nn.Dropout(p=dropout[i], inplace=True))
        self.net = nn.Sequential(*modules)

    def forward(self, x):
        return self.net(x)


torch.manual_seed(0)
model = FeedForward(**CONFIG)
model(torch.randn(4, 6)).pow(2).mean().backward()
