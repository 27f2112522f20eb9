"""A model switches its activations and dropouts to in-place after building them, to save memory.
The in-place dropout then overwrites the ReLU output that ReLU's backward needs."""
import torch
from torch import nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)
        self.act = nn.ReLU()
        self.drop = nn.Dropout(0.1)
        for module in self.modules():
            if isinstance(module, (nn.ReLU, nn.Dropout)):
                module.inplace = True

    def forward(self, x):
        return self.drop(self.act(self.fc(x)))


torch.manual_seed(0)
Block()(torch.randn(4, 8)).sum().backward()
